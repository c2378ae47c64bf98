// menus runs every access pattern of the menu planner's design and
// prints what each one sent and read. It works against an embedded
// sortkey, a running `sortkey serve`, or AWS:
//
//	go run ./examples/menus
//	go run ./cmd/sortkey serve --in-memory --addr 127.0.0.1:8000 &
//	go run ./examples/menus --endpoint http://127.0.0.1:8000

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
	endpoint := flag.String("endpoint", "", "DynamoDB endpoint URL (empty: an embedded in-memory sortkey)")
	table := flag.String("table", DefaultTable, "table to use, created if missing")
	flag.Parse()
	if err := run(context.Background(), *endpoint, *table, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "menus:", err)
		os.Exit(1)
	}
}

// run creates the table if missing, replaces the sample data (so a second
// run against the same server starts from the same state) and runs the
// demo.
func run(ctx context.Context, endpoint, table string, out io.Writer) error {
	env, err := runner.Start(ctx, endpoint)
	if err != nil {
		return err
	}
	defer env.Close()
	if err := CreateTable(ctx, env.Client, table); err != nil {
		return err
	}
	client, log := withWireLog(env)
	s := NewStore(client, table)
	if err := inOrder(func() error { return ResetSample(ctx, s) }, func() error { return LoadSample(ctx, s) }); err != nil {
		return err
	}
	fmt.Fprintf(out, "menus: table %s on %s, sample data loaded\n", table, env.Endpoint)
	d := &demo{ctx: ctx, rec: env.Recorder, log: log, s: s, out: out}
	d.run()
	return d.err
}
