package main

import (
	"errors"
	"log/slog"
	"net"
	"net/http"

	"github.com/sortkeydb/sortkey"
)

const msgMetricsAddrOff = "--metrics-addr needs metrics on: drop --metrics=false"

// checkMetricsFlags refuses a metrics address with metrics off, which
// would serve nothing there.
func checkMetricsFlags(f serveFlags) error {
	if !f.metrics && f.metricsAddr != "" {
		return errors.New(msgMetricsAddrOff)
	}
	return nil
}

// listenMetrics serves GET /metrics on --metrics-addr, its own listener,
// when given; the returned stop closes it. Metrics there answer any
// client that reaches the address, with or without --auth: choosing the
// address is choosing who may scrape.
func listenMetrics(db *sortkey.DB, f serveFlags, log *slog.Logger) (stop func(), err error) {
	if f.metricsAddr == "" {
		return func() {}, nil
	}
	ln, err := net.Listen("tcp", f.metricsAddr)
	if err != nil {
		return nil, err
	}
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", db.MetricsHandler())
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: f.readTimeout, ReadTimeout: f.readTimeout,
		IdleTimeout: f.idleTimeout, MaxHeaderBytes: f.maxHeaderBytes}
	go func() { _ = srv.Serve(ln) }()
	log.Info("serving metrics", "endpoint", "http://"+ln.Addr().String()+"/metrics")
	return func() { _ = srv.Close() }, nil
}
