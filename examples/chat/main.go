// chat runs the chat design's access patterns against an embedded
// sortkey, or any DynamoDB endpoint:
//
//	go run ./examples/chat
//	go run ./cmd/sortkey serve --in-memory --addr 127.0.0.1:8000 &
//	go run ./examples/chat --endpoint http://127.0.0.1:8000

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
	flag.Parse()
	if err := run(context.Background(), *endpoint, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "chat:", err)
		os.Exit(1)
	}
}

// run creates the tables if they are missing, loads the sample unless an
// earlier run did, and prints every access pattern.
func run(ctx context.Context, endpoint string, w io.Writer) error {
	env, err := runner.Start(ctx, endpoint)
	if err != nil {
		return err
	}
	defer env.Close()
	fmt.Fprintln(w, "chat design on", env.Endpoint)
	if err := CreateTables(ctx, env.Client); err != nil {
		return err
	}
	s := NewStore(env.Client)
	s.now = steppingClock(sampleStart)
	if err := ensureSample(ctx, s, w); err != nil {
		return err
	}
	return show(ctx, s, env.Recorder, w)
}

func ensureSample(ctx context.Context, s *Store, w io.Writer) error {
	done, err := loaded(ctx, s)
	if err != nil || done {
		fmt.Fprintln(w, "sample data already loaded by an earlier run")
		return err
	}
	fmt.Fprintln(w, "loading sample data")
	return loadSample(ctx, s)
}
