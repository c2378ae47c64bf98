package main

// `sortkey design doc FILE`: the design as Markdown, like the seeds.

import (
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/sortkeydb/sortkey/internal/design"
)

func init() {
	designCommands["doc"] = designCommand{
		summary: "write a design as Markdown: index table, entity chart, access patterns with their cost",
		run:     designDocCmd,
	}
}

const designDocUsage = `usage: sortkey design doc [-o FILE.md] FILE

Writes the design as Markdown to stdout, or to -o FILE.md. A design with
errors is still documented; run "sortkey design check" for them.
`

func designDocCmd(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("design doc", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(fs.Output(), designDocUsage) }
	out := fs.String("o", "", "write the Markdown to this file instead of stdout")
	files, err := interspersed(fs, args)
	if err == flag.ErrHelp {
		fs.SetOutput(stdout)
		fs.Usage()
		return 0
	}
	if err != nil {
		return 2
	}
	if len(files) != 1 {
		fs.Usage()
		return 2
	}
	d, err := design.Load(files[0])
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 2
	}
	md := design.Markdown(d)
	if *out == "" {
		_, err = stdout.Write(md)
	} else {
		err = os.WriteFile(*out, md, 0o644)
	}
	if err != nil {
		fmt.Fprintf(stderr, "sortkey design doc: %v\n", err)
		return 1
	}
	return 0
}
