package main

// `sortkey mcp`: the agent interface (internal/agent) over stdio, on an
// in-memory sortkey of its own, a data directory, a PostgreSQL store or a
// remote endpoint. stdout carries the protocol, so everything else goes
// to stderr.

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"os/signal"
	"syscall"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/sortkeydb/sortkey"
	"github.com/sortkeydb/sortkey/internal/agent"
)

const msgMCPUsage = "sortkey mcp: --max-items and --max-bytes are at least 1, and the command takes no arguments (got %q)\n"

var (
	errMCPWhere    = errors.New("--data-dir, --store and --endpoint each name where the data is: give one at most")
	errMCPAs       = errors.New("--auth and --as go together: the auth file, and the ARN of its principal the tools act as")
	errMCPRemoteOn = errors.New("--endpoint reaches a database that decides its own access and time: --auth, --as and --clock are for the command's own database")
)

// mcpFlags are the command's flags.
type mcpFlags struct {
	dir, store, endpoint, region string
	authFile, as                 string
	httpAddr, token              string
	opts                         agent.Options
	clock                        clockFlags
}

func mcpCmd(args []string, stdout, stderr io.Writer) int {
	return mcpServe(args, os.Stdin, stdout, stderr)
}

func mcpFlagSet(f *mcpFlags, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("mcp", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&f.dir, "data-dir", "", "serve the tools on this data directory (default: an in-memory database of the command's own, gone when it exits)")
	fs.StringVar(&f.store, "store", "", "serve the tools on this PostgreSQL store: postgres://USER@HOST:PORT/DB?schema=NAME (docs/STORES.md)")
	fs.StringVar(&f.endpoint, "endpoint", "", "serve the data tools on this DynamoDB endpoint (a sortkey serve, or DynamoDB: https://dynamodb.REGION.amazonaws.com), signing with the AWS SDK's default credentials")
	fs.StringVar(&f.region, "region", "", "with --endpoint, the region requests are signed for (default: the AWS SDK's configured region, else us-east-1)")
	fs.StringVar(&f.authFile, "auth", "", "turn access control on with this auth file (docs/ACCESS-CONTROL.md); the tools act as the principal --as names")
	fs.StringVar(&f.as, "as", "", "with --auth, the ARN of the auth file's principal the tools act as: its policies decide every call")
	fs.BoolVar(&f.opts.ReadOnly, "read-only", false, "refuse every tool that writes")
	fs.IntVar(&f.opts.MaxItems, "max-items", agent.DefaultMaxItems, "the items one query or scan returns at most; the answer says truncated and gives the key to continue from")
	fs.IntVar(&f.opts.MaxBytes, "max-bytes", agent.DefaultMaxBytes, "the bytes of JSON one tool answer holds at most: a query or scan returns fewer items (truncated), a larger read is refused, a write's returned attributes are dropped")
	fs.StringVar(&f.httpAddr, "http", "", "serve MCP's Streamable HTTP at this address (path /mcp) instead of stdio; a bare :PORT is 127.0.0.1:PORT")
	fs.StringVar(&f.token, "http-token", os.Getenv("SORTKEY_MCP_TOKEN"), "with --http, the bearer token clients must send (default $SORTKEY_MCP_TOKEN, or one generated and printed); required on a non-loopback address")
	clockFlagSet(fs, &f.clock)
	return fs
}

// check refuses flags that contradict each other, before anything is
// opened (and a data directory made).
func (f *mcpFlags) check() error {
	if count(f.dir != "", f.store != "", f.endpoint != "") > 1 {
		return errMCPWhere
	}
	if (f.authFile == "") != (f.as == "") {
		return errMCPAs
	}
	if f.endpoint != "" && (f.authFile != "" || f.clock.mode != clockReal) {
		return errMCPRemoteOn
	}
	if err := f.clock.parse(); err != nil {
		return err
	}
	if f.httpAddr != "" {
		_, err := mcpAddr(f.httpAddr, f.token)
		return err
	}
	return nil
}

func count(bs ...bool) int {
	n := 0
	for _, b := range bs {
		if b {
			n++
		}
	}
	return n
}

// mcpServe serves the tools over in and out until in ends.
func mcpServe(args []string, in io.ReadCloser, out io.Writer, stderr io.Writer) int {
	var f mcpFlags
	fs := mcpFlagSet(&f, stderr)
	// Flags only: a SORTKEY_DATA_DIR meant for serve must not attach the
	// agent to serve's data.
	if err := fs.Parse(args); err != nil {
		return exitUsage(err, fs, out)
	}
	if f.opts.MaxItems < 1 || f.opts.MaxBytes < 1 || fs.NArg() > 0 {
		fmt.Fprintf(stderr, msgMCPUsage, fs.Args())
		return 2
	}
	if err := f.check(); err != nil {
		fmt.Fprintln(stderr, "sortkey mcp:", err)
		return 2
	}
	api, closeAPI, err := f.open(stderr)
	if err != nil {
		fmt.Fprintln(stderr, "sortkey mcp:", err)
		return 1
	}
	defer closeAPI()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if f.httpAddr != "" {
		err = mcpHTTP(ctx, api, f.opts, f.httpAddr, f.token, stderr)
	} else {
		err = agent.New(api, f.opts).Run(ctx, &mcp.IOTransport{Reader: in, Writer: nopCloser{out}})
	}
	if err != nil && ctx.Err() == nil {
		fmt.Fprintln(stderr, "sortkey mcp:", err)
		return 1
	}
	return 0
}

// open is the DynamoDB API the tools call: a remote endpoint's, or a
// database's of the command's own, as the --as principal with --auth.
func (f *mcpFlags) open(stderr io.Writer) (http.Handler, func(), error) {
	if f.endpoint != "" {
		h, err := remoteAPI(context.Background(), f.endpoint, f.region)
		return h, func() {}, err
	}
	authDoc, err := readAuthFile(f.authFile)
	if err != nil {
		return nil, nil, err
	}
	// Admin serves the fault and clock tools in process only: nothing
	// but the MCP endpoint listens.
	db, err := sortkey.Open(f.dir, &sortkey.Options{InMemory: f.dir == "" && f.store == "", Store: f.store, Admin: true, Auth: authDoc,
		Clock: f.clock.virtual(slog.New(slog.NewTextHandler(stderr, nil))), ClockRewind: f.clock.rewind})
	if err != nil {
		return nil, nil, err
	}
	if authDoc == nil {
		return db.Handler(), func() { db.Close() }, nil
	}
	h, err := db.HandlerAs(f.as)
	if err != nil {
		db.Close()
		return nil, nil, err
	}
	return h, func() { db.Close() }, nil
}

// nopCloser is a Writer the transport may close without closing stdout.
type nopCloser struct{ io.Writer }

func (nopCloser) Close() error { return nil }
