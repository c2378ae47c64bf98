package main

import (
	"fmt"
	"io"

	"github.com/sortkeydb/sortkey/internal/version"
)

// versionCmd prints which sortkey this is, one line, for bug reports:
// module version, commit (with "(modified)" for a dirty tree) and Go.
func versionCmd(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		fmt.Fprintf(stderr, "sortkey version: takes no arguments, got %q\n", args)
		return 2
	}
	fmt.Fprintln(stdout, version.Get())
	return 0
}
