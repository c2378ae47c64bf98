package faults

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// The rule files docs/TESTING-FAILURES.md shows are rule files sortkey
// takes.
func TestDocumentedRuleFilesParse(t *testing.T) {
	doc, err := os.ReadFile("../../docs/TESTING-FAILURES.md")
	if err != nil {
		t.Fatal(err)
	}
	blocks := regexp.MustCompile("(?s)```(json|yaml)\n(.*?)```").FindAllStringSubmatch(string(doc), -1)
	n := 0
	for _, b := range blocks {
		if !strings.Contains(b[2], "rules") {
			continue
		}
		n++
		d, err := Parse([]byte(b[2]), nil)
		if err != nil {
			t.Errorf("%v in:\n%s", err, b[2])
		} else if len(d.Rules) == 0 {
			t.Errorf("no rules in:\n%s", b[2])
		}
	}
	if n < 2 {
		t.Errorf("found %d rule files in the doc, want the JSON and the YAML example", n)
	}
}
