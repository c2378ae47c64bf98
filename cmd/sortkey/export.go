package main

// `sortkey export`: a table's items in DynamoDB's S3 export layout, in a
// local folder, read with a parallel Scan from any endpoint (internal/dataio).

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/sortkeydb/sortkey/internal/dataio"
)

const (
	tableExportUsage = "usage: sortkey export --table T --out DIR [--endpoint URL] [--region R] [--format DYNAMODB_JSON|ION] [--segments 4] [--consistent] [--quiet]"
	msgExportFailed  = "sortkey export: %v\n"
	msgExportNeeds   = "sortkey export: give --table and --out"
	msgExportDone    = "exported %d items from %s in %s (%.0f items/s) to %s\n"
)

type exportFlags struct {
	endpoint, region string
	quiet            bool
	opts             dataio.ExportOptions
}

func parseExport(args []string, stdout, stderr io.Writer) (exportFlags, error) {
	var f exportFlags
	fs := flag.NewFlagSet("export", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {} // designUsageOut, after parsing
	fs.StringVar(&f.endpoint, "endpoint", "", "DynamoDB endpoint URL, e.g. http://127.0.0.1:8000 or https://dynamodb.eu-west-1.amazonaws.com (default: DynamoDB itself)")
	fs.StringVar(&f.region, "region", "", "AWS region (default: from the environment, or us-east-1 with --endpoint)")
	fs.StringVar(&f.opts.Table, "table", "", "the table to export")
	fs.StringVar(&f.opts.Dir, "out", "", "the export prefix's folder: the export goes to DIR/AWSDynamoDB/<ExportId>/")
	fs.StringVar(&f.opts.Format, "format", dataio.FormatJSON, "DYNAMODB_JSON or ION (data/*.json.gz or data/*.ion.gz, as DynamoDB writes them)")
	fs.IntVar(&f.opts.Segments, "segments", 4, "parallel Scan segments, one data file each")
	fs.BoolVar(&f.opts.ConsistentRead, "consistent", false, "strongly consistent Scan")
	fs.BoolVar(&f.quiet, "quiet", false, quietUsage)
	fs.StringVar(&f.opts.S3Bucket, "s3-bucket", "", "the bucket the folder will be copied to, recorded in manifest-summary.json (default: null)")
	fs.StringVar(&f.opts.S3Prefix, "s3-prefix", "", "the prefix in that bucket, recorded in manifest-summary.json (default: null)")
	if err := fs.Parse(args); err != nil {
		designUsageOut(fs, tableExportUsage, err, stdout, stderr)
		return f, err
	}
	if f.opts.Table == "" || f.opts.Dir == "" || fs.NArg() > 0 {
		fmt.Fprintln(stderr, msgExportNeeds)
		return f, fmt.Errorf("%s", msgExportNeeds)
	}
	return f, nil
}

func exportCmd(args []string, stdout, stderr io.Writer) int {
	f, err := parseExport(args, stdout, stderr)
	if err != nil {
		return flagStatus(err)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	cfg, err := applyConfig(ctx, applyFlags{endpoint: f.endpoint, region: f.region})
	if err != nil {
		fmt.Fprintf(stderr, msgExportFailed, err)
		return 1
	}
	start := time.Now()
	meter := newMeter(stderr, "export", f.quiet)
	f.opts.Progress = meter
	r, err := dataio.Export(ctx, dynamodb.NewFromConfig(cfg), f.opts)
	meter.Done()
	if err != nil {
		fmt.Fprintf(stderr, msgExportFailed, err)
		return 1
	}
	took := time.Since(start)
	fmt.Fprintf(stdout, msgExportDone, r.Summary.ItemCount, f.opts.Table, took.Round(time.Millisecond),
		float64(r.Summary.ItemCount)/took.Seconds(), filepath.ToSlash(r.Path))
	return 0
}
