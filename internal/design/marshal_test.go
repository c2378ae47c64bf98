package design

import (
	"reflect"
	"testing"
)

// withoutPositions is d with every Pos cleared, for comparing a design
// with the one read back from its marshalled form.
func withoutPositions(d *Design) *Design {
	c := *d
	c.Pos, c.File = Pos{}, ""
	c.Tables = append([]Table(nil), d.Tables...)
	for i := range c.Tables {
		t := &c.Tables[i]
		t.Pos, t.PartitionKey.Pos = Pos{}, Pos{}
		if t.SortKey != nil {
			sk := *t.SortKey
			sk.Pos, t.SortKey = Pos{}, &sk
		}
		t.GSIs, t.LSIs = indexesWithoutPositions(t.GSIs), indexesWithoutPositions(t.LSIs)
		t.VectorIndexes = vectorsWithoutPositions(t.VectorIndexes)
	}
	c.Entities = append([]Entity(nil), d.Entities...)
	for i := range c.Entities {
		e := &c.Entities[i]
		e.Pos, e.KeysPos = Pos{}, nil
		e.Attributes = append([]Attribute(nil), e.Attributes...)
		for j := range e.Attributes {
			e.Attributes[j].Pos = Pos{}
		}
		if e.Discriminator != nil {
			dc := *e.Discriminator
			dc.Pos, e.Discriminator = Pos{}, &dc
		}
	}
	c.Patterns = append([]Pattern(nil), d.Patterns...)
	for i := range c.Patterns {
		c.Patterns[i].Pos, c.Patterns[i].KeyPos = Pos{}, nil
	}
	c.Writes = append([]WritePattern(nil), d.Writes...)
	for i := range c.Writes {
		c.Writes[i].Pos = Pos{}
	}
	return &c
}

func indexesWithoutPositions(ix []Index) []Index {
	out := append([]Index(nil), ix...)
	for i := range out {
		out[i].Pos, out[i].Projection.Pos = Pos{}, Pos{}
		out[i].PartitionKey = keyAttrsWithoutPositions(out[i].PartitionKey)
		out[i].SortKey = keyAttrsWithoutPositions(out[i].SortKey)
	}
	return out
}

func keyAttrsWithoutPositions(k KeyAttrs) KeyAttrs {
	out := append(KeyAttrs(nil), k...)
	for i := range out {
		out[i].Pos = Pos{}
	}
	return out
}

func TestMarshalRoundTrip(t *testing.T) {
	d, err := Load("testdata/market.yaml")
	if err != nil {
		t.Fatal(err)
	}
	d.Tables[0].LSIs = []Index{{Name: "ByTotal", PartitionKey: KeyAttrs{{Name: "pk", Type: "S"}},
		SortKey: KeyAttrs{{Name: "total", Type: "N"}}, Projection: Projection{Type: "INCLUDE", Attributes: []string{"status"}}}}
	d.Tables[0].GSIs[1].PartitionKey = append(d.Tables[0].GSIs[1].PartitionKey, KeyAttr{Name: "tenant", Type: "S"})
	d.Patterns[2].Key["tp"] = Condition{Op: "between", Value: "A<{x}", Value2: "B&{y}"}
	wantRoundTrip(t, d)
}

// FuzzMarshal: whatever Parse accepts, Marshal writes in a form Parse
// reads back as the same design, in YAML and in JSON.
func FuzzMarshal(f *testing.F) {
	f.Add("version: 1\nname: x\ntables: [{name: T, partitionKey: {name: pk, type: S}, globalSecondaryIndexes: [{name: G, partitionKey: [{name: a, type: S}], projection: {type: ALL}}]}]")
	f.Add(`{"patterns": [{"number": 4, "key": {"pk": "U#{id}", "sk": {"op": "between", "value": "a", "value2": "b"}}}]}`)
	f.Add("entities:\n  - keys: {T: {pk: 'null'}}\n    discriminator: {attribute: tp, value: '1'}\n")
	f.Fuzz(func(t *testing.T, doc string) {
		d, err := Parse([]byte(doc), "fuzz.yaml")
		if err != nil {
			return
		}
		for _, asJSON := range []bool{false, true} {
			once, err := Marshal(d, asJSON)
			if err != nil {
				t.Fatalf("json %v: %v", asJSON, err)
			}
			back, err := Parse(once, "again")
			if err != nil {
				t.Fatalf("json %v: %v\n%s", asJSON, err, once)
			}
			if twice, _ := Marshal(back, asJSON); string(twice) != string(once) {
				t.Fatalf("json %v: read back differently:\n%s\n%s", asJSON, once, twice)
			}
		}
	})
}

// wantRoundTrip: d written as YAML and as JSON reads back as d.
func wantRoundTrip(t *testing.T, d *Design) {
	t.Helper()
	for _, asJSON := range []bool{false, true} {
		out, err := Marshal(d, asJSON)
		if err != nil {
			t.Fatal(err)
		}
		back, err := Parse(out, "back")
		if err != nil {
			t.Fatalf("json %v: %v\n%s", asJSON, err, out)
		}
		if want, got := withoutPositions(d), withoutPositions(back); !reflect.DeepEqual(want, got) {
			t.Errorf("json %v: read back\n%+v\nwant\n%+v\nfrom\n%s", asJSON, got, want, out)
		}
	}
}
