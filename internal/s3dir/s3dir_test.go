package s3dir

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	m, err := Parse([]string{"my-bucket=/data/b", "/data/root"})
	if err != nil || m.Dirs["my-bucket"] != "/data/b" || m.Root != "/data/root" {
		t.Fatalf("%+v %v", m, err)
	}
	for _, bad := range [][]string{{"a", "b"}, {"x=/d"}, {"ok-bucket=/a", "ok-bucket=/b"}, {""}, {"ok-bucket="}} {
		if _, err := Parse(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestKeysStayInTheBucket(t *testing.T) {
	for _, bad := range []string{"../x", "a/../../x", "/etc", `a\..\x`, "a\x00b", ".."} {
		if err := CheckKey(bad); err == nil {
			t.Errorf("key %q accepted", bad)
		}
	}
	for _, ok := range []string{"", "data/", "a/b.json.gz", "a..b/c"} {
		if err := CheckKey(ok); err != nil {
			t.Errorf("key %q refused: %v", ok, err)
		}
	}
	if _, _, err := ParseURL("s3://b../x"); err == nil {
		t.Error("bucket name with .. accepted")
	}
	b, p, err := ParseURL("s3://my-bucket/exports/x")
	if err != nil || b != "my-bucket" || p != "exports/x" {
		t.Fatalf("%s %s %v", b, p, err)
	}
}

func TestBucketFolders(t *testing.T) {
	root := t.TempDir()
	os.Mkdir(filepath.Join(root, "in-root"), 0o755)
	m := Map{Dirs: map[string]string{"named": root}, Root: root}
	if d, err := m.Bucket("in-root"); err != nil || d != filepath.Join(root, "in-root") {
		t.Fatalf("%s %v", d, err)
	}
	if _, err := m.Bucket("missing"); err == nil || !strings.Contains(err.Error(), "missing") {
		t.Fatalf("a missing folder: %v", err)
	}
	if _, err := (Map{}).Bucket("named"); err == nil || !strings.Contains(err.Error(), "--s3-dir named=DIR") {
		t.Fatalf("an unmapped bucket: %v", err)
	}
}

// A bucket's folder is opened so that no symbolic link in it leads out.
func TestUseConfinesLinks(t *testing.T) {
	dir, elsewhere := t.TempDir(), t.TempDir()
	if err := os.Symlink(elsewhere, filepath.Join(dir, "linkdir")); err != nil {
		t.Fatal(err)
	}
	root, err := (Map{Dirs: map[string]string{"named": dir}}).Use("Op", "named", "linkdir")
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	if err := root.MkdirAll(filepath.Join("linkdir", "AWSDynamoDB"), 0o755); err == nil || strings.Contains(err.Error(), dir) {
		t.Fatalf("a folder through a link out of the bucket: %v", err)
	}
	if entries, _ := os.ReadDir(elsewhere); len(entries) != 0 {
		t.Fatalf("%d entries written through the link", len(entries))
	}
}
