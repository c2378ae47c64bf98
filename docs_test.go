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
	outside := outsideNames(t)
	for _, path := range textFiles(t) {
		body := readFile(t, path)
		for _, o := range outside {
			if strings.Contains(body, o) {
				t.Errorf("%s mentions %q, which a clone does not contain", path, o)
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

// outsideNames are the ways a text could point beside the clone, read from
// the machine rather than written here: the clone's parent directory by
// its absolute path, and each sibling folder (and the folders in it) by a
// relative one. A clone in the temporary directory (or at the root) has
// unrelated neighbours, so there it checks nothing beside itself.
func outsideNames(t *testing.T) []string {
	t.Helper()
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	parent := filepath.Dir(wd)
	if parent == filepath.Dir(parent) || parent == filepath.Clean(os.TempDir()) {
		return nil
	}
	names := []string{parent + string(filepath.Separator)}
	for _, sib := range subdirs(parent) {
		if sib == filepath.Base(wd) {
			continue
		}
		names = append(names, "../"+sib)
		for _, child := range subdirs(filepath.Join(parent, sib)) {
			names = append(names, sib+"/"+child+"/")
		}
	}
	return names
}

func subdirs(dir string) []string {
	entries, _ := os.ReadDir(dir) // an unreadable folder has nothing to point at
	var out []string
	for _, e := range entries {
		if e.IsDir() && !strings.HasPrefix(e.Name(), ".") {
			out = append(out, e.Name())
		}
	}
	return out
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
