package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"

	"github.com/sortkeydb/sortkey/examples/internal/runner"
)

func main() {
	endpoint := flag.String("endpoint", "", "DynamoDB endpoint URL, e.g. http://127.0.0.1:8000 (empty: an embedded in-memory sortkey)")
	table := flag.String("table", "shop", "table to create if missing and load the sample into")
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, os.Stdout, *endpoint, *table); err != nil {
		fmt.Fprintln(os.Stderr, "shop:", err)
		os.Exit(1)
	}
}

// run creates the table if it is missing, loads the sample shop, and
// prints every access pattern's requests and results.
func run(ctx context.Context, w io.Writer, endpoint, table string) error {
	env, err := runner.Start(ctx, endpoint)
	if err != nil {
		return err
	}
	defer env.Close()
	if err := CreateTables(ctx, env.Client, table); err != nil {
		return err
	}
	s := sampleStore(env.Client, table)
	sample, err := LoadSample(ctx, s)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "shop: table %s at %s\n", table, env.Endpoint)
	env.Recorder.Take()
	for _, p := range patterns(sample) {
		header, rows, err := p.run(ctx, s)
		if err != nil {
			return fmt.Errorf("%s: %w", p.name, err)
		}
		runner.Print(w, p.name+" ("+p.args+")", env.Recorder.Take(), header, rows)
	}
	return nil
}
