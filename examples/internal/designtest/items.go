package designtest

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/sortkeydb/sortkey/internal/design"
)

// Items reports, through t, every item of the design's table that is not
// exactly one entity of the design: its table key must match one
// entity's templates (and discriminator) and no other's, it must carry
// the entity's required attributes with their types, it must be in each
// of the table's indexes the entity declares keys for, under keys that
// match those templates (always, where those key attributes are
// required), and in no other; and each template variable
// must take one value throughout the item.
func Items(t TB, d *design.Design, table string, items []map[string]types.AttributeValue) {
	t.Helper()
	tbl := tableOf(d, table)
	if tbl == nil {
		t.Errorf("the design has no table %s", table)
		return
	}
	for _, item := range items {
		if err := placed(d, tbl, item); err != nil {
			t.Errorf("item %s: %v", keyString(tbl, item), err)
		}
	}
}

// Entities is which entity each item is, by the design (as Items
// decides it), counted: a test can then say which entities its sample
// holds.
func Entities(d *design.Design, table string, items []map[string]types.AttributeValue) map[string]int {
	out := map[string]int{}
	tbl := tableOf(d, table)
	if tbl == nil {
		return out
	}
	for _, item := range items {
		if es := candidates(d, tbl, item); len(es) == 1 {
			out[es[0].Name]++
		}
	}
	return out
}

// EveryEntity reports, through t, each entity of d that counts (as
// Entities returns them, summed over tables) holds none of: a sample
// that shows the design should show all of it.
func EveryEntity(t TB, d *design.Design, counts map[string]int) {
	t.Helper()
	for _, e := range d.Entities {
		if counts[e.Name] == 0 {
			t.Errorf("the sample holds no %s", e.Name)
		}
	}
}

func tableOf(d *design.Design, name string) *design.Table {
	for i := range d.Tables {
		if d.Tables[i].Name == name {
			return &d.Tables[i]
		}
	}
	return nil
}

func placed(d *design.Design, tbl *design.Table, item map[string]types.AttributeValue) error {
	es := candidates(d, tbl, item)
	switch len(es) {
	case 0:
		return fmt.Errorf("matches no entity of the design")
	case 1:
	default:
		names := make([]string, len(es))
		for i, e := range es {
			names[i] = e.Name
		}
		return fmt.Errorf("matches several entities: %s", strings.Join(names, ", "))
	}
	e := es[0]
	vars := map[string]string{}
	bindKeys(e.Keys[tbl.Name], item, vars)
	for _, a := range e.Attributes {
		v, ok := item[a.Name]
		if !ok && a.Required {
			return fmt.Errorf("%s: required attribute %s is missing", e.Name, a.Name)
		}
		if ok && typeOf(v) != a.Type {
			return fmt.Errorf("%s: attribute %s is %s, the design says %s", e.Name, a.Name, typeOf(v), a.Type)
		}
	}
	return indexPlacement(e, tbl, item, vars)
}

// candidates are the entities of tbl whose table key templates and
// discriminator the item matches.
func candidates(d *design.Design, tbl *design.Table, item map[string]types.AttributeValue) []*design.Entity {
	var out []*design.Entity
	for i := range d.Entities {
		e := &d.Entities[i]
		if e.Table != tbl.Name {
			continue
		}
		if dis := e.Discriminator; dis != nil && stringOf(item[dis.Attribute]) != dis.Value {
			continue
		}
		if keys, ok := e.Keys[tbl.Name]; ok && bindKeys(keys, item, map[string]string{}) == nil {
			out = append(out, e)
		}
	}
	return out
}

func indexPlacement(e *design.Entity, tbl *design.Table, item map[string]types.AttributeValue, vars map[string]string) error {
	for i, ix := range slices.Concat(tbl.GSIs, tbl.LSIs) {
		attrs := slices.Concat(ix.PartitionKey, ix.SortKey)
		if i >= len(tbl.GSIs) {
			attrs = ix.SortKey // an LSI's partition key is the table's, which every item has
		}
		in := true
		for _, a := range attrs {
			if _, ok := item[a.Name]; !ok {
				in = false
			}
		}
		keys, declared := e.Keys[ix.Name]
		switch {
		case in && !declared:
			return fmt.Errorf("%s is in index %s, for which the design gives it no keys", e.Name, ix.Name)
		case !in && declared && required(e, attrs):
			return fmt.Errorf("%s lacks a key attribute of index %s, where the design places it", e.Name, ix.Name)
		case in:
			if err := bindKeys(keys, item, vars); err != nil {
				return fmt.Errorf("%s in index %s: %v", e.Name, ix.Name, err)
			}
		}
	}
	return nil
}

// required reports whether every one of attrs is a required attribute of
// e: an entity whose index key is optional is in that index only when it
// has the key, as a sparse index is meant to be.
func required(e *design.Entity, attrs []design.KeyAttr) bool {
	for _, k := range attrs {
		if !slices.ContainsFunc(e.Attributes, func(a design.Attribute) bool { return a.Name == k.Name && a.Required }) {
			return false
		}
	}
	return true
}

// bindKeys matches the item's key attributes against templates, adding
// each variable's value to vars; a variable already bound must take the
// same value again.
func bindKeys(keys design.KeyTemplates, item map[string]types.AttributeValue, vars map[string]string) error {
	for _, attr := range slices.Sorted(maps.Keys(keys)) {
		tmpl := keys[attr]
		v, ok := item[attr]
		if !ok {
			return fmt.Errorf("no %s", attr)
		}
		got, ok := tmpl.Match(stringOf(v))
		if !ok {
			return fmt.Errorf("%s %q does not match %q", attr, stringOf(v), tmpl)
		}
		for name, val := range got {
			if was, seen := vars[name]; seen && was != val {
				return fmt.Errorf("{%s} is %q in %s but %q elsewhere", name, val, attr, was)
			}
			vars[name] = val
		}
	}
	return nil
}

func typeOf(v types.AttributeValue) string {
	switch v.(type) {
	case *types.AttributeValueMemberS:
		return "S"
	case *types.AttributeValueMemberN:
		return "N"
	case *types.AttributeValueMemberB:
		return "B"
	case *types.AttributeValueMemberBOOL:
		return "BOOL"
	case *types.AttributeValueMemberNULL:
		return "NULL"
	case *types.AttributeValueMemberM:
		return "M"
	case *types.AttributeValueMemberL:
		return "L"
	case *types.AttributeValueMemberSS:
		return "SS"
	case *types.AttributeValueMemberNS:
		return "NS"
	case *types.AttributeValueMemberBS:
		return "BS"
	}
	return "?"
}

// stringOf is a scalar's text (a number's digits), "" for the rest.
func stringOf(v types.AttributeValue) string {
	switch v := v.(type) {
	case *types.AttributeValueMemberS:
		return v.Value
	case *types.AttributeValueMemberN:
		return v.Value
	}
	return ""
}

func keyString(tbl *design.Table, item map[string]types.AttributeValue) string {
	s := tbl.PartitionKey.Name + "=" + stringOf(item[tbl.PartitionKey.Name])
	if tbl.SortKey != nil {
		s += " " + tbl.SortKey.Name + "=" + stringOf(item[tbl.SortKey.Name])
	}
	return s
}
