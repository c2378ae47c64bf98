package main

// `sortkey mcp`: the agent interface (internal/agent) over stdio, on an
// in-memory sortkey of its own or a data directory. stdout carries the
// protocol, so everything else goes to stderr.

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"syscall"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/sortkeydb/sortkey"
	"github.com/sortkeydb/sortkey/internal/agent"
)

const msgMCPUsage = "sortkey mcp: --max-items is at least 1, and the command takes no arguments (got %q)\n"

func mcpCmd(args []string, stdout, stderr io.Writer) int {
	return mcpServe(args, os.Stdin, stdout, stderr)
}

// mcpServe serves the tools over in and out until in ends.
func mcpServe(args []string, in io.ReadCloser, out io.Writer, stderr io.Writer) int {
	var dir, httpAddr, token string
	var opts agent.Options
	var clock clockFlags
	fset := flag.NewFlagSet("mcp", flag.ContinueOnError)
	fset.SetOutput(stderr)
	fset.StringVar(&dir, "data-dir", "", "serve the tools on this data directory (default: an in-memory database of the command's own, gone when it exits)")
	fset.BoolVar(&opts.ReadOnly, "read-only", false, "refuse every tool that writes")
	fset.IntVar(&opts.MaxItems, "max-items", agent.DefaultMaxItems, "the items one query or scan returns at most; the answer says truncated and gives the key to continue from")
	fset.StringVar(&httpAddr, "http", "", "serve MCP's Streamable HTTP at this address (path /mcp) instead of stdio; a bare :PORT is 127.0.0.1:PORT")
	fset.StringVar(&token, "http-token", os.Getenv("SORTKEY_MCP_TOKEN"), "with --http, the bearer token clients must send (default $SORTKEY_MCP_TOKEN, or one generated and printed); required on a non-loopback address")
	clockFlagSet(fset, &clock)
	// Flags only: a SORTKEY_DATA_DIR meant for serve must not attach the
	// agent to serve's data.
	if err := fset.Parse(args); err != nil {
		return exitUsage(err, fset, out)
	}
	if opts.MaxItems < 1 || fset.NArg() > 0 {
		fmt.Fprintf(stderr, msgMCPUsage, fset.Args())
		return 2
	}
	if err := clock.parse(); err != nil {
		fmt.Fprintln(stderr, "sortkey mcp:", err)
		return 2
	}
	if httpAddr != "" {
		// Refused before the data directory is opened (and made).
		if _, err := mcpAddr(httpAddr, token); err != nil {
			fmt.Fprintln(stderr, "sortkey mcp:", err)
			return 2
		}
	}
	// Admin serves the fault and clock tools in process only: nothing
	// but the MCP endpoint listens.
	db, err := sortkey.Open(dir, &sortkey.Options{InMemory: dir == "", Admin: true,
		Clock: clock.virtual(slog.New(slog.NewTextHandler(stderr, nil))), ClockRewind: clock.rewind})
	if err != nil {
		fmt.Fprintln(stderr, "sortkey mcp:", err)
		return 1
	}
	defer db.Close()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if httpAddr != "" {
		err = mcpHTTP(ctx, db.Handler(), opts, httpAddr, token, stderr)
	} else {
		err = agent.New(db.Handler(), opts).Run(ctx, &mcp.IOTransport{Reader: in, Writer: nopCloser{out}})
	}
	if err != nil && ctx.Err() == nil {
		fmt.Fprintln(stderr, "sortkey mcp:", err)
		return 1
	}
	return 0
}

// nopCloser is a Writer the transport may close without closing stdout.
type nopCloser struct{ io.Writer }

func (nopCloser) Close() error { return nil }
