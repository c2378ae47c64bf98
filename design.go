package sortkey

import (
	"encoding/json"
	"errors"

	"github.com/sortkeydb/sortkey/internal/design"
	"github.com/sortkeydb/sortkey/internal/design/coverage"
)

// Coverage holds a running application's requests against its design
// file (docs/DESIGN-FILES.md): each request is counted under the access
// or write pattern it serves, and requests that fit none are kept as
// undeclared. One Coverage may be shared by many DBs (Options.Coverage),
// as a package's tests share one report.
type Coverage struct {
	d   *design.Design // shown by the console's design view
	rec *coverage.Recorder
}

// designFileName names a design given as bytes, in parse errors.
const designFileName = "design"

var (
	errDesignTwice = errors.New("sortkey: set Options.Design or Options.Coverage, not both")
	errNoDesign    = errors.New("sortkey: no design loaded (Options.Design)")
)

// NewCoverage parses a design file (YAML or JSON) and returns a Coverage
// with every pattern at zero.
func NewCoverage(designDoc []byte) (*Coverage, error) {
	d, err := design.Parse(designDoc, designFileName)
	if err != nil {
		return nil, err
	}
	return &Coverage{d: d, rec: coverage.New(d)}, nil
}

// JSON is the report as served at GET /sortkey/design/report.
func (c *Coverage) JSON() ([]byte, error) { return json.MarshalIndent(c.rec.Report(), "", "  ") }

// Markdown is the report as a document: per pattern its calls, items,
// capacity, pages and latency; then the undeclared requests and the
// patterns never exercised.
func (c *Coverage) Markdown() string { return c.rec.Report().Markdown() }

// Check is nil when every pattern was exercised and no request was
// undeclared; otherwise it says which were not and what was.
func (c *Coverage) Check() error { return c.rec.Report().Check() }

// coverageOf is the Coverage opts ask for, or nil.
func coverageOf(opts *Options) (*Coverage, error) {
	switch {
	case opts.Design != nil && opts.Coverage != nil:
		return nil, errDesignTwice
	case opts.Design != nil:
		return NewCoverage(opts.Design)
	}
	return opts.Coverage, nil
}

// Coverage is the design coverage of the DB's requests, nil when no
// design was given.
func (db *DB) Coverage() *Coverage { return db.cov }

// DesignReport is the design coverage report as JSON.
func (db *DB) DesignReport() ([]byte, error) {
	if db.cov == nil {
		return nil, errNoDesign
	}
	return db.cov.JSON()
}

// DesignReportMarkdown is the design coverage report as Markdown.
func (db *DB) DesignReportMarkdown() (string, error) {
	if db.cov == nil {
		return "", errNoDesign
	}
	return db.cov.Markdown(), nil
}
