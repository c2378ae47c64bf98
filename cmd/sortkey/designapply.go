package main

// `sortkey design apply`: a design's tables made to exist as designed
// (internal/design/apply), against DynamoDB or any endpoint.

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/sortkeydb/sortkey/internal/design"
	"github.com/sortkeydb/sortkey/internal/design/apply"
)

func init() {
	designCommands["apply"] = designCommand{
		summary: "create the design's tables and indexes, idempotently, and report differences",
		run:     designApply,
	}
}

const (
	applyUsage       = "usage: sortkey design apply FILE [--endpoint URL] [--region R] [--dry-run]"
	msgOneFile       = "sortkey %s: give one file"
	msgApplyFailed   = "sortkey design apply: %v\n"
	msgStillDiffers  = "after the changes, a second look still finds:\n"
	msgChangedBefore = "changed before the failure: %s\n"
	// A local server takes any keys; only DynamoDB needs real ones.
	localKeyID = "sortkey"
)

type applyFlags struct {
	file, endpoint, region string
	dryRun                 bool
}

func parseApply(args []string, stdout, stderr io.Writer) (applyFlags, error) {
	var f applyFlags
	fs := flag.NewFlagSet("design apply", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {} // designUsageOut, after parsing
	fs.StringVar(&f.endpoint, "endpoint", "", "DynamoDB endpoint URL, e.g. http://127.0.0.1:8000 (default: DynamoDB itself)")
	fs.StringVar(&f.region, "region", "", "AWS region (default: from the environment, or us-east-1 with --endpoint)")
	fs.BoolVar(&f.dryRun, "dry-run", false, "report what would change and change nothing")
	file, err := designFileArg(fs, args, stderr)
	f.file = file
	if err != nil {
		designUsageOut(fs, applyUsage, err, stdout, stderr)
	}
	return f, err
}

// designUsageOut prints a design command's usage and flags once its
// arguments did not parse: on stdout when -h asked for them, on stderr
// after a mistake.
func designUsageOut(fs *flag.FlagSet, usage string, err error, stdout, stderr io.Writer) {
	w := stderr
	if errors.Is(err, flag.ErrHelp) {
		w = stdout
	}
	fmt.Fprintln(w, usage)
	fs.SetOutput(w)
	fs.PrintDefaults()
}

// designFileArg parses args with fs, taking the one file argument before,
// between or after the flags: the usage lines write it first, and flag
// stops at the first argument that is not a flag.
func designFileArg(fs *flag.FlagSet, args []string, stderr io.Writer) (string, error) {
	var files []string
	for {
		if err := fs.Parse(args); err != nil {
			return "", err
		}
		if fs.NArg() == 0 {
			break
		}
		files, args = append(files, fs.Arg(0)), fs.Args()[1:]
	}
	if len(files) != 1 {
		msg := fmt.Sprintf(msgOneFile, fs.Name())
		fmt.Fprintln(stderr, msg)
		return "", errors.New(msg)
	}
	return files[0], nil
}

func designApply(args []string, stdout, stderr io.Writer) int {
	f, err := parseApply(args, stdout, stderr)
	if err != nil {
		return flagStatus(err)
	}
	d, err := design.Load(f.file)
	if err != nil {
		fmt.Fprintf(stderr, msgApplyFailed, err)
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	cfg, err := applyConfig(ctx, f)
	if err != nil {
		fmt.Fprintf(stderr, msgApplyFailed, err)
		return 1
	}
	c := dynamodb.NewFromConfig(cfg)
	r, err := apply.Apply(ctx, c, d, apply.Options{DryRun: f.dryRun})
	printReport(stdout, r, err)
	if err == nil && !f.dryRun && len(r.Changes) > 0 && r.Matches() {
		// The exit status promises the tables match: look again.
		r, err = apply.Apply(ctx, c, d, apply.Options{DryRun: true})
		if err == nil && !r.Matches() {
			fmt.Fprint(stdout, msgStillDiffers+r.String())
		}
	}
	switch {
	case errors.Is(err, apply.ErrInvalid):
		fmt.Fprintf(stderr, msgApplyFailed, err)
		return 2
	case err != nil:
		fmt.Fprintf(stderr, msgApplyFailed, err)
		return 1
	case !r.Matches():
		return 1
	}
	return 0
}

// printReport prints what Apply did. After a failure, the report's
// verdict ("no changes", "now match") would be false, as the tables were
// not all looked at: only the changes already made are printed, since
// they happened.
func printReport(stdout io.Writer, r *apply.Report, err error) {
	switch {
	case r == nil:
	case err == nil:
		fmt.Fprint(stdout, r)
	case !r.DryRun:
		for _, c := range r.Changes {
			fmt.Fprintf(stdout, msgChangedBefore, c)
		}
	}
}

// applyConfig is the SDK's default configuration (credentials from the
// default chain); with --endpoint, a region and keys are filled in when
// the environment has none, as a local server needs neither.
func applyConfig(ctx context.Context, f applyFlags) (aws.Config, error) {
	var opts []func(*config.LoadOptions) error
	if f.region != "" {
		opts = append(opts, config.WithRegion(f.region))
	}
	cfg, err := config.LoadDefaultConfig(ctx, opts...)
	if err != nil || f.endpoint == "" {
		return cfg, err
	}
	cfg.BaseEndpoint = aws.String(f.endpoint)
	if cfg.Region == "" {
		cfg.Region = "us-east-1"
	}
	if _, err := cfg.Credentials.Retrieve(ctx); err != nil {
		cfg.Credentials = credentials.NewStaticCredentialsProvider(localKeyID, localKeyID, "")
	}
	return cfg, nil
}
