package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/sortkeydb/sortkey"
)

type serveFlags struct {
	addr     string
	dataDir  string
	inMemory bool
	region   string
	// collectionLimit is the item collection size limit in bytes.
	collectionLimit int64
	ttlInterval     time.Duration
	transientDelay  time.Duration
}

func parseServe(args []string, stderr io.Writer) (serveFlags, error) {
	var f serveFlags
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&f.addr, "addr", "127.0.0.1:8000", "address to listen on")
	fs.StringVar(&f.dataDir, "data-dir", "./sortkey-data", "directory for the data (ignored with --in-memory)")
	fs.BoolVar(&f.inMemory, "in-memory", false, "keep all data in memory; nothing is written to disk")
	fs.StringVar(&f.region, "region", "us-east-1", "region named in ARNs (clients of any region see the same tables)")
	fs.Int64Var(&f.collectionLimit, "item-collection-limit", 10<<30, "item collection size limit in bytes (tables with local secondary indexes); lower it to test ItemCollectionSizeLimitExceededException")
	fs.DurationVar(&f.ttlInterval, "ttl-interval", 2*time.Second, "how often items whose Time to Live has passed are deleted")
	fs.DurationVar(&f.transientDelay, "transient-delay", 0, "how long tables and indexes stay CREATING, UPDATING or DELETING after a change")
	return f, fs.Parse(args)
}

// serve runs the server until SIGINT or SIGTERM, then lets requests in
// flight finish and closes the storage.
func serve(args []string, stdout, stderr io.Writer) int {
	f, err := parseServe(args, stderr)
	if err != nil {
		return 2
	}
	log := slog.New(slog.NewTextHandler(stderr, nil))
	slog.SetDefault(log)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := listenAndServe(ctx, f, stdout, log); err != nil {
		log.Error("sortkey serve failed", "err", err)
		return 1
	}
	return 0
}

func listenAndServe(ctx context.Context, f serveFlags, stdout io.Writer, log *slog.Logger) error {
	start := time.Now()
	db, err := sortkey.Open(f.dataDir, &sortkey.Options{InMemory: f.inMemory, Region: f.region, ItemCollectionLimit: f.collectionLimit,
		TTLInterval: f.ttlInterval, TransientDelay: f.transientDelay})
	if err != nil {
		return err
	}
	defer closeDB(db, log)
	ln, err := net.Listen("tcp", f.addr)
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: db.Handler(), ReadHeaderTimeout: 10 * time.Second}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	fmt.Fprintf(stdout, "sortkey listening on http://%s\n", ln.Addr())
	log.Info("serving", "endpoint", "http://"+ln.Addr().String(), "dataDir", dataDesc(f), "region", f.region, "startup", time.Since(start))
	return wait(ctx, srv, errc, log)
}

func wait(ctx context.Context, srv *http.Server, errc chan error, log *slog.Logger) error {
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	log.Info("shutting down: finishing requests in flight")
	sctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		return err
	}
	if err := <-errc; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

func closeDB(db *sortkey.DB, log *slog.Logger) {
	if err := db.Close(); err != nil {
		log.Error("closing storage", "err", err)
		return
	}
	log.Info("storage closed")
}

func dataDesc(f serveFlags) string {
	if f.inMemory {
		return "(in memory)"
	}
	return f.dataDir
}
