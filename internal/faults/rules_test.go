package faults

import (
	"errors"
	"testing"
)

var testOps = []string{"PutItem", "GetItem", "BatchWriteItem", "BatchGetItem", "TransactWriteItems", "Query"}

func TestParseIssueShape(t *testing.T) {
	d, err := Parse([]byte(`{"seed": 7, "rules": [{"operation": "PutItem", "table": "Orders", "error": "InternalServerError", "every": 2},
	  {"operation": "BatchWriteItem", "unprocessed": 0.5, "probability": 0.2}]}`), testOps)
	if err != nil {
		t.Fatal(err)
	}
	if d.Seed != 7 || len(d.Rules) != 2 || *d.Rules[0].Every != 2 || *d.Rules[1].Unprocessed != 0.5 || *d.Rules[1].Probability != 0.2 {
		t.Errorf("parsed %+v", d)
	}
}

func TestParseYAML(t *testing.T) {
	d, err := Parse([]byte("seed: 3\nrules:\n  - operation: GetItem\n    latency: 250ms\n    window: {for: 1m}\n"), testOps)
	if err != nil {
		t.Fatal(err)
	}
	if d.Seed != 3 || d.Rules[0].Latency != "250ms" || d.Rules[0].Window.For != "1m" {
		t.Errorf("parsed %+v", d.Rules[0])
	}
}

func TestParseRefusesNamingRuleAndMember(t *testing.T) {
	cases := map[string]string{
		`[]`:             `fault rules: the file must be a JSON or YAML object with "seed" and "rules"`,
		`{"sed": 1}`:     `fault rules: unknown member "sed"`,
		`{"seed": -1}`:   `fault rules: seed: must be a whole number from 0 to 18446744073709551615`,
		`{"rules": {}}`:  `fault rules: rules: must be a list of rules`,
		`{"rules": [1]}`: `fault rules: rules[0]: must be an object`,
		`{"rules": [{"drop": true}, {"operaton": "GetItem", "drop": true}]}`:                                       `fault rules: rules[1]: unknown member "operaton"`,
		`{"rules": [{"operation": "Get", "drop": true}]}`:                                                          `fault rules: rules[0].operation: unknown operation "Get"`,
		`{"rules": [{"table": 5, "drop": true}]}`:                                                                  `fault rules: rules[0].table: must be a string`,
		`{"rules": [{"every": 1.5, "drop": true}]}`:                                                                `fault rules: rules[0].every: must be a whole number`,
		`{"rules": [{"every": 0, "drop": true}]}`:                                                                  `fault rules: rules[0].every: must be at least 1`,
		`{"rules": [{"count": 0, "drop": true}]}`:                                                                  `fault rules: rules[0].count: must be at least 1`,
		`{"rules": [{"after": -2, "drop": true}]}`:                                                                 `fault rules: rules[0].after: must not be negative`,
		`{"rules": [{"probability": 1.5, "drop": true}]}`:                                                          `fault rules: rules[0].probability: must be above 0 and at most 1`,
		`{"rules": [{"table": "T"}]}`:                                                                              `fault rules: rules[0]: needs an effect: error, unprocessed, latency, drop or hold`,
		`{"rules": [{"drop": true, "error": "ThrottlingException"}]}`:                                              `fault rules: rules[0]: error, unprocessed, drop and hold exclude each other: set one (latency may go with any)`,
		`{"rules": [{"hold": "1m", "error": "ThrottlingException"}]}`:                                              `fault rules: rules[0]: error, unprocessed, drop and hold exclude each other: set one (latency may go with any)`,
		`{"rules": [{"hold": "10m"}]}`:                                                                             `fault rules: rules[0].hold: must be a duration such as "250ms" or "2m", above 0 and at most 5m0s`,
		`{"rules": [{"hold": "1m", "operation": "PutItem"}]}`:                                                      `fault rules: rules[0].hold: hold applies only to TransactWriteItems, ExecuteTransaction, not "PutItem"`,
		`{"rules": [{"error": "Boom"}]}`:                                                                           `fault rules: rules[0].error: unknown error "Boom"; one of InternalServerError, ProvisionedThroughputExceededException, RequestLimitExceeded, ServiceUnavailable, ThrottlingException, TransactionCanceledException, TransactionInProgressException`,
		`{"rules": [{"latency": "soon"}]}`:                                                                         `fault rules: rules[0].latency: must be a duration such as "250ms" or "2m", above 0 and at most 5m0s`,
		`{"rules": [{"latency": "1h"}]}`:                                                                           `fault rules: rules[0].latency: must be a duration such as "250ms" or "2m", above 0 and at most 5m0s`,
		`{"rules": [{"unprocessed": 0, "operation": "BatchGetItem"}]}`:                                             `fault rules: rules[0].unprocessed: must be above 0 and at most 1 (the fraction of the batch's items held back)`,
		`{"rules": [{"unprocessed": 0.5, "operation": "PutItem"}]}`:                                                `fault rules: rules[0].unprocessed: unprocessed applies only to BatchWriteItem, BatchGetItem, not "PutItem"`,
		`{"rules": [{"error": "TransactionCanceledException", "operation": "GetItem"}]}`:                           `fault rules: rules[0].error: error applies only to TransactWriteItems, TransactGetItems, ExecuteTransaction, not "GetItem"`,
		`{"rules": [{"error": "ThrottlingException", "conflict": [0]}]}`:                                           `fault rules: rules[0].conflict: goes only with "error": "TransactionCanceledException"`,
		`{"rules": [{"error": "TransactionCanceledException", "conflict": [100]}]}`:                                `fault rules: rules[0].conflict: must list transaction members by index, 0 to 99`,
		`{"rules": [{"drop": true, "window": {"from": "yesterday"}}]}`:                                             `fault rules: rules[0].window.from: must be an RFC 3339 time such as "2026-01-01T00:00:00Z"`,
		`{"rules": [{"drop": true, "window": {"until": "2026-01-01T00:00:00Z", "for": "1m"}}]}`:                    `fault rules: rules[0].window: set until or for, not both`,
		`{"rules": [{"drop": true, "window": {"from": "2026-01-02T00:00:00Z", "until": "2026-01-01T00:00:00Z"}}]}`: `fault rules: rules[0].window.until: until must be after from`,
		`{"rules": [{"drop": true, "window": {"since": "x"}}]}`:                                                    `fault rules: rules[0].window: unknown member "since"`,
		`{"rules": [}`: `fault rules: not valid JSON: invalid character '}' looking for beginning of value`,
		"seed: [":      `fault rules: not valid YAML: yaml: line 1: did not find expected node content`,
	}
	for doc, want := range cases {
		_, err := Parse([]byte(doc), testOps)
		var pe *ParseError
		if err == nil || !errors.As(err, &pe) || err.Error() != want {
			t.Errorf("%s:\n got %v\nwant %s", doc, err, want)
		}
	}
}

