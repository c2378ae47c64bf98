package design

import "fmt"

// Severity of a Finding: an error fails `sortkey design check`; a warning
// fails it only with --strict.
const (
	SeverityError   = "error"
	SeverityWarning = "warning"
)

// Finding is one thing Check found wrong with a design: where, how bad,
// a stable code for tools and tests, and a message that names the element
// and says what to change.
type Finding struct {
	Pos      Pos
	Severity string // SeverityError or SeverityWarning
	Code     string
	Message  string
}

// String is the finding as compilers print one, "file:line:col: error:
// message", so editors and CI annotate the line.
func (f Finding) String(file string) string {
	if f.Pos.Line == 0 {
		return fmt.Sprintf("%s: %s: %s", file, f.Severity, f.Message)
	}
	return fmt.Sprintf("%s:%d:%d: %s: %s", file, f.Pos.Line, f.Pos.Col, f.Severity, f.Message)
}

// HasErrors reports whether any finding is an error.
func HasErrors(fs []Finding) bool {
	for _, f := range fs {
		if f.Severity == SeverityError {
			return true
		}
	}
	return false
}
