package coverage

import (
	"fmt"
	"strconv"
	"strings"
)

// Markdown is the report as a document: a table of the patterns, the
// entities' other writes, the undeclared requests, and the patterns
// never exercised.
func (rep *Report) Markdown() string {
	var b strings.Builder
	fmt.Fprintf(&b, "## Design coverage: %s\n\n", rep.Design)
	b.WriteString(tableHead)
	for _, p := range rep.Patterns {
		row(&b, p)
	}
	if len(rep.EntityWrites) > 0 {
		b.WriteString("\n### Other writes, by entity\n\n" + tableHead)
		for _, p := range rep.EntityWrites {
			row(&b, p)
		}
	}
	rep.undeclaredMarkdown(&b)
	b.WriteString("\n### Never exercised\n\n")
	if len(rep.NeverExercised) == 0 {
		b.WriteString("None: every pattern was exercised.\n")
	}
	for _, n := range rep.NeverExercised {
		b.WriteString("- " + n + "\n")
	}
	return b.String()
}

const tableHead = "| # | Pattern | Operation | Calls | Errors | Items | Scanned | Written | RCU | WCU | Later pages | p50 ms | p99 ms |\n" +
	"|---|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|\n"

func row(b *strings.Builder, p PatternReport) {
	name := cell(p.Name)
	if p.FilterDiscardsMost {
		name += " ⚠ filter discards most items read"
	}
	fmt.Fprintf(b, "| %s | %s | %s | %d | %d | %d | %d | %d | %s | %s | %d | %s | %s |\n",
		cell(p.Number), name, p.Operation, p.Calls, p.Errors, p.Items, p.Scanned, p.Written,
		num(p.RCU), num(p.WCU), p.LaterPages, num(p.P50Ms), num(p.P99Ms))
}

func (rep *Report) undeclaredMarkdown(b *strings.Builder) {
	b.WriteString("\n### Undeclared requests\n\n")
	if len(rep.Undeclared) == 0 && rep.UndeclaredDropped == 0 {
		b.WriteString("None: every request fit a pattern.\n")
		return
	}
	b.WriteString("| Request | Calls | Example |\n|---|--:|---|\n")
	for _, u := range rep.Undeclared {
		what := cell(u.Request)
		if u.Scan {
			what = "**Scan** " + what
		}
		fmt.Fprintf(b, "| %s | %d | `%s` |\n", what, u.Calls, cell(strings.ReplaceAll(u.Example, "`", "'")))
	}
	if rep.UndeclaredDropped > 0 {
		fmt.Fprintf(b, "| (more kinds, not described) | %d | |\n", rep.UndeclaredDropped)
	}
}

// cell escapes what would break a table row.
func cell(s string) string {
	return strings.NewReplacer("|", `\|`, "\n", " ").Replace(s)
}

func num(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }
