package main

// `sortkey import`: an export's folder (or a folder of data files) into a
// new table, as ImportTable does it, against any endpoint (internal/dataio).

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/sortkeydb/sortkey/internal/dataio"
)

const (
	tableImportUsage = "usage: sortkey import --table NAME --in DIR (--partition-key NAME:TYPE [--sort-key NAME:TYPE] | --schema-from TABLE)\n" +
		"       [--endpoint URL] [--region R] [--format DYNAMODB_JSON|ION|CSV] [--compression NONE|GZIP|ZSTD]\n" +
		"       [--csv-header a,b,c] [--csv-delimiter ,] [--error-log FILE] [--writers 4] [--quiet]"
	msgImportFailed  = "sortkey import: %v\n"
	msgImportNeeds   = "sortkey import: give --table and --in"
	msgImportSchema  = "sortkey import: give either --partition-key (and --sort-key) or --schema-from, not both"
	msgImportDone    = "imported %d of %d items into %s from %d files (%d bytes) in %s (%.0f items/s)\n"
	msgImportErrors  = "import FAILED (ItemValidationError): %s. %d items were not imported; each is logged in %s. The table %s holds the other items.\n"
	msgImportArn     = "ImportArn %s\n"
	importItemErrors = 3 // the exit status when some items were not imported
)

type importFlags struct {
	endpoint, region           string
	partitionKey, sortKey      string
	schemaFrom, schemaEndpoint string
	csvHeader                  string
	quiet                      bool
	opts                       dataio.ImportOptions
}

func parseImport(args []string, stdout, stderr io.Writer) (importFlags, error) {
	var f importFlags
	fs := flag.NewFlagSet("import", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {} // designUsageOut, after parsing
	fs.StringVar(&f.endpoint, "endpoint", "", "DynamoDB endpoint URL, e.g. http://127.0.0.1:8000 (default: DynamoDB itself)")
	fs.StringVar(&f.region, "region", "", "AWS region (default: from the environment, or us-east-1 with --endpoint)")
	fs.StringVar(&f.opts.Table, "table", "", "the table to create; it must not exist")
	fs.StringVar(&f.opts.Dir, "in", "", "an export's folder (the one holding manifest-summary.json, or its prefix folder), or a folder of data files")
	fs.StringVar(&f.opts.Format, "format", dataio.FormatJSON, "DYNAMODB_JSON, ION (Amazon Ion text) or CSV")
	fs.StringVar(&f.opts.Compression, "compression", "", "NONE, GZIP or ZSTD (default: GZIP for an export's folder, NONE for a folder of files)")
	fs.StringVar(&f.partitionKey, "partition-key", "", "the new table's partition key, NAME:TYPE with TYPE S, N or B")
	fs.StringVar(&f.sortKey, "sort-key", "", "the new table's sort key, NAME:TYPE")
	fs.StringVar(&f.schemaFrom, "schema-from", "", "take the keys and global secondary indexes from this existing table (DescribeTable)")
	fs.StringVar(&f.schemaEndpoint, "schema-endpoint", "", "the endpoint of --schema-from's table (default: --endpoint)")
	fs.StringVar(&f.csvHeader, "csv-header", "", "comma-separated column names for CSV files that have no header line")
	fs.StringVar(&f.opts.CSVDelimiter, "csv-delimiter", "", "CSV delimiter: , TAB : ; | or a space (default ,)")
	fs.StringVar(&f.opts.ErrorLog, "error-log", "", "where items not imported are logged, a JSON line each (default: import-<ImportId>-errors.jsonl here)")
	fs.IntVar(&f.opts.Writers, "writers", 4, "concurrent BatchWriteItem calls")
	fs.BoolVar(&f.quiet, "quiet", false, quietUsage)
	if err := fs.Parse(args); err != nil {
		designUsageOut(fs, tableImportUsage, err, stdout, stderr)
		return f, err
	}
	if f.opts.Table == "" || f.opts.Dir == "" || fs.NArg() > 0 {
		fmt.Fprintln(stderr, msgImportNeeds)
		return f, errors.New(msgImportNeeds)
	}
	if f.schemaFrom != "" && (f.partitionKey != "" || f.sortKey != "") {
		fmt.Fprintln(stderr, msgImportSchema)
		return f, errors.New(msgImportSchema)
	}
	if f.csvHeader != "" {
		f.opts.CSVHeader = strings.Split(f.csvHeader, ",")
	}
	return f, nil
}

func importCmd(args []string, stdout, stderr io.Writer) int {
	f, err := parseImport(args, stdout, stderr)
	if err != nil {
		return flagStatus(err)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	c, err := importClient(ctx, f.endpoint, f.region)
	if err == nil {
		f.opts.Schema, err = f.schema(ctx)
	}
	if err != nil {
		fmt.Fprintf(stderr, msgImportFailed, err)
		return 2
	}
	start := time.Now()
	meter := newMeter(stderr, "import", f.quiet)
	f.opts.Progress = meter
	r, err := dataio.Import(ctx, c, f.opts)
	meter.Done()
	if err != nil {
		fmt.Fprintf(stderr, msgImportFailed, err)
		return 1
	}
	took := time.Since(start)
	fmt.Fprintf(stdout, msgImportDone, r.ImportedItemCount, r.ProcessedItemCount, f.opts.Table, r.Files,
		r.ProcessedSizeBytes, took.Round(time.Millisecond), float64(r.ImportedItemCount)/took.Seconds())
	fmt.Fprintf(stdout, msgImportArn, r.ImportArn)
	if r.Failed() {
		fmt.Fprintf(stderr, msgImportErrors, r.FailureMessage(), r.ErrorCount, r.ErrorLog, f.opts.Table)
		return importItemErrors
	}
	return 0
}

func importClient(ctx context.Context, endpoint, region string) (*dynamodb.Client, error) {
	cfg, err := applyConfig(ctx, applyFlags{endpoint: endpoint, region: region})
	if err != nil {
		return nil, err
	}
	return dynamodb.NewFromConfig(cfg), nil
}

func (f importFlags) schema(ctx context.Context) (dataio.Schema, error) {
	if f.schemaFrom == "" {
		return dataio.KeysSchema(f.partitionKey, f.sortKey)
	}
	c, err := importClient(ctx, cmpOr(f.schemaEndpoint, f.endpoint), f.region)
	if err != nil {
		return dataio.Schema{}, err
	}
	return dataio.SchemaFromTable(ctx, c, f.schemaFrom)
}
