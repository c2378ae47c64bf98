package designtest

import (
	"flag"
	"fmt"
	"io"
	"os"
	"testing"

	"github.com/sortkeydb/sortkey"
)

// Coverage is a design's coverage shared by every server an example's
// tests start for the application (Options): the package's whole test
// run is one report, checked when the run ends (Run).
type Coverage struct {
	file string
	cov  *sortkey.Coverage
}

// MustCoverage reads the design file for coverage. A test package calls
// it for a package variable, so a design that does not parse stops the
// run at once.
func MustCoverage(designFile string) *Coverage {
	doc, err := os.ReadFile(designFile)
	if err == nil {
		var cov *sortkey.Coverage
		if cov, err = sortkey.NewCoverage(doc); err == nil {
			return &Coverage{file: designFile, cov: cov}
		}
	}
	panic(fmt.Sprintf("designtest: %s: %v", designFile, err))
}

// Options is opts (nil for none) with the coverage on, for a server that
// serves the application.
func (c *Coverage) Options(opts *sortkey.Options) *sortkey.Options {
	o := sortkey.Options{}
	if opts != nil {
		o = *opts
	}
	o.Coverage = c.cov
	return &o
}

// Run runs the package's tests; when all of them ran and passed, it
// holds the coverage to the design: every pattern exercised, no request
// that fits none. The report is printed with -v, and whenever it fails
// the run. It returns the exit status for os.Exit.
func (c *Coverage) Run(m *testing.M) int {
	code := m.Run()
	if code != 0 || partial() {
		return code
	}
	return c.report(os.Stdout)
}

func (c *Coverage) report(w io.Writer) int {
	err := c.cov.Check()
	if err != nil || testing.Verbose() {
		fmt.Fprintf(w, "\ndesign coverage of %s:\n\n%s\n", c.file, c.cov.Markdown())
	}
	if err != nil {
		fmt.Fprintf(w, "FAIL: %v\n", err)
		return 1
	}
	return 0
}

// partial reports whether only some tests ran (-run, -skip, -short):
// patterns the others exercise would then count as never exercised.
func partial() bool {
	for _, name := range []string{"test.run", "test.skip"} {
		if f := flag.Lookup(name); f != nil && f.Value.String() != "" {
			return true
		}
	}
	return testing.Short()
}
