package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sortkeydb/sortkey/internal/design"
)

const cleanDesign = `version: 1
name: Notes
tables:
  - name: Notes
    partitionKey: {name: pk, type: S}
    sortKey: {name: sk, type: S}
entities:
  - name: Note
    table: Notes
    keys:
      Notes: {pk: "U#{userId}", sk: "N#{noteId}"}
patterns:
  - number: 1
    name: A user's notes
    returns: [Note]
    operation: Query
    table: Notes
    key: {pk: "U#{userId}"}
`

func writeDesignFile(t *testing.T, name, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func runDesign(args ...string) (int, string, string) {
	var out, errb bytes.Buffer
	code := run(append([]string{"design"}, args...), &out, &errb)
	return code, out.String(), errb.String()
}

func TestDesignCheckClean(t *testing.T) {
	path := writeDesignFile(t, "notes.yaml", cleanDesign)
	code, out, _ := runDesign("check", path)
	if code != 0 || out != path+": ok (1 tables, 1 entities, 1 patterns)\n" {
		t.Fatalf("exit %d, stdout %q", code, out)
	}
}

func TestDesignCheckErrorsFailWithTheirPosition(t *testing.T) {
	path := writeDesignFile(t, "notes.yaml", strings.Replace(cleanDesign, `key: {pk: "U#{userId}"}`, `key: {pk: "U#{userId}", title: "x"}`, 1))
	code, out, _ := runDesign("check", path)
	if code != 1 || !strings.HasPrefix(out, path+":18:29: error: pattern 1: title is not a key attribute of Notes") {
		t.Fatalf("exit %d, stdout %q", code, out)
	}
}

func TestDesignCheckWarningsFailOnlyWhenStrict(t *testing.T) {
	path := "../../internal/design/testdata/market-seed.yaml"
	code, out, _ := runDesign("check", path)
	if code != 0 || !strings.Contains(out, path+":101:5: warning: pattern 2 filters") || strings.Contains(out, ": ok") {
		t.Fatalf("exit %d, stdout %q", code, out)
	}
	if code, _, _ := runDesign("check", path, "--strict"); code != 1 {
		t.Fatalf("--strict after the file: exit %d", code)
	}
	if code, _, _ := runDesign("check", "--strict", path); code != 1 {
		t.Fatalf("--strict before the file: exit %d", code)
	}
}

func TestDesignCheckUnreadableFiles(t *testing.T) {
	good := writeDesignFile(t, "notes.yaml", cleanDesign)
	bad := writeDesignFile(t, "bad.yaml", "tables: [")
	code, out, errb := runDesign("check", good, bad, filepath.Join(t.TempDir(), "missing.yaml"))
	if code != 2 || !strings.Contains(out, good+": ok") || !strings.Contains(errb, bad+": ") || !strings.Contains(errb, "missing.yaml") {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errb)
	}
	if code, _, _ := runDesign("check"); code != 2 {
		t.Fatalf("no file: exit %d", code)
	}
}

func TestDesignDoc(t *testing.T) {
	path := "../../internal/design/testdata/market-seed.yaml"
	d, err := design.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	code, out, _ := runDesign("doc", path)
	if code != 0 || out != string(design.Markdown(d)) || !strings.HasPrefix(out, "# Market\n") {
		t.Fatalf("exit %d, stdout %q", code, out)
	}
	target := filepath.Join(t.TempDir(), "market.md")
	if code, out, _ := runDesign("doc", "-o", target, path); code != 0 || out != "" {
		t.Fatalf("-o: exit %d, stdout %q", code, out)
	}
	if written, err := os.ReadFile(target); err != nil || string(written) != string(design.Markdown(d)) {
		t.Fatalf("-o wrote %q (%v)", written, err)
	}
	if code, _, _ := runDesign("doc", writeDesignFile(t, "bad.yaml", "tables: [")); code != 2 {
		t.Fatalf("unparsable: exit %d", code)
	}
}

func TestDesignUsageNamesCheckAndDoc(t *testing.T) {
	code, out, _ := runDesign("-h")
	if code != 0 || !strings.Contains(out, "\n  check ") || !strings.Contains(out, "\n  doc ") {
		t.Fatalf("exit %d, stdout %q", code, out)
	}
	if code, out, _ := runDesign("check", "-h"); code != 0 || !strings.Contains(out, "--strict") {
		t.Fatalf("check -h: exit %d, stdout %q", code, out)
	}
}

// The worked example's output in docs/DESIGN-FILES.md is what check
// prints for it.
func TestDesignFilesDocShowsRealOutput(t *testing.T) {
	doc, err := os.ReadFile("../../docs/DESIGN-FILES.md")
	if err != nil {
		t.Fatal(err)
	}
	path := "../../internal/design/testdata/market-seed.yaml"
	_, out, _ := runDesign("check", path)
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		line = strings.Replace(line, path, "market-seed.yaml", 1)
		if !strings.Contains(string(doc), line) {
			t.Errorf("DESIGN-FILES.md does not show %q", line)
		}
	}
}
