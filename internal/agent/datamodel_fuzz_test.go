package agent

import (
	"os"
	"strings"
	"testing"
)

// FuzzDataModel: no file panics the parser, and a file it accepts has a
// named table for every item and a command for every pattern that is not
// only a reason.
func FuzzDataModel(f *testing.F) {
	shop, err := os.ReadFile("testdata/dynamodb_data_model.json")
	if err != nil {
		f.Fatal(err)
	}
	for _, seed := range []string{string(shop), `{"tables": [], "items": {}, "access_patterns": []}`,
		`{"tables": [{"TableName": "T"}], "items": {"T": [{"PutRequest": {"Item": {"a": {"L": [{"M": {"b": {"NULL": true}}}]}}}}]}, "access_patterns": [{"pattern": 1, "reason": "r"}]}`,
		`{"tables": [], "items": {}, "access_patterns": [{"pattern": "1-2", "implementation": "aws dynamodb scan --table-name T"}]}`,
		`{"tables": [{"TableName": "T"}], "items": {"T": [{"DeleteRequest": {"Key": {"a": {"BOOL": "True"}}}}]}, "access_patterns": []}`,
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, text string) {
		m, err := parseDataModel(text)
		if err != nil {
			return
		}
		for table := range m.items {
			if !m.defines(table) {
				t.Fatalf("items of table %q, which the model does not define", table)
			}
		}
		for i, p := range m.patterns {
			if implemented := strings.TrimSpace(deref(p.Implementation)) != ""; implemented != (m.commands[i] != nil) {
				t.Fatalf("pattern %d: implementation %q, command %v", i, deref(p.Implementation), m.commands[i])
			}
		}
	})
}
