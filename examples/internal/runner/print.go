package runner

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
)

// Print writes one access pattern's result: its name, the requests it
// made, then the rows as an aligned table under header.
func Print(w io.Writer, pattern string, calls []Call, header []string, rows [][]string) {
	fmt.Fprintf(w, "\n## %s\n", pattern)
	for _, c := range calls {
		target := c.Table
		if c.Index != "" {
			target += " / " + c.Index
		}
		line := "   " + c.Op + " " + target
		if c.KeyCondition != "" {
			line += "  [" + c.KeyCondition + "]"
		}
		fmt.Fprintln(w, line)
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "   "+strings.Join(header, "\t"))
	for _, r := range rows {
		fmt.Fprintln(tw, "   "+strings.Join(r, "\t"))
	}
	tw.Flush()
	fmt.Fprintf(w, "   (%d rows)\n", len(rows))
}
