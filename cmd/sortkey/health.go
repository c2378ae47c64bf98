package main

// `sortkey health`: asks a running server whether it serves, for a
// container's HEALTHCHECK, where images without a shell or curl (distroless,
// scratch) have only the sortkey binary to ask with.

import (
	"context"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"time"
)

const (
	msgHealthStatus = "http://%s" + healthPath + " answered %s: %q"
	msgHealthBody   = "http://%s" + healthPath + " answered 200 without a healthy report: %q"
	msgHealthFlags  = "--timeout must be positive"
)

// healthPath is sortkey serve's storage health check (docs/OPERATIONS.md):
// it answers 200 only while the storage takes a durable write and serves
// a read, so a container whose disk failed is reported unhealthy, where
// DynamoDB's GET / would still answer.
const healthPath = "/sortkey/health"

// healthyReport is in the body of a healthy answer.
const healthyReport = `"status":"ok"`

type healthFlags struct {
	addr    string
	timeout time.Duration
}

// healthCmd exits 0 when the server at --addr (or SORTKEY_ADDR, as serve
// reads it) answers its health check, 1 when it does not.
func healthCmd(args []string, stdout, stderr io.Writer) int {
	var f healthFlags
	fs := flag.NewFlagSet("health", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&f.addr, "addr", "127.0.0.1:8000", "the server's address, as given to serve --addr (0.0.0.0 and :: are asked on this machine)")
	fs.DurationVar(&f.timeout, "timeout", 5*time.Second, "how long to wait for the answer")
	if err := parseLayered(fs, args); err != nil {
		return exitUsage(err, fs, stdout)
	}
	if f.timeout <= 0 {
		fmt.Fprintln(stderr, "sortkey health:", msgHealthFlags)
		return 2
	}
	if err := checkHealth(f); err != nil {
		fmt.Fprintln(stderr, "sortkey health:", err)
		return 1
	}
	fmt.Fprintln(stdout, "healthy")
	return 0
}

// checkHealth asks the server's storage health check.
func checkHealth(f healthFlags) error {
	ctx, cancel := context.WithTimeout(context.Background(), f.timeout)
	defer cancel()
	host := dialable(f.addr)
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, "http://"+host+healthPath, nil)
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
	switch {
	case resp.StatusCode != http.StatusOK:
		return fmt.Errorf(msgHealthStatus, host, resp.Status, body)
	case !strings.Contains(string(body), healthyReport):
		return fmt.Errorf(msgHealthBody, host, body)
	}
	return nil
}

// dialable is a listening address as a client reaches it: a server on
// every interface (0.0.0.0, ::, or no host) is asked on the loopback one.
func dialable(addr string) string {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return addr // the request fails and names it
	}
	if ip := net.ParseIP(host); host == "" || ip != nil && ip.IsUnspecified() {
		host = "127.0.0.1"
		if ip != nil && ip.To4() == nil {
			host = "::1"
		}
	}
	return net.JoinHostPort(host, port)
}
