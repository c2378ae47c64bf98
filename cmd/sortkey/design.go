package main

// `sortkey design <command>`: design files checked, documented, applied
// and converted (docs/DESIGN-FILES.md). Each command registers itself in
// designCommands from its own file.

import (
	"fmt"
	"io"
	"slices"
	"strings"
)

// designCommand is one `sortkey design` command: its one-line summary and
// what runs it with the arguments after its name; it returns the exit
// status.
type designCommand struct {
	summary string
	run     func(args []string, stdout, stderr io.Writer) int
}

var designCommands = map[string]designCommand{}

func designUsage() string {
	var b strings.Builder
	b.WriteString("usage: sortkey design <command> [flags] FILE\n\ncommands:\n")
	names := make([]string, 0, len(designCommands))
	for name := range designCommands {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		fmt.Fprintf(&b, "  %-18s %s\n", name, designCommands[name].summary)
	}
	b.WriteString("\nRun \"sortkey design <command> -h\" for a command's flags.\n")
	return b.String()
}

func designCmd(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, designUsage())
		return 2
	}
	if isHelp(args[0]) {
		fmt.Fprint(stdout, designUsage())
		return 0
	}
	c, ok := designCommands[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "sortkey design: unknown command %q\n\n%s", args[0], designUsage())
		return 2
	}
	return c.run(args[1:], stdout, stderr)
}
