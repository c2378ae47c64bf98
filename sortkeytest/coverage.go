package sortkeytest

import (
	"io"
	"testing"

	"github.com/sortkeydb/sortkey"
)

// NewCoverage parses a design file for coverage shared by many servers:
// pass it as sortkey.Options.Coverage to each, and report it once, in
// TestMain after m.Run, with ReportCoverage.
func NewCoverage(designDoc []byte) (*sortkey.Coverage, error) {
	return sortkey.NewCoverage(designDoc)
}

// ReportCoverage writes cov's report, as Markdown, to w, and returns
// cov.Check(): an error when a pattern was never exercised or a request
// fit no pattern.
func ReportCoverage(w io.Writer, cov *sortkey.Coverage) error {
	if _, err := io.WriteString(w, cov.Markdown()); err != nil {
		return err
	}
	return cov.Check()
}

// RequireCoverage fails tb, when it ends, unless the server's design
// coverage is complete: every pattern exercised and no undeclared
// request. Call it after NewWithOptions with Options.Design; with a shared
// Options.Coverage, check in TestMain instead, since a single test
// rarely exercises every pattern.
func (s *Server) RequireCoverage(tb testing.TB) {
	tb.Helper()
	cov := s.DB.Coverage()
	if cov == nil {
		tb.Fatal(msgNoDesign)
		return
	}
	tb.Cleanup(func() {
		if err := cov.Check(); err != nil {
			tb.Errorf("sortkeytest: %v", err)
		}
	})
}

const msgNoDesign = "sortkeytest: RequireCoverage needs a design (sortkey.Options.Design)"

// logCoverage logs the report of a server's own design when tb ends:
// with go test -v, or when the test fails.
func logCoverage(tb testing.TB, db *sortkey.DB, opts *sortkey.Options) {
	if opts.Design == nil {
		return
	}
	tb.Cleanup(func() {
		if md, err := db.DesignReportMarkdown(); err == nil {
			tb.Logf("\n%s", md)
		}
	})
}
