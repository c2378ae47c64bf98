package sortkey_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// A clone holds only this repository: every relative link in the docs must
// land inside it, and no text may point at files beside the clone or at
// one machine's paths.
func TestDocsLinkOnlyInsideTheRepository(t *testing.T) {
	link := regexp.MustCompile(`\]\(([^)#\s]+)`)
	for _, path := range textFiles(t) {
		body := readFile(t, path)
		for _, outside := range []string{"../shared", "shared/seeds", "/work/"} {
			if strings.Contains(body, outside) {
				t.Errorf("%s mentions %q, which a clone does not contain", path, outside)
			}
		}
		if filepath.Ext(path) != ".md" {
			continue
		}
		for _, m := range link.FindAllStringSubmatch(body, -1) {
			checkLink(t, path, m[1])
		}
	}
}

func checkLink(t *testing.T, from, target string) {
	t.Helper()
	if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
		return
	}
	p := filepath.Join(filepath.Dir(from), target)
	if strings.HasPrefix(p, "..") || filepath.IsAbs(target) {
		t.Errorf("%s links to %s, outside the repository", from, target)
		return
	}
	if _, err := os.Stat(p); err != nil {
		t.Errorf("%s links to %s, which does not exist", from, target)
	}
}

// The README states the Go version go.mod asks for.
func TestReadmeStatesGoVersion(t *testing.T) {
	m := regexp.MustCompile(`(?m)^go (\S+)$`).FindStringSubmatch(readFile(t, "go.mod"))
	if m == nil {
		t.Fatal("go.mod has no go directive")
	}
	if want := "Go " + m[1]; !strings.Contains(readFile(t, "README.md"), want) {
		t.Errorf("README.md does not say %q", want)
	}
}

// textFiles lists the repository's Markdown and Go files, this one aside
// (it names what it looks for).
func textFiles(t *testing.T) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() && (strings.HasPrefix(d.Name(), ".") && p != "." || d.Name() == "testdata") {
			return skipDir(d, err)
		}
		if ext := filepath.Ext(p); (ext == ".md" || ext == ".go") && p != "docs_test.go" {
			out = append(out, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func skipDir(d fs.DirEntry, err error) error {
	if err != nil {
		return err
	}
	return filepath.SkipDir
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
