package agent

import (
	"encoding/json"
	"math"
	"testing"

	"github.com/sortkeydb/sortkey/internal/design"
)

// FuzzReadOnlyStatements: a read-only server sends a PartiQL request only
// when every statement in it is a SELECT, whatever shape the request has.
func FuzzReadOnlyStatements(f *testing.F) {
	f.Add(`{"TransactStatements":[{"Statement":"SELECT * FROM T"}]}`)
	f.Add(`{"TransactStatements":[{"Statement":"select 1"},{"Statement":"DELETE FROM T"}]}`)
	f.Add(`{"Statements":[{"Statement":" SELECT x FROM T"},{"Statement":7}]}`)
	f.Add(`{"Statements":"SELECT"}`)
	f.Add(`{"Statement":"--c\nINSERT INTO T VALUE {}"}`)
	f.Add(`{"TransactStatements":[null,[],"SELECT"]}`)
	f.Fuzz(func(t *testing.T, request string) {
		var in map[string]any
		if json.Unmarshal([]byte(request), &in) != nil {
			return
		}
		for _, o := range operations {
			if o.statements == nil || o.refused(in) {
				continue
			}
			for _, s := range o.statements(in) {
				if text, _ := s.(string); !selectStatement.MatchString(text) {
					t.Fatalf("%s sends %s, whose statement %v is not a SELECT", o.tool, request, s)
				}
			}
		}
	})
}

// FuzzDesignCost: any design and rates get an answer or an error, never
// a panic, and an answer's totals are its lines' sums.
func FuzzDesignCost(f *testing.F) {
	f.Add("version: 1\nname: X\ntables: [{name: T, partitionKey: {name: pk, type: S}}]\npatterns:\n  - {number: 1, name: g, operation: GetItem, table: T, key: {pk: a}}\n", `{"1": 3}`)
	f.Add("version: 1\nname: X\ntables: [{name: T, partitionKey: {name: pk, type: S}}]\nentities: [{name: E, table: T, keys: {T: {pk: a}}}]\npatterns:\n  - {number: 2, operation: Scan, table: T}\nwrites:\n  - {number: W1, operation: TransactWriteItems, entities: [E, E]}\n", `{"2": 1, "W1": 0.5}`)
	f.Add("version: 1\npatterns: [{number: 1, operation: Query, table: Nope, pageSize: 1000000}]\n", `{"1": 1e300}`)
	f.Add("version: 1\npatterns: [{number: 1, operation: Scan, table: T}, {number: 2, operation: GetItem, table: T}]\n", `{"1": 1e303, "2": 1}`)
	f.Fuzz(func(t *testing.T, text, rates string) {
		d, err := design.Parse([]byte(text), "f.yaml")
		var in CostInput
		if err != nil || json.Unmarshal([]byte(rates), &in.Rates) != nil {
			return
		}
		rep, err := costOf(d, in)
		if err != nil {
			return
		}
		if _, err := json.Marshal(rep); err != nil {
			t.Fatalf("the answer cannot be sent: %v", err)
		}
		var sum float64
		for _, p := range rep.Patterns {
			sum += p.UnitsPerMonth
		}
		if total := rep.ReadUnitsMonth + rep.WriteUnitsMonth; !(math.Abs(total-sum) <= 1e-9*math.Abs(sum)) {
			t.Fatalf("lines sum to %v units, totals say %v", sum, total)
		}
	})
}
