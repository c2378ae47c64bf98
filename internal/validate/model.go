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

// The enum sets, in the order DynamoDB prints them. Both orders confirmed
// from real error reports ([B, N, S], [HASH, RANGE]) are sorted, so the
// unconfirmed ones are sorted too.
var (
	keyTypes     = []string{"HASH", "RANGE"}
	attrTypes    = []string{"B", "N", "S"}
	billingModes = []string{"PAY_PER_REQUEST", "PROVISIONED"}
	projTypes    = []string{"ALL", "INCLUDE", "KEYS_ONLY"}
	streamViews  = []string{"KEYS_ONLY", "NEW_AND_OLD_IMAGES", "NEW_IMAGE", "OLD_IMAGE"}
	sseTypes     = []string{"AES256", "KMS"}
	tableClasses = []string{"STANDARD", "STANDARD_INFREQUENT_ACCESS"}
)

// violations collects model-level constraint failures: DynamoDB reports all
// of them in one message rather than stopping at the first.
type violations struct{ msgs []string }

// add records one failure; value is already rendered ("null" or quoted).
func (v *violations) add(value, member, constraint string) {
	v.msgs = append(v.msgs, fmt.Sprintf("Value %s at '%s' failed to satisfy constraint: %s", value, member, constraint))
}

// err joins the failures the way the service does, or returns nil.
func (v *violations) err() error {
	switch len(v.msgs) {
	case 0:
		return nil
	case 1:
		return apierr.Validationf("1 validation error detected: %s", v.msgs[0])
	}
	return apierr.Validationf("%d validation errors detected: %s", len(v.msgs), strings.Join(v.msgs, "; "))
}

func quote(s string) string { return "'" + s + "'" }

// present reports a missing required member and whether it is there.
func (v *violations) present(isNil bool, member string) bool {
	if isNil {
		v.add("null", member, "Member must not be null")
	}
	return !isNil
}

// length checks a string's length in characters, as the Java model does
// (UTF-16 units; runes are close enough for the names involved).
func (v *violations) length(s, member string, min, max int) {
	n := len([]rune(s))
	v.count(quote(s), n, member, min, max)
}

// count checks a length already measured, for strings and lists alike.
func (v *violations) count(value string, n int, member string, min, max int) {
	if n < min {
		v.add(value, member, "Member must have length greater than or equal to "+strconv.Itoa(min))
	}
	if max >= 0 && n > max {
		v.add(value, member, "Member must have length less than or equal to "+strconv.Itoa(max))
	}
}

// name checks a table or index name: pattern first, then length, which is
// the order the service lists them in for an empty name.
func (v *violations) name(s, member string) {
	if !validName(s) {
		v.add(quote(s), member, "Member must satisfy regular expression pattern: "+namePattern)
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
	v.add(quote(*s), member, "Member must satisfy enum value set: ["+strings.Join(set, ", ")+"]")
}

// atLeast checks an optional number's lower bound.
func (v *violations) atLeast(n *int64, member string, min int64) {
	if n != nil && *n < min {
		v.add(quote(strconv.FormatInt(*n, 10)), member, "Member must have value greater than or equal to "+strconv.FormatInt(min, 10))
	}
}

// atMost checks an optional number's upper bound.
func (v *violations) atMost(n *int64, member string, max int64) {
	if n != nil && *n > max {
		v.add(quote(strconv.FormatInt(*n, 10)), member, "Member must have value less than or equal to "+strconv.FormatInt(max, 10))
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
