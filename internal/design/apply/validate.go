package apply

import (
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/sortkeydb/sortkey/internal/design"
)

// ErrInvalid is wrapped by the error of a design Apply refuses.
var ErrInvalid = errors.New("the design cannot be applied")

var (
	validName       = regexp.MustCompile(`^[a-zA-Z0-9_.-]{3,255}$`)
	keyTypes        = map[string]bool{"S": true, "N": true, "B": true}
	projectionTypes = map[string]bool{"ALL": true, "KEYS_ONLY": true, "INCLUDE": true}
	billingModes    = map[string]bool{"": true, payPerRequest: true, "PROVISIONED": true}
	streamViews     = map[string]bool{"": true, "NEW_IMAGE": true, "OLD_IMAGE": true, "NEW_AND_OLD_IMAGES": true, "KEYS_ONLY": true}
)

// Validate refuses a design whose tables DynamoDB could not create as
// written, naming every problem with its position, before Apply makes
// any request. It checks only what Apply needs; the design's own
// consistency is `sortkey design check`'s.
func Validate(d *design.Design) error {
	if len(d.Tables) == 0 {
		return fmt.Errorf("%w: %s: %s", ErrInvalid, d.File, errNoTables)
	}
	var problems []string
	seen := map[string]bool{}
	for _, t := range d.Tables {
		var ps []string
		if seen[t.Name] {
			ps = append(ps, fmt.Sprintf(errDupTable, t.Name))
		}
		seen[t.Name] = true
		for _, p := range append(ps, tableProblems(t)...) {
			problems = append(problems, fmt.Sprintf("%s:%d:%d: ", d.File, t.Pos.Line, t.Pos.Col)+fmt.Sprintf(errInvalidPrefix, t.Name)+p)
		}
	}
	if len(problems) > 0 {
		return fmt.Errorf("%w:\n%s", ErrInvalid, strings.Join(problems, "\n"))
	}
	return nil
}

func tableProblems(t design.Table) []string {
	var ps []string
	if !validName.MatchString(t.Name) {
		ps = append(ps, fmt.Sprintf(errName, "table", t.Name))
	}
	if !billingModes[t.BillingMode] {
		ps = append(ps, fmt.Sprintf(errBillingMode, t.BillingMode))
	}
	if !streamViews[t.Stream] {
		ps = append(ps, fmt.Sprintf(errStreamView, t.Stream))
	}
	ps = append(ps, keyProblems(t)...)
	names := map[string]bool{}
	for _, g := range t.GSIs {
		ps = append(ps, indexProblems(g, names)...)
	}
	for _, l := range t.LSIs {
		ps = append(ps, indexProblems(l, names)...)
		if len(l.PartitionKey) != 1 || l.PartitionKey[0].Name != t.PartitionKey.Name || len(l.SortKey) != 1 {
			ps = append(ps, fmt.Sprintf(errLSIKeys, l.Name))
		}
	}
	return append(ps, vectorProblems(t, names)...)
}

// keyProblems checks every key attribute's type, and that an attribute
// keys the table and its indexes with one type.
func keyProblems(t design.Table) []string {
	var ps []string
	typ := map[string]string{}
	for _, k := range keyAttrs(t) {
		switch have, ok := typ[k.Name]; {
		case k.Name == "" || !keyTypes[k.Type]:
			ps = append(ps, fmt.Sprintf(errKeyAttr, k.Name))
		case ok && have != k.Type:
			ps = append(ps, fmt.Sprintf(errTypeConflict, k.Name, have, k.Type))
		default:
			typ[k.Name] = k.Type
		}
	}
	return ps
}

func indexProblems(x design.Index, names map[string]bool) []string {
	ps := namedIndexProblems(x.Name, x.Projection, names)
	if len(x.PartitionKey) == 0 {
		ps = append(ps, fmt.Sprintf(errIndexNoPK, x.Name))
	}
	return ps
}

// namedIndexProblems checks what every kind of index has: a name unique
// among the table's indexes (names) and a projection.
func namedIndexProblems(name string, p design.Projection, names map[string]bool) []string {
	var ps []string
	switch {
	case !validName.MatchString(name):
		ps = append(ps, fmt.Sprintf(errName, "index", name))
	case names[name]:
		ps = append(ps, fmt.Sprintf(errDupIndex, name))
	}
	names[name] = true
	if !projectionTypes[p.Type] {
		ps = append(ps, fmt.Sprintf(errProjection, name, p.Type))
	} else if p.Type != "INCLUDE" && len(p.Attributes) > 0 {
		ps = append(ps, fmt.Sprintf(errIncludeOnly, name))
	}
	return ps
}
