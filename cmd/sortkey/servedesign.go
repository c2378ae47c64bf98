package main

// `sortkey serve --design FILE`: design coverage of the requests served,
// at GET /sortkey/design/report while serving and as Markdown on stdout
// once the server has stopped.

import (
	"fmt"
	"io"
	"os"

	"github.com/sortkeydb/sortkey"
	"github.com/sortkeydb/sortkey/internal/design"
)

// errDesignFlag prefixes what is wrong with --design's file.
const errDesignFlag = "--design: %w"

// readDesignFile reads --design's file and checks that it parses, so a
// mistake is reported with its position before the server starts; no
// flag, no design.
func readDesignFile(path string) ([]byte, error) {
	if path == "" {
		return nil, nil
	}
	doc, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf(errDesignFlag, err)
	}
	if _, err := design.Parse(doc, path); err != nil {
		return nil, fmt.Errorf(errDesignFlag, err)
	}
	return doc, nil
}

// printDesignReport writes the coverage report of everything served, when
// a design was given.
func printDesignReport(db *sortkey.DB, stdout io.Writer) {
	if md, err := db.DesignReportMarkdown(); err == nil {
		fmt.Fprint(stdout, "\n"+md)
	}
}
