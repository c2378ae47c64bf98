package main

import (
	"bufio"
	"bytes"
	"context"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/sortkeydb/sortkey/sortkeytest"
)

// TestRunPrintsEveryPattern runs the program on its embedded engine.
func TestRunPrintsEveryPattern(t *testing.T) {
	var out bytes.Buffer
	if err := run(context.Background(), "", &out); err != nil {
		t.Fatal(err)
	}
	for _, p := range patterns() {
		if !strings.Contains(out.String(), "\n## "+p.name+"\n") {
			t.Errorf("no %q in the output", p.name)
		}
	}
	for _, line := range []string{
		"Query Communities / CommunityMembersIndex  [MemberPK = :pk]",
		"Query ChatRequests / PendingChatRequestsIndex  [PK = :pk]",
		"sf-gophers     SF Gophers         Go     San Francisco, California, United States  alice",
	} {
		if !strings.Contains(out.String(), line) {
			t.Errorf("no line %q in the output:\n%s", line, out.String())
		}
	}
}

// TestRunTwiceOnOneServer: a second run finds the tables and the sample
// and prints the same results.
func TestRunTwiceOnOneServer(t *testing.T) {
	srv := sortkeytest.NewWithOptions(t, coverage.Options(nil))
	var first, second bytes.Buffer
	for _, out := range []*bytes.Buffer{&first, &second} {
		if err := run(context.Background(), srv.URL, out); err != nil {
			t.Fatal(err)
		}
	}
	_, firstPatterns, _ := strings.Cut(first.String(), "loading sample data\n")
	_, secondPatterns, found := strings.Cut(second.String(), "sample data already loaded by an earlier run\n")
	if !found || firstPatterns != secondPatterns || firstPatterns == "" {
		t.Fatalf("first run:\n%s\nsecond run:\n%s", first.String(), second.String())
	}
}

var (
	readmeRow  = regexp.MustCompile("^\\| (.+?) \\|.*\\| (`\\w+`) \\| (`Test\\w+`) \\|$")
	writeRow   = regexp.MustCompile(`^\| (.+?) \|.*\| ([^|]+) \| ([^|]+) \|$`)
	identifier = regexp.MustCompile("`(\\w+)`")
)

// TestReadmeTable: every row of the README's access-pattern table names a
// Store method and a test that exist, and the rows are the patterns the
// program prints, in its order; every row of its writes table names
// methods and tests that exist.
func TestReadmeTable(t *testing.T) {
	sections := readmeSections(t)
	tests := testNames(t)
	var names []string
	for _, line := range sections["Access patterns"] {
		if m := readmeRow.FindStringSubmatch(line); m != nil {
			names = append(names, m[1])
			checkRow(t, tests, m[1], m[2], m[3])
		}
	}
	var want []string
	for _, p := range patterns() {
		want = append(want, p.name)
	}
	if !reflect.DeepEqual(names, want) {
		t.Errorf("README rows:\n%q\nprinted patterns:\n%q", names, want)
	}
	writes := 0
	for _, line := range sections["Writes"] {
		if m := writeRow.FindStringSubmatch(line); m != nil && !strings.HasPrefix(m[1], "Write") && !strings.HasPrefix(m[1], "---") {
			writes++
			checkRow(t, tests, m[1], m[2], m[3])
		}
	}
	if writes == 0 {
		t.Error("no rows in the README's writes table")
	}
}

// checkRow checks that the backquoted names in methods and testCell exist.
func checkRow(t *testing.T, tests map[string]bool, row, methods, testCell string) {
	t.Helper()
	ms, ts := identifier.FindAllStringSubmatch(methods, -1), identifier.FindAllStringSubmatch(testCell, -1)
	if len(ms) == 0 || len(ts) == 0 {
		t.Errorf("%s: no method or no test", row)
	}
	for _, m := range ms {
		if _, ok := reflect.TypeFor[*Store]().MethodByName(m[1]); !ok {
			t.Errorf("%s: no method %s", row, m[1])
		}
	}
	for _, m := range ts {
		if !tests[m[1]] {
			t.Errorf("%s: no test %s", row, m[1])
		}
	}
}

// readmeSections is README.md's lines under each "## " heading.
func readmeSections(t *testing.T) map[string][]string {
	f, err := os.Open("README.md")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sections, current := map[string][]string{}, ""
	for sc := bufio.NewScanner(f); sc.Scan(); {
		if heading, ok := strings.CutPrefix(sc.Text(), "## "); ok {
			current = heading
			continue
		}
		sections[current] = append(sections[current], sc.Text())
	}
	return sections
}

func testNames(t *testing.T) map[string]bool {
	files, _ := filepath.Glob("*_test.go")
	names := map[string]bool{}
	decl := regexp.MustCompile(`(?m)^func (Test\w+)\(t \*testing\.T\)`)
	for _, name := range files {
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range decl.FindAllStringSubmatch(string(src), -1) {
			names[m[1]] = true
		}
	}
	return names
}
