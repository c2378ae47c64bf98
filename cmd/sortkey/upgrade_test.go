package main

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sortkeydb/sortkey"
	"github.com/sortkeydb/sortkey/internal/storage"
)

// A data directory an earlier sortkey wrote: serve refuses it, naming
// the command; sortkey upgrade converts it, once, and says so.
func TestUpgradeCommand(t *testing.T) {
	if storage.UnderTestStore() {
		t.Skip("the fixture is a Pebble data directory; the engine's TestOldLayoutIsRefusedUntilUpgraded converts it on PostgreSQL")
	}
	dir := filepath.Join(t.TempDir(), "data")
	if err := os.CopyFS(dir, os.DirFS("../../internal/engine/testdata/layout1")); err != nil {
		t.Fatal(err)
	}
	if _, err := sortkey.Open(dir, nil); !errors.Is(err, sortkey.ErrUpgrade) {
		t.Fatalf("embedded Open of an old data directory: %v, want sortkey.ErrUpgrade", err)
	}
	var out, errb bytes.Buffer
	code := serve([]string{"--data-dir", dir, "--addr", "127.0.0.1:0"}, &out, &errb)
	if code != 1 || !strings.Contains(errb.String(), `run \"sortkey upgrade\" once with the same --data-dir`) {
		t.Fatalf("serve of an old data directory: exit %d, stderr %q", code, errb.String())
	}
	code, stdout, stderr := runCmd("upgrade", "--data-dir", dir)
	if code != 0 || !strings.Contains(stdout, "converted orders: 82 keys") ||
		!strings.Contains(stdout, "upgraded: 3 tables, 1 backups, 128 keys") {
		t.Fatalf("upgrade: exit %d\n%s%s", code, stdout, stderr)
	}
	code, stdout, _ = runCmd("upgrade", "--data-dir", dir)
	if code != 0 || !strings.Contains(stdout, "nothing to convert") {
		t.Fatalf("second upgrade: exit %d\n%s", code, stdout)
	}
	code, _, stderr = runCmd("upgrade", "--data-dir", filepath.Join(dir, "missing"))
	if code != 1 || !strings.Contains(stderr, "no data directory at") {
		t.Fatalf("upgrade of a missing directory: exit %d, %s", code, stderr)
	}
}
