package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/sortkeydb/sortkey/examples/internal/runner"
)

func main() {
	endpoint := flag.String("endpoint", "", "DynamoDB endpoint, e.g. http://127.0.0.1:8000 for sortkey serve (empty: an embedded in-memory sortkey)")
	envName := flag.String("env", "dev", "environment: dev ("+DevTable+") or prod ("+ProdTable+")")
	flag.Parse()
	if err := start(context.Background(), *endpoint, *envName); err != nil {
		fmt.Fprintln(os.Stderr, "nishiki:", err)
		os.Exit(1)
	}
}

func start(ctx context.Context, endpoint, envName string) error {
	table, err := TableName(envName)
	if err != nil {
		return err
	}
	env, err := runner.Start(ctx, endpoint)
	if err != nil {
		return err
	}
	defer env.Close()
	return run(ctx, os.Stdout, NewStore(env.Client, table), env.Recorder)
}

// run creates the table if missing, loads the sample afresh, and prints
// every access pattern with the requests it made.
func run(ctx context.Context, w io.Writer, s *Store, rec *runner.Recorder) error {
	if err := CreateTable(ctx, s.db, s.table); err != nil {
		return err
	}
	if err := resetSample(ctx, s); err != nil {
		return err
	}
	link, err := loadSample(ctx, s)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "table %s, sample loaded\n", s.table)
	for _, d := range demos(s, link) {
		rec.Take()
		header, rows, err := d.run(ctx)
		if err != nil {
			return fmt.Errorf("%s: %w", d.name, err)
		}
		runner.Print(w, d.name, rec.Take(), header, rows)
	}
	return nil
}
