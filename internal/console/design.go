package console

import (
	"net/http"
	"slices"
	"strings"

	"github.com/sortkeydb/sortkey/internal/design"
	"github.com/sortkeydb/sortkey/internal/design/coverage"
)

func init() {
	routes = append(routes, func(c *Console) { c.mux.HandleFunc("GET /console/design", c.designPage) })
}

// designSource is the design the server counts requests against and the
// getter of its live coverage report: the console is handed both, so it
// never reaches into the engine or the recorder.
type designSource struct {
	d      *design.Design
	report func() *coverage.Report
}

// SetDesign shows d and its live coverage (report, called per page view)
// at /console/design.
func (c *Console) SetDesign(d *design.Design, report func() *coverage.Report) {
	c.design = designSource{d: d, report: report}
}

// designView is the data of the design page.
type designView struct {
	Name, Description string
	Charts            []chart
	Reads, Writes     []patternRow
	EntityWrites      []coverage.PatternReport
	Undeclared        []coverage.Undeclared
	Dropped           int64
	Never             []string
}

// chart is one table's entity chart: a row per entity, a column per key
// space (the table, then each index), each cell the entity's key
// templates there; an empty cell is an index the entity is not in.
type chart struct {
	Table  string
	Spaces []string
	Rows   []chartRow
}

type chartRow struct {
	Entity string
	Cells  []string
}

// patternRow is one pattern as designed, with its live counters.
type patternRow struct {
	Number, Name, Operation, Where, Key string
	Stats                               coverage.PatternReport
}

func (c *Console) designPage(w http.ResponseWriter, r *http.Request) {
	if c.design.d == nil {
		page(w, http.StatusOK, "design", nil)
		return
	}
	page(w, http.StatusOK, "design", c.designData())
}

func (c *Console) designData() designView {
	d, rep := c.design.d, c.design.report()
	v := designView{Name: d.Name, Description: d.Description, EntityWrites: rep.EntityWrites,
		Undeclared: rep.Undeclared, Dropped: rep.UndeclaredDropped, Never: rep.NeverExercised}
	for i := range d.Tables {
		v.Charts = append(v.Charts, entityChart(d, &d.Tables[i]))
	}
	stats := statsByPattern(rep)
	for _, p := range d.Patterns {
		v.Reads = append(v.Reads, patternRow{Number: p.Number, Name: p.Name, Operation: p.Operation,
			Where: where(p.Table, p.Index), Key: keyCondition(d, &p), Stats: stats["read\x00"+p.Number+"\x00"+p.Name]})
	}
	for _, wp := range d.Writes {
		v.Writes = append(v.Writes, patternRow{Number: wp.Number, Name: wp.Name, Operation: wp.Operation,
			Where: strings.Join(wp.Entities, ", "), Key: wp.Condition, Stats: stats["write\x00"+wp.Number+"\x00"+wp.Name]})
	}
	return v
}

func statsByPattern(rep *coverage.Report) map[string]coverage.PatternReport {
	m := make(map[string]coverage.PatternReport, len(rep.Patterns))
	for _, pr := range rep.Patterns {
		m[pr.Kind+"\x00"+pr.Number+"\x00"+pr.Name] = pr
	}
	return m
}

func where(table, index string) string {
	if index == "" {
		return table
	}
	return table + " / " + index
}

func entityChart(d *design.Design, t *design.Table) chart {
	ch := chart{Table: t.Name, Spaces: []string{t.Name}}
	for _, ix := range append(append([]design.Index(nil), t.GSIs...), t.LSIs...) {
		ch.Spaces = append(ch.Spaces, ix.Name)
	}
	for _, e := range d.Entities {
		if e.Table != t.Name {
			continue
		}
		row := chartRow{Entity: e.Name}
		for _, sp := range ch.Spaces {
			row.Cells = append(row.Cells, templatesText(e.Keys[sp], keyOrder(d, t.Name, sp)))
		}
		ch.Rows = append(ch.Rows, row)
	}
	return ch
}

// keyOrder is the key attribute names of a table or index, partition
// key first, so templates and conditions read in schema order.
func keyOrder(d *design.Design, table, space string) []string {
	for _, t := range d.Tables {
		if t.Name != table {
			continue
		}
		if space == "" || space == t.Name {
			names := []string{t.PartitionKey.Name}
			if t.SortKey != nil {
				names = append(names, t.SortKey.Name)
			}
			return names
		}
		for _, ix := range append(append([]design.Index(nil), t.GSIs...), t.LSIs...) {
			if ix.Name == space {
				return append(attrNames(ix.PartitionKey), attrNames(ix.SortKey)...)
			}
		}
	}
	return nil
}

func attrNames(ks design.KeyAttrs) []string {
	names := make([]string, len(ks))
	for i, k := range ks {
		names[i] = k.Name
	}
	return names
}

// ordered is the names of m in schema order, then any others sorted.
func ordered[V any](m map[string]V, order []string) []string {
	var out []string
	for _, n := range order {
		if _, ok := m[n]; ok {
			out = append(out, n)
		}
	}
	var rest []string
	for n := range m {
		if !slices.Contains(out, n) {
			rest = append(rest, n)
		}
	}
	slices.Sort(rest)
	return append(out, rest...)
}

func templatesText(kt design.KeyTemplates, order []string) string {
	var parts []string
	for _, n := range ordered(kt, order) {
		parts = append(parts, n+": "+string(kt[n]))
	}
	return strings.Join(parts, ", ")
}

// keyCondition is a pattern's key condition as one line:
// pk = U#{userId}#O AND begins_with(sk, O#{orderId}).
func keyCondition(d *design.Design, p *design.Pattern) string {
	var parts []string
	for _, n := range ordered(p.Key, keyOrder(d, p.Table, p.Index)) {
		parts = append(parts, conditionText(n, p.Key[n]))
	}
	return strings.Join(parts, " AND ")
}

func conditionText(name string, c design.Condition) string {
	switch c.Op {
	case "", "=":
		return name + " = " + string(c.Value)
	case "begins_with":
		return "begins_with(" + name + ", " + string(c.Value) + ")"
	case "between":
		return name + " BETWEEN " + string(c.Value) + " AND " + string(c.Value2)
	}
	return name + " " + c.Op + " " + string(c.Value)
}
