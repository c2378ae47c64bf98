package main

import (
	"fmt"
	"io"

	"github.com/sortkeydb/sortkey/internal/version"
)

const versionUsage = "usage: sortkey version\n\nprints the module version, the commit and the Go release sortkey was built with"

// versionCmd prints which sortkey this is, one line, for bug reports:
// module version, commit (with "(modified)" for a dirty tree) and Go.
func versionCmd(args []string, stdout, stderr io.Writer) int {
	if len(args) == 1 && (args[0] == "-h" || args[0] == "--help" || args[0] == "-help") {
		fmt.Fprintln(stdout, versionUsage)
		return 0
	}
	if len(args) > 0 {
		fmt.Fprintf(stderr, "sortkey version: takes no arguments, got %q\n", args)
		return 2
	}
	fmt.Fprintln(stdout, version.Get())
	return 0
}
