package design

import (
	"errors"
	"fmt"
	"reflect"
	"strings"

	"go.yaml.in/yaml/v3"
)

// msgUnknownKey refuses a key no field takes. It is a parse error, not one
// of Check's findings (messages), as the design does not load.
const msgUnknownKey = "unknown key %q: did you mean %s?"

// unknownKey finds the first key of the file that no field of the design
// takes, walking the parsed nodes beside the model's types, and reports
// it as a finding: where it was written and the valid key nearest to it.
// yaml's own refusal names only a line and a Go type, and misses keys
// under a type's own UnmarshalYAML (KeyAttrs, Condition). An alias is not
// followed: its anchor's node is checked where it is written, and
// following them could take exponential time.
func unknownKey(n *yaml.Node, t reflect.Type, file string) error {
	switch t.Kind() {
	case reflect.Pointer:
		return unknownKey(n, t.Elem(), file)
	case reflect.Struct:
		return unknownField(n, t, file)
	case reflect.Slice:
		return unknownInList(n, t.Elem(), file)
	case reflect.Map:
		return unknownInValues(n, t.Elem(), file)
	}
	return nil
}

// unknownField checks mapping n's keys against struct t's yaml names.
func unknownField(n *yaml.Node, t reflect.Type, file string) error {
	if n.Kind != yaml.MappingNode {
		return nil // a scalar Condition, or a type error yaml reports
	}
	fields := yamlFields(t)
	for i := 0; i+1 < len(n.Content); i += 2 {
		if err := knownMember(n.Content[i], n.Content[i+1], fields, file); err != nil {
			return err
		}
	}
	return nil
}

// knownMember checks key k, one of fields, and its value v; a merge key
// (<<: *anchor) brings in keys checked at the anchor.
func knownMember(k, v *yaml.Node, fields map[string]reflect.StructField, file string) error {
	if k.ShortTag() == "!!merge" {
		return nil
	}
	f, ok := fields[k.Value]
	if !ok {
		return unknownKeyError(k, fields, file)
	}
	return unknownKey(v, f.Type, file)
}

// unknownInList checks each element of sequence n; a mapping where a list
// belongs is one element (KeyAttrs takes one key attribute so).
func unknownInList(n *yaml.Node, elem reflect.Type, file string) error {
	elems := []*yaml.Node{n}
	if n.Kind == yaml.SequenceNode {
		elems = n.Content
	}
	for _, e := range elems {
		if err := unknownKey(e, elem, file); err != nil {
			return err
		}
	}
	return nil
}

// unknownInValues checks the values of mapping n, whose keys are names.
func unknownInValues(n *yaml.Node, elem reflect.Type, file string) error {
	if n.Kind != yaml.MappingNode {
		return nil
	}
	for i := 1; i < len(n.Content); i += 2 {
		if err := unknownKey(n.Content[i], elem, file); err != nil {
			return err
		}
	}
	return nil
}

// yamlFields is struct t's fields by the key that sets each.
func yamlFields(t reflect.Type) map[string]reflect.StructField {
	out := map[string]reflect.StructField{}
	for i := range t.NumField() {
		f := t.Field(i)
		if name, _, _ := strings.Cut(f.Tag.Get("yaml"), ","); name != "-" && name != "" {
			out[name] = f
		}
	}
	return out
}

// unknownKeyError is key k refused, at its line and column, with the
// valid key nearest to it.
func unknownKeyError(k *yaml.Node, fields map[string]reflect.StructField, file string) error {
	f := Finding{Pos: at(k), Severity: SeverityError, Code: "unknown-key", Message: fmt.Sprintf(msgUnknownKey, k.Value, nearest(k.Value, fields))}
	return errors.New(f.String(file))
}

// nearest is the key of fields closest to key by edit distance, ignoring
// case, as a misspelling is most often of case or a letter or two; ties
// go to the first in alphabetical order.
func nearest(key string, fields map[string]reflect.StructField) string {
	best, bestD := "", -1
	for name := range fields {
		d := distance(strings.ToLower(key), strings.ToLower(name))
		if bestD < 0 || d < bestD || d == bestD && name < best {
			best, bestD = name, d
		}
	}
	return best
}

// distance is the Levenshtein distance between a and b, in bytes.
func distance(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := range len(a) {
		prev = nextRow(prev, a[i], b, i+1)
	}
	return prev[len(b)]
}

// nextRow is the distances from a's first n bytes, the last c, to each
// prefix of b, given prev, those from its first n-1.
func nextRow(prev []int, c byte, b string, n int) []int {
	cur := make([]int, len(b)+1)
	cur[0] = n
	for j := 1; j <= len(b); j++ {
		cost := 1
		if c == b[j-1] {
			cost = 0
		}
		cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
	}
	return cur
}
