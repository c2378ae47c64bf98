package main

// `sortkey design check FILE...`: the findings of design.Check, one per
// line as compilers print them, and an exit status for CI.

import (
	"flag"
	"fmt"
	"io"

	"github.com/sortkeydb/sortkey/internal/design"
)

func init() {
	designCommands["check"] = designCommand{
		summary: "check design files: key conditions, key templates, collisions, projections, unused indexes, Scans",
		run:     designCheckCmd,
	}
}

const designCheckUsage = `usage: sortkey design check [--strict] FILE...

Prints each finding as FILE:LINE:COL: SEVERITY: MESSAGE, or "FILE: ok (...)".
Exit status: 0 clean or warnings only, 1 an error (or, with --strict, a
warning), 2 a file that cannot be read or parsed.
`

func designCheckCmd(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("design check", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(fs.Output(), designCheckUsage) }
	strict := fs.Bool("strict", false, "warnings fail the check too")
	files, err := interspersed(fs, args)
	if err == flag.ErrHelp {
		fs.SetOutput(stdout)
		fs.Usage()
		return 0
	}
	if err != nil {
		return 2
	}
	if len(files) == 0 {
		fs.Usage()
		return 2
	}
	status := 0
	for _, file := range files {
		status = max(status, checkFile(file, *strict, stdout, stderr))
	}
	return status
}

// checkFile checks one file and returns its exit status.
func checkFile(file string, strict bool, stdout, stderr io.Writer) int {
	d, err := design.Load(file)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 2
	}
	findings := design.Check(d)
	for _, f := range findings {
		fmt.Fprintln(stdout, f.String(file))
	}
	switch {
	case len(findings) == 0:
		fmt.Fprintf(stdout, "%s: ok (%d tables, %d entities, %d patterns)\n", file, len(d.Tables), len(d.Entities), len(d.Patterns))
	case design.HasErrors(findings) || strict:
		return 1
	}
	return 0
}

// interspersed parses flags wherever they appear among the arguments,
// so "check a.yaml --strict" works as "check --strict a.yaml" does.
func interspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var rest []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		args = fs.Args()
		if len(args) == 0 {
			return rest, nil
		}
		rest = append(rest, args[0])
		args = args[1:]
	}
}
