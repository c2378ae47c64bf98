package validate

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/sortkeydb/sortkey/internal/apierr"
)

// namePattern is the table and index name pattern as DynamoDB prints it.
const namePattern = "[a-zA-Z0-9_.-]+"

// validName reports whether s matches namePattern. Every request names a
// table, and a regular expression cost 1.5% of a GetItem's server CPU.
func validName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		ok := 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '.' || c == '-'
		if !ok {
			return false
		}
	}
	return true
}

// The enum sets, in the order DynamoDB prints them: its model's order, the
// order the API Reference lists "Valid Values" in, except where the
// service has been seen printing another (AttributeType [B, N, S]).
var (
	keyTypes     = []string{"HASH", "RANGE"}
	attrTypes    = []string{"B", "N", "S"}
	billingModes = []string{"PROVISIONED", "PAY_PER_REQUEST"}
	projTypes    = []string{"ALL", "KEYS_ONLY", "INCLUDE"}
	streamViews  = []string{"NEW_IMAGE", "OLD_IMAGE", "NEW_AND_OLD_IMAGES", "KEYS_ONLY"}
	sseTypes     = []string{"AES256", "KMS"}
	tableClasses = []string{"STANDARD", "STANDARD_INFREQUENT_ACCESS"}
)

// violations collects model-level constraint failures: DynamoDB reports all
// of them in one message rather than stopping at the first.
type violations struct{ msgs []string }

// add records one failure; value is already rendered ("null" or quoted).
func (v *violations) add(value, member, constraint string) {
	v.msgs = append(v.msgs, fmt.Sprintf(msgViolation, value, member, constraint))
}

// err joins the failures the way the service does, or returns nil: it
// counts them all but lists only the first maxListed.
func (v *violations) err() error {
	switch len(v.msgs) {
	case 0:
		return nil
	case 1:
		return one(v.msgs[0])
	}
	listed := v.msgs[:min(len(v.msgs), maxListed)]
	return apierr.Validationf(msgErrors, len(v.msgs), strings.Join(listed, "; "))
}

// one is a single failure reported with the prefix the service glues on.
func one(msg string) error { return apierr.Validationf("%s", prefixOne+msg) }

// bare is a single failure in the form that names the member, with
// DynamoDB's capitalised path, but not its value.
func bare(member, constraint string) error {
	return one(fmt.Sprintf(msgViolationBare, member, constraint))
}

func quote(s string) string { return "'" + s + "'" }

// present reports a missing required member and whether it is there.
func (v *violations) present(isNil bool, member string) bool {
	if isNil {
		v.add("null", member, cNotNull)
	}
	return !isNil
}

// length checks a string's length in characters, as the Java model does
// (UTF-16 units; runes are close enough for the names involved).
func (v *violations) length(s, member string, min, max int) {
	n := len([]rune(s))
	if n < min || max >= 0 && n > max { // quoting allocates; most names pass
		v.count(quote(s), n, member, min, max)
	}
}

// count checks a length already measured, for strings and lists alike.
func (v *violations) count(value string, n int, member string, min, max int) {
	if n < min {
		v.add(value, member, fmt.Sprintf(cMinLength, min))
	}
	if max >= 0 && n > max {
		v.add(value, member, fmt.Sprintf(cMaxLength, max))
	}
}

// name checks a table or index name: pattern first, then length, which is
// the order the service lists them in for an empty name.
func (v *violations) name(s, member string) {
	if !validName(s) {
		v.add(quote(s), member, fmt.Sprintf(cPattern, namePattern))
	}
	v.length(s, member, 3, 255)
}

// enum checks an optional string against a fixed set.
func (v *violations) enum(s *string, member string, set []string) {
	if s == nil {
		return
	}
	for _, ok := range set {
		if *s == ok {
			return
		}
	}
	v.add(quote(*s), member, fmt.Sprintf(cEnum, strings.Join(set, ", ")))
}

// atLeast checks an optional number's lower bound.
func (v *violations) atLeast(n *int64, member string, min int64) {
	if n != nil && *n < min {
		v.add(quote(strconv.FormatInt(*n, 10)), member, fmt.Sprintf(cMinValue, min))
	}
}

// atMost checks an optional number's upper bound.
func (v *violations) atMost(n *int64, member string, max int64) {
	if n != nil && *n > max {
		v.add(quote(strconv.FormatInt(*n, 10)), member, fmt.Sprintf(cMaxValue, max))
	}
}

// item names the n-th (0-based) member of a list the way the model does.
func item(list string, i int) string { return list + "." + strconv.Itoa(i+1) + ".member" }

// javaString renders a pointer the way Java's toString shows a field.
func javaString(s *string) string {
	if s == nil {
		return "null"
	}
	return *s
}
