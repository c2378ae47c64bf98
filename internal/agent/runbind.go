package agent

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/sortkeydb/sortkey/internal/design"
)

// sampleSize bounds the items read from a table to find a pattern's
// variables: enough for any sample data set, bounded for a big table.
const sampleSize = 1000

// bindingsFromData finds p's variables in an item of an entity p returns:
// the keys of a real item, so that the pattern reads what exists.
func (r *run) bindingsFromData(ctx context.Context, p *design.Pattern) (map[string]string, string, error) {
	items, err := r.sample(ctx, p.Table)
	if err != nil {
		return nil, "", err
	}
	need := patternVars(p)
	for _, item := range items {
		for _, e := range r.returned(p) {
			if b, ok := bindItem(e, p, item, need); ok {
				return b, "item " + describeKey(e, item), nil
			}
		}
	}
	return nil, "", fmt.Errorf(msgNoItem, p.Table, strings.Join(p.Returns, ", "), strings.Join(need, ", "))
}

// sample is the first items of table, read once per run.
func (r *run) sample(ctx context.Context, table string) ([]map[string]any, error) {
	if items, ok := r.samples[table]; ok {
		return items, nil
	}
	var items []map[string]any
	req := map[string]any{"TableName": table}
	for len(items) < sampleSize {
		var out map[string]any
		if err := r.api.Call(ctx, "Scan", req, &out); err != nil {
			return nil, err
		}
		for _, it := range asList(out["Items"]) {
			items = append(items, asMap(it))
		}
		last, more := out["LastEvaluatedKey"]
		if !more {
			break
		}
		req["ExclusiveStartKey"] = last
	}
	r.samples[table] = items
	return items, nil
}

// returned are the entities p returns, in its order.
func (r *run) returned(p *design.Pattern) []*design.Entity {
	var out []*design.Entity
	for _, name := range p.Returns {
		for i := range r.d.Entities {
			if e := &r.d.Entities[i]; e.Name == name && e.Table == p.Table {
				out = append(out, e)
			}
		}
	}
	return out
}

// patternVars are the variables of p's key templates.
func patternVars(p *design.Pattern) []string {
	var out []string
	for _, name := range slices.Sorted(maps.Keys(p.Key)) {
		c := p.Key[name]
		out = append(out, c.Value.Vars()...)
		out = append(out, c.Value2.Vars()...)
	}
	return out
}

// bindItem is the variables item gives when it is an entity e: those of
// e's templates, then those of p's key conditions matched with the
// item's own values (a range's bound, say). It fails when item is not e
// or leaves a variable unbound.
func bindItem(e *design.Entity, p *design.Pattern, item map[string]any, need []string) (map[string]string, bool) {
	if !isEntity(e, item) {
		return nil, false
	}
	b := map[string]string{}
	for _, kt := range e.Keys {
		matchInto(b, kt, item)
	}
	for name, c := range p.Key {
		matchInto(b, design.KeyTemplates{name: c.Value}, item)
		matchInto(b, design.KeyTemplates{name: c.Value2}, item)
	}
	for _, v := range need {
		if _, ok := b[v]; !ok {
			return nil, false
		}
	}
	return b, true
}

// isEntity says item has e's discriminator and table key shape.
func isEntity(e *design.Entity, item map[string]any) bool {
	if d := e.Discriminator; d != nil {
		if s, _ := scalarText(item[d.Attribute]); s != d.Value {
			return false
		}
	}
	for name, t := range e.Keys[e.Table] {
		s, ok := scalarText(item[name])
		if !ok || !t.Matches(s) {
			return false
		}
	}
	return true
}

// matchInto adds the variables item's values give templates, keeping
// those already bound.
func matchInto(b map[string]string, kt design.KeyTemplates, item map[string]any) {
	for name, t := range kt {
		s, ok := scalarText(item[name])
		if !ok {
			continue
		}
		vars, _ := t.Match(s)
		for k, v := range vars {
			if _, set := b[k]; !set {
				b[k] = v
			}
		}
	}
}

// scalarText is a string or number attribute value as text.
func scalarText(v any) (string, bool) {
	m := asMap(v)
	for _, typ := range []string{"S", "N"} {
		if s, ok := m[typ].(string); ok {
			return s, true
		}
	}
	return "", false
}

// describeKey names an item by its entity and table key.
func describeKey(e *design.Entity, item map[string]any) string {
	var parts []string
	for _, name := range slices.Sorted(maps.Keys(e.Keys[e.Table])) {
		s, _ := scalarText(item[name])
		parts = append(parts, fmt.Sprintf("%s=%q", name, s))
	}
	return e.Name + " (" + strings.Join(parts, ", ") + ")"
}
