package console

import (
	"encoding/json"
	"testing"
)

func TestPlainJSONConvertsAsTheSDKsMarshal(t *testing.T) {
	it, err := parseItem(`{"n": 1e3, "s": "x", "b": false, "z": null, "l": [2, {"k": "v"}]}`, true)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"b":{"BOOL":false},"l":{"L":[{"N":"2"},{"M":{"k":{"S":"v"}}}]},"n":{"N":"1e3"},"s":{"S":"x"},"z":{"NULL":true}}`
	if got := canonical(it); got != want {
		t.Errorf("plain JSON became %s, want %s", got, want)
	}
	for _, bad := range []string{``, `[]`, `"x"`, `null`, `{} {}`, `{"a": 1`} {
		if _, err := parseItem(bad, true); err == nil {
			t.Errorf("plain %q accepted", bad)
		}
		if _, err := parseItem(bad, false); err == nil {
			t.Errorf("DynamoDB JSON %q accepted", bad)
		}
	}
}

// FuzzParseItem: the item form's text is anyone's; it parses to an item
// whose every value has exactly one type, or to an error, never a panic.
func FuzzParseItem(f *testing.F) {
	for _, s := range []string{`{"PK": {"S": "a"}}`, `{"a": [1, {"b": null}]}`, `{"a": 1} x`, `{"a": {"S": "x", "N": "1"}}`} {
		f.Add(s, true)
		f.Add(s, false)
	}
	f.Fuzz(func(t *testing.T, text string, plain bool) {
		it, err := parseItem(text, plain)
		if err != nil {
			return
		}
		if plain {
			for _, av := range it {
				if len(av) != 1 {
					t.Fatalf("plain value %v has %d types", av, len(av))
				}
			}
		}
		if _, err := json.Marshal(it); err != nil {
			t.Fatalf("parsed item does not marshal: %v", err)
		}
	})
}

// FuzzTableForm: the create-table form is anyone's; it gives a request
// with the form's key schema, or an error, never a panic.
func FuzzTableForm(f *testing.F) {
	f.Add("T", "PROVISIONED", "5", `[{"IndexName": "G"}]`, `[{"AttributeName": "g", "AttributeType": "S"}]`)
	f.Add("T", "PAY_PER_REQUEST", "x", `[{`, `{}`)
	f.Fuzz(func(t *testing.T, name, billing, rcu, gsis, defs string) {
		in, err := tableForm{Name: name, PK: "id", PKType: "S", Billing: billing, RCU: rcu, WCU: rcu, GSIs: gsis, Defs: defs}.input()
		if err == nil && (len(in.KeySchema) != 1 || in.KeySchema[0].AttributeName != "id") {
			t.Fatalf("key schema %v, want id HASH", in.KeySchema)
		}
		if err == nil && billing == "PROVISIONED" && in.ProvisionedThroughput == nil {
			t.Fatal("provisioned table without throughput")
		}
	})
}
