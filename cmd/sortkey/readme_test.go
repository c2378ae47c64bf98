package main

import (
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// The README's flag table is what a user reads instead of -h: every serve
// flag has a row, and the row's default is the flag's.
func TestReadmeListsEveryServeFlag(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	rows := readmeFlagRows(string(readme))
	serveFlagSet(&serveFlags{}).VisitAll(func(fl *flag.Flag) {
		def, ok := rows[fl.Name]
		if !ok {
			t.Errorf("README.md has no row for --%s", fl.Name)
		} else if !sameDefault(fl, def) {
			t.Errorf("README.md says --%s defaults to %q; the flag's default is %q", fl.Name, def, fl.DefValue)
		}
	})
	for name := range rows {
		if serveFlagSet(&serveFlags{}).Lookup(name) == nil {
			t.Errorf("README.md lists --%s, which sortkey serve does not take", name)
		}
	}
}

// readmeFlagRows maps each flag of the table's "| `--name` | default |"
// rows to its default cell.
func readmeFlagRows(readme string) map[string]string {
	rows := map[string]string{}
	row := regexp.MustCompile("(?m)^\\| `--([a-z0-9-]+)` \\| ([^|]+) \\|")
	for _, m := range row.FindAllStringSubmatch(readme, -1) {
		rows[m[1]] = strings.TrimSpace(m[2])
	}
	return rows
}

// sameDefault compares a README cell with a flag's default: "off" for an
// unset string or bool, a duration however it is written, anything else
// as the flag prints it.
func sameDefault(fl *flag.Flag, cell string) bool {
	if cell == "off" {
		return fl.DefValue == "" || fl.DefValue == "false"
	}
	cell = strings.Trim(cell, "`")
	want, werr := time.ParseDuration(fl.DefValue)
	got, gerr := time.ParseDuration(cell)
	if werr == nil && gerr == nil {
		return want == got
	}
	return cell == fl.DefValue
}

// The README's import line is the usage `sortkey import -h` prints: a
// reader who copies it must give the keys the command requires.
func TestReadmeImportUsageIsTheCommands(t *testing.T) {
	code, out, errs := runCmd("import", "-h")
	usage, _, _ := strings.Cut(out, "\n")
	usage, ok := strings.CutPrefix(usage, "usage: ")
	if code != 0 || !ok {
		t.Fatalf("import -h: exit %d, stdout %q, stderr %q", code, out, errs)
	}
	if readme := strings.Join(strings.Fields(readmeText(t)), " "); !strings.Contains(readme, "`"+usage+"`") {
		t.Errorf("README.md does not give the import usage %q", usage)
	}
}

// The README's console section names every script the console serves.
func TestReadmeNamesTheConsolesScripts(t *testing.T) {
	scripts, err := filepath.Glob("../../internal/console/assets/*.js")
	if err != nil || len(scripts) == 0 {
		t.Fatalf("no console scripts: %v", err)
	}
	_, console, _ := strings.Cut(readmeText(t), "\n## Console\n")
	console, _, _ = strings.Cut(console, "\n## ")
	for _, js := range scripts {
		if !strings.Contains(console, "`"+filepath.Base(js)+"`") {
			t.Errorf("README.md's Console section does not name %s, which the console serves", filepath.Base(js))
		}
	}
}

func readmeText(t *testing.T) string {
	t.Helper()
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	return string(readme)
}
