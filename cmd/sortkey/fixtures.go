package main

// sortkey dump and sortkey load: a whole server, every table's settings
// and items, to and from one folder (internal/dataio's fixtures).

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/sortkeydb/sortkey/internal/dataio"
	"github.com/sortkeydb/sortkey/internal/progress"
)

const (
	dumpUsage     = "usage: sortkey dump --out DIR [--endpoint URL] [--region R] [--quiet]"
	loadUsage     = "usage: sortkey load --in DIR [--endpoint URL] [--region R] [--quiet]"
	msgDumpFailed = "sortkey dump: %v\n"
	msgLoadFailed = "sortkey load: %v\n"
	msgDumpDone   = "dumped %d tables to %s\n"
	msgLoadDone   = "loaded %d tables from %s\n"
	msgFolderFlag = "--%s is required"
)

type fixtureFlags struct {
	endpoint, region, dir string
	quiet                 bool
}

func parseFixtureFlags(name, dirFlag, usage string, args []string, stdout, stderr io.Writer) (fixtureFlags, error) {
	var f fixtureFlags
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {} // designUsageOut, after parsing
	fs.StringVar(&f.endpoint, "endpoint", "", "DynamoDB endpoint URL, e.g. http://127.0.0.1:8000 (default: DynamoDB itself)")
	fs.StringVar(&f.region, "region", "", "AWS region (default: from the environment, or us-east-1 with --endpoint)")
	fs.StringVar(&f.dir, dirFlag, "", "the fixture's folder: tables.json and a data file per table")
	fs.BoolVar(&f.quiet, "quiet", false, quietUsage)
	if err := fs.Parse(args); err != nil {
		designUsageOut(fs, usage, err, stdout, stderr)
		return f, err
	}
	if f.dir == "" {
		fmt.Fprintln(stderr, usage)
		return f, fmt.Errorf(msgFolderFlag, dirFlag)
	}
	return f, nil
}

func dumpCmd(args []string, stdout, stderr io.Writer) int {
	return fixtureCmd("dump", "out", dumpUsage, msgDumpFailed, args, stdout, stderr, func(ctx context.Context, c *dynamodb.Client, dir string, m *progress.Meter) error {
		fx, err := dataio.Dump(ctx, c, dir, dataio.DumpOptions{Progress: m})
		m.Done()
		if err == nil {
			fmt.Fprintf(stdout, msgDumpDone, len(fx.Tables), dir)
		}
		return err
	})
}

func loadCmd(args []string, stdout, stderr io.Writer) int {
	return fixtureCmd("load", "in", loadUsage, msgLoadFailed, args, stdout, stderr, func(ctx context.Context, c *dynamodb.Client, dir string, m *progress.Meter) error {
		created, err := dataio.Load(ctx, c, dir, dataio.LoadOptions{Progress: m})
		m.Done()
		if err == nil {
			fmt.Fprintf(stdout, msgLoadDone, len(created), dir)
		}
		return err
	})
}

func fixtureCmd(name, dirFlag, usage, failed string, args []string, stdout, stderr io.Writer, run func(context.Context, *dynamodb.Client, string, *progress.Meter) error) int {
	f, err := parseFixtureFlags(name, dirFlag, usage, args, stdout, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	if err != nil {
		fmt.Fprintf(stderr, failed, err)
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	cfg, err := applyConfig(ctx, applyFlags{endpoint: f.endpoint, region: f.region})
	if err == nil {
		err = run(ctx, dynamodb.NewFromConfig(cfg), f.dir, newMeter(stderr, name, f.quiet))
	}
	if err != nil {
		fmt.Fprintf(stderr, failed, err)
		return 1
	}
	return 0
}
