package workbench

import (
	"fmt"
	"slices"
	"strings"

	"github.com/sortkeydb/sortkey/internal/design"
)

// deriver makes an entity's key templates from its sample items, one
// template per attribute however many indexes it keys.
type deriver struct {
	rows    []item
	memo    map[string]design.Template
	seen    []derived
	guessed []string // attr: "template", for the warning
}

// derived is a template made from some values, so that another key
// holding the same values (a GSI's copy of the sort key) gets it too.
type derived struct {
	vals []string
	t    design.Template
}

func (d *deriver) templates(names []string, aliases map[string]string) design.KeyTemplates {
	out := design.KeyTemplates{}
	for _, n := range names {
		out[n] = d.template(n, aliases[n])
	}
	return out
}

func (d *deriver) template(attr, alias string) design.Template {
	if t, ok := d.memo[attr]; ok {
		return t
	}
	vals := values(d.rows, attr)
	t, sure := derive(vals, varName(alias, attr))
	if i := slices.IndexFunc(d.seen, func(s derived) bool { return len(vals) > 0 && slices.Equal(s.vals, vals) }); i >= 0 && alias == "" {
		t, sure = d.seen[i].t, true
	}
	d.seen = append(d.seen, derived{vals, t})
	if !sure {
		d.guessed = append(d.guessed, fmt.Sprintf("%s: %q", attr, t))
	}
	if d.memo == nil {
		d.memo = map[string]design.Template{}
	}
	d.memo[attr] = t
	return t
}

func values(rows []item, attr string) []string {
	var out []string
	for _, r := range rows {
		if v, ok := stringValue(r[attr]); ok {
			out = append(out, v)
		}
	}
	return out
}

// varName is the placeholder a key's alias names: Workbench's alias is
// what the facet calls the key (UserId), which is what varies in it.
func varName(alias, attr string) string {
	strip := strings.NewReplacer("{", "", "}", "")
	if v := strip.Replace(alias); v != "" {
		return v
	}
	if v := strip.Replace(attr); v != "" {
		return v
	}
	return "value"
}

// derive is the template of a key whose sample values are vals, and
// whether it is certain: a sample that is itself a template (as Export
// writes them) is taken as written; otherwise values that agree are a
// constant (a single one only without digits), and values that share a prefix up to a '#' are that prefix
// and a placeholder (U#1, U#2 → U#{v}).
func derive(vals []string, v string) (design.Template, bool) {
	for _, s := range vals {
		if t := design.Template(s); len(t.Vars()) > 0 {
			return t, true
		}
	}
	placeholder := design.Template("{" + v + "}")
	if len(vals) == 0 {
		return placeholder, false
	}
	p := commonPrefix(vals)
	// One sample without digits is taken as a constant (PROFILE,
	// GENRE#sf): ids are what have digits, and Export writes constants so.
	if allEqual(vals) && parses(p) && (len(vals) > 1 || !strings.ContainsAny(p, "0123456789")) {
		return design.Template(p), len(vals) > 1
	}
	if i := strings.LastIndexByte(p, '#'); i >= 0 && parses(p[:i+1]) {
		return design.Template(p[:i+1]) + placeholder, false
	}
	return placeholder, false
}

func parses(s string) bool {
	_, err := design.Template(s).Parts()
	return err == nil
}

func commonPrefix(vals []string) string {
	p := vals[0]
	for _, s := range vals[1:] {
		n := 0
		for n < len(p) && n < len(s) && p[n] == s[n] {
			n++
		}
		p = p[:n]
	}
	return p
}

// facetRows is each facet's sample items: its own (older models keep
// them in the facet), else the table's items it can hold — each given to
// the facet with the fewest attributes that has all of the item's.
func facetRows(t wbTable) [][]item {
	out := make([][]item, len(t.TableFacets))
	sets := make([]map[string]bool, len(t.TableFacets))
	for i, f := range t.TableFacets {
		out[i] = f.TableData
		sets[i] = map[string]bool{}
		for _, k := range append(attrNames(t.KeyAttributes.PartitionKey), attrNames(t.KeyAttributes.SortKey)...) {
			sets[i][k] = true
		}
		for _, a := range f.NonKeyAttributes {
			sets[i][a] = true
		}
	}
	for _, r := range t.TableData {
		best := -1
		for i, f := range t.TableFacets {
			if len(f.TableData) == 0 && holds(sets[i], r) && (best < 0 || len(sets[i]) < len(sets[best])) {
				best = i
			}
		}
		if best >= 0 {
			out[best] = append(out[best], r)
		}
	}
	return out
}

func holds(set map[string]bool, r item) bool {
	for a := range r {
		if !set[a] {
			return false
		}
	}
	return true
}

// discriminator finds the attribute that names the entity: one of the
// table's non-key attributes whose sample value is the same throughout
// each facet that has it, differs between facets, and is in at least
// two of them; the one in most facets wins. values[i] is facet i's ("":
// the facet has none).
func discriminator(t wbTable, rows [][]item) (string, []string) {
	var best string
	var bestValues []string
	bestCount := 1
	for _, a := range t.NonKeyAttributes {
		vals, count := constantPerFacet(rows, a.AttributeName)
		if count > bestCount {
			best, bestValues, bestCount = a.AttributeName, vals, count
		}
	}
	return best, bestValues
}

// constantPerFacet is attr's value in each facet and how many facets
// have one, or a count of 0 when some facet's items disagree or two
// facets share a value.
func constantPerFacet(rows [][]item, attr string) ([]string, int) {
	vals := make([]string, len(rows))
	seen := map[string]bool{}
	count := 0
	for i, rs := range rows {
		vs := values(rs, attr)
		if len(vs) == 0 {
			continue
		}
		if len(vs) != len(rs) || !allEqual(vs) || seen[vs[0]] || vs[0] == "" || !design.Template(vs[0]).Constant() {
			return nil, 0
		}
		seen[vs[0]], vals[i] = true, vs[0]
		count++
	}
	return vals, count
}

func allEqual(vals []string) bool {
	for _, s := range vals {
		if s != vals[0] {
			return false
		}
	}
	return true
}
