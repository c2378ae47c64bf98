package main

import (
	"bytes"
	"net"
	"strings"
	"testing"

	"github.com/sortkeydb/sortkey"
	"github.com/sortkeydb/sortkey/internal/storage"
)

// sortkey health, as a container's HEALTHCHECK runs it, exits 0 against a
// serving server, found by --addr or by SORTKEY_ADDR as serve reads it,
// and 1 once the server has stopped.
func TestHealthCommand(t *testing.T) {
	ctx := testContext(t)
	c := startServe(ctx, t, "--in-memory")
	addr := strings.TrimPrefix(c.url, "http://")
	if code, out, errs := runHealth("--addr", addr); code != 0 || out != "healthy\n" {
		t.Fatalf("serving: exit %d, stdout %q, stderr %q", code, out, errs)
	}
	_, port, _ := net.SplitHostPort(addr)
	t.Setenv("SORTKEY_ADDR", "0.0.0.0:"+port) // as the Docker image sets it
	if code, _, errs := runHealth(); code != 0 {
		t.Fatalf("SORTKEY_ADDR on every interface: exit %d, stderr %q", code, errs)
	}
	sigterm(t, c)
	awaitExit(t, c, "drained")
	if code, _, errs := runHealth("--addr", addr); code != 1 || !strings.Contains(errs, "sortkey health: ") || !strings.Contains(errs, addr) {
		t.Fatalf("stopped: exit %d, stderr %q", code, errs)
	}
}

func TestHealthRefusesAZeroTimeout(t *testing.T) {
	if code, _, errs := runHealth("--timeout", "0s"); code != 2 || !strings.Contains(errs, "--timeout must be positive") {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
}

func TestDialableAddresses(t *testing.T) {
	for addr, want := range map[string]string{"0.0.0.0:8000": "127.0.0.1:8000", "[::]:8000": "[::1]:8000", ":8000": "127.0.0.1:8000",
		"10.0.0.5:8000": "10.0.0.5:8000", "db.internal:8000": "db.internal:8000"} {
		if got := dialable(addr); got != want {
			t.Errorf("dialable(%q) = %q, want %q", addr, got, want)
		}
	}
}

func runHealth(args ...string) (code int, stdout, stderr string) {
	var out, errb bytes.Buffer
	code = run(append([]string{"health"}, args...), &out, &errb)
	return code, out.String(), errb.String()
}

// A port another process listens on is refused at start, naming it.
func TestServeRefusesATakenPort(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	var out, errb bytes.Buffer
	code := serve([]string{"--in-memory", "--addr", ln.Addr().String()}, &out, &errb)
	if code != 1 || !strings.Contains(errb.String(), ln.Addr().String()) || !strings.Contains(errb.String(), "address already in use") {
		t.Fatalf("exit %d, stderr %q", code, errb.String())
	}
}

// A data directory another server holds is refused at start, saying so.
func TestServeRefusesAHeldDataDirectory(t *testing.T) {
	if storage.UnderTestStore() {
		t.Skip("a data directory's rule: under the test switch it is a PostgreSQL schema, which several servers share (TestServeOnPostgres)")
	}
	dir := t.TempDir()
	db, err := sortkey.Open(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var out, errb bytes.Buffer
	code := serve([]string{"--data-dir", dir, "--addr", "127.0.0.1:0"}, &out, &errb)
	if code != 1 || !strings.Contains(errb.String(), "data directory is in use by another process") {
		t.Fatalf("exit %d, stderr %q", code, errb.String())
	}
}
