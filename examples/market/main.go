package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/sortkeydb/sortkey/examples/internal/runner"
)

func main() {
	endpoint := flag.String("endpoint", "", "DynamoDB endpoint, e.g. http://127.0.0.1:8000 for sortkey serve (empty: an embedded in-memory sortkey)")
	flag.Parse()
	if err := run(context.Background(), *endpoint, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "market:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, endpoint string, w io.Writer) error {
	env, err := runner.Start(ctx, endpoint)
	if err != nil {
		return err
	}
	defer env.Close()
	if err := CreateTables(ctx, env.Client); err != nil {
		return err
	}
	store := NewStore(env.Client, time.Now)
	if err := load(ctx, w, store); err != nil {
		return err
	}
	return show(ctx, demo{w: w, rec: env.Recorder}, store)
}

// load writes the sample data unless an earlier run did.
func load(ctx context.Context, w io.Writer, store *Store) error {
	_, err := LoadSample(ctx, store, nil)
	if errors.Is(err, ErrUserExists) {
		fmt.Fprintln(w, "sample data: already loaded by an earlier run")
		return nil
	}
	if err == nil {
		fmt.Fprintln(w, "sample data: loaded")
	}
	return err
}
