package main

import (
	"flag"
	"os"
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