func TestSetRefusedChangesNothing(t *testing.T) {
	i := New(Config{Ops: testOps})
	if err := i.Set([]byte(`{"seed": 1, "rules": [{"operation": "GetItem", "drop": true}]}`)); err != nil {
		t.Fatal(err)
	}
	if err := i.Set([]byte(`{"rules": [{"operation": "GetItem"}]}`)); err == nil {
		t.Fatal("a rule with no effect was taken")
	}
	if st := i.Status(); st.Seed != 1 || len(st.Rules) != 1 || !st.Rules[0].Drop || !i.Active() {
		t.Errorf("rules after a refused Set: %+v", st)
	}
	if i.Set(nil) != nil || i.Active() {
		t.Error("an empty doc did not clear the rules")
	}
}

func FuzzParse(f *testing.F) {
	for _, seed := range []string{
		`{"seed": 7, "rules": [{"operation": "PutItem", "table": "Orders", "error": "InternalServerError", "every": 2}]}`,
		`{"rules": [{"unprocessed": 0.5, "probability": 0.2, "window": {"for": "1m"}}]}`,
		"rules:\n  - latency: 1s\n    drop: true\n",
		`{"rules": [{"error": "TransactionCanceledException", "conflict": [0, 2]}]}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, doc []byte) {
		d, err := Parse(doc, testOps)
		if err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("error not a ParseError: %v", err)
			}
			return
		}
		i := New(Config{Ops: testOps})
		i.SetDoc(d)
		if len(i.Status().Rules) != len(d.Rules) {
			t.Fatal("rules lost on SetDoc")
		}
	})
}
