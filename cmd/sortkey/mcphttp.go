package main

// `sortkey mcp --http`: the agent interface over MCP's Streamable HTTP,
// for clients that cannot start a command. A bearer token guards it; off
// this machine's loopback the user must choose the token.

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"time"

	"github.com/sortkeydb/sortkey/internal/agent"
)

const msgMCPOpenAddr = "--http %s is not a loopback address: set the token clients must send with --http-token or SORTKEY_MCP_TOKEN"

// mcpHTTP serves the tools at http://addr/mcp until ctx ends.
func mcpHTTP(ctx context.Context, api http.Handler, opts agent.Options, addr, token string, stderr io.Writer) error {
	addr, err := mcpAddr(addr, token)
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	if token == "" {
		token = newToken()
		fmt.Fprintf(stderr, "sortkey mcp: bearer token %s (set --http-token to choose one)\n", token)
	}
	mux := http.NewServeMux()
	mux.Handle("/mcp", agent.HTTPHandler(api, opts, token))
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	fmt.Fprintf(stderr, "sortkey mcp: serving MCP at http://%s/mcp\n", ln.Addr())
	go func() {
		<-ctx.Done()
		shut, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(shut)
	}()
	if err := srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// mcpAddr is the address to listen on: a bare :PORT on loopback, and an
// address off loopback only with a token the user chose.
func mcpAddr(addr, token string) (string, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return "", err
	}
	if host == "" {
		return net.JoinHostPort("127.0.0.1", port), nil
	}
	if ip := net.ParseIP(host); (ip == nil || !ip.IsLoopback()) && host != "localhost" && token == "" {
		return "", fmt.Errorf(msgMCPOpenAddr, addr)
	}
	return addr, nil
}

// newToken is a random bearer token of 128 bits.
func newToken() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}
