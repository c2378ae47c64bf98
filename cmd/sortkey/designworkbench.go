package main

// `sortkey design import-workbench` and `export-workbench`: NoSQL
// Workbench models to design files and back (internal/design/workbench).

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/sortkeydb/sortkey/internal/design"
	"github.com/sortkeydb/sortkey/internal/design/workbench"
)

func init() {
	designCommands["import-workbench"] = designCommand{
		summary: "convert a NoSQL Workbench model (JSON) into a design file",
		run:     designImportWorkbench,
	}
	designCommands["export-workbench"] = designCommand{
		summary: "convert a design file into a NoSQL Workbench model (JSON)",
		run:     designExportWorkbench,
	}
}

const (
	importUsage   = "usage: sortkey design import-workbench MODEL.json [-o design.yaml|design.json]"
	exportUsage   = "usage: sortkey design export-workbench FILE [-o model.json]"
	msgConvFailed = "sortkey design %s: %v\n"
	msgWarning    = "warning: %s\n"
)

// convertArgs parses a conversion command's FILE and -o OUT.
func convertArgs(name, usage string, args []string, stdout, stderr io.Writer) (in, out string, err error) {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {} // designUsageOut, after parsing
	fs.StringVar(&out, "o", "", "write here instead of to standard output")
	in, err = designFileArg(fs, args, stderr)
	if err != nil {
		designUsageOut(fs, usage, err, stdout, stderr)
	}
	return in, out, err
}

func designImportWorkbench(args []string, stdout, stderr io.Writer) int {
	const name = "import-workbench"
	in, out, err := convertArgs(name, importUsage, args, stdout, stderr)
	if err != nil {
		return flagStatus(err)
	}
	data, err := os.ReadFile(in)
	if err != nil {
		fmt.Fprintf(stderr, msgConvFailed, name, err)
		return 2
	}
	d, warnings, err := workbench.Import(data, in)
	if err != nil {
		fmt.Fprintf(stderr, msgConvFailed, name, err)
		return 2
	}
	text, err := design.Marshal(d, strings.HasSuffix(out, ".json"))
	return convertDone(name, text, out, warnings, err, stdout, stderr)
}

func designExportWorkbench(args []string, stdout, stderr io.Writer) int {
	const name = "export-workbench"
	in, out, err := convertArgs(name, exportUsage, args, stdout, stderr)
	if err != nil {
		return flagStatus(err)
	}
	d, err := design.Load(in)
	if err != nil {
		fmt.Fprintf(stderr, msgConvFailed, name, err)
		return 2
	}
	text, warnings, err := workbench.Export(d, time.Now())
	if err != nil {
		fmt.Fprintf(stderr, msgConvFailed, name, err)
		return 2
	}
	return convertDone(name, text, out, warnings, nil, stdout, stderr)
}

// flagStatus is the exit status of a command whose flags did not parse:
// 0 when help was asked for.
func flagStatus(err error) int {
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	return 2
}

// convertDone prints the warnings and writes text to out (stdout when
// out is "").
func convertDone(name string, text []byte, out string, warnings []string, err error, stdout, stderr io.Writer) int {
	for _, w := range warnings {
		fmt.Fprintf(stderr, msgWarning, w)
	}
	if err == nil && out == "" {
		_, err = stdout.Write(text)
	} else if err == nil {
		err = os.WriteFile(out, text, 0o644)
	}
	if err != nil {
		fmt.Fprintf(stderr, msgConvFailed, name, err)
		return 1
	}
	return 0
}
