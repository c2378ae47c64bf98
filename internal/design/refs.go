package design

import "regexp"

// A filter the design writes names its attributes and values by
// placeholder (#status, :open); the requests built from it and the calls
// counted against it need those placeholders, not the whole expression.
var (
	valueRef = regexp.MustCompile(`:[A-Za-z0-9_]+`)
	nameRef  = regexp.MustCompile(`#[A-Za-z0-9_]+`)
)

// ValueRefs are the :value placeholders of an expression, each once, in
// order.
func ValueRefs(e string) []string { return unique(valueRef.FindAllString(e, -1)) }

// NameRefs are the #name placeholders of an expression, each once, in
// order.
func NameRefs(e string) []string { return unique(nameRef.FindAllString(e, -1)) }

func unique(refs []string) []string {
	seen := map[string]bool{}
	out := refs[:0]
	for _, r := range refs {
		if !seen[r] {
			seen[r] = true
			out = append(out, r)
		}
	}
	return out
}
