package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A bad seed folder refuses to start, with the reason, before listening.
func TestSeedRefusesABadFolder(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "tables.json"), []byte(`{"version":7,"tables":[]}`), 0o644)
	var out, errb bytes.Buffer
	code := run([]string{"serve", "--in-memory", "--addr", "127.0.0.1:0", "--seed", dir}, &out, &errb)
	if code == 0 || !strings.Contains(errb.String(), "version 7") {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	code = run([]string{"serve", "--in-memory", "--addr", "127.0.0.1:0", "--seed", t.TempDir()}, &out, &errb)
	if code == 0 || !strings.Contains(errb.String(), "tables.json") {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
}

func TestS3DirFlagRefusesTwoRoots(t *testing.T) {
	var out, errb bytes.Buffer
	code := run([]string{"serve", "--in-memory", "--addr", "127.0.0.1:0", "--s3-dir", "a", "--s3-dir", "b"}, &out, &errb)
	if code == 0 || !strings.Contains(errb.String(), "two root folders") {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
}

func TestLoadNeedsItsFolder(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run([]string{"load"}, &out, &errb); code != 2 || !strings.Contains(errb.String(), "--in is required") {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
}
