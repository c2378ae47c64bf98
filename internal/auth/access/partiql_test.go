package access

import (
	"strconv"
	"testing"
)

// stmt is an ExecuteStatement body.
func stmt(s string) string { return `{"Statement":` + strconv.Quote(s) + `}` }

func selectKeys(leading []string, attrs []string, sel, scan string) kv {
	k := kv{KeyLeadingKeys: leading, KeyAttributes: attrs, KeySelect: {sel}, KeyFullTableScan: {scan},
		KeyConsumedCapacity: {"NONE"}}
	if leading == nil {
		delete(k, KeyLeadingKeys)
	}
	return k
}

func TestPartiQL(t *testing.T) {
	runCases(t, []tcase{
		{"select by key", "ExecuteStatement", stmt(`SELECT * FROM "Orders" WHERE pk = 'o1'`),
			one(orders("PartiQLSelect", selectKeys([]string{"o1"}, []string{"pk"}, "ALL_ATTRIBUTES", "false")))},
		{"select IN", "ExecuteStatement", stmt(`SELECT a FROM "Orders" WHERE pk IN ['o2', 'o1'] AND b = 1`),
			one(orders("PartiQLSelect", selectKeys([]string{"o1", "o2"}, []string{"a", "b", "pk"}, "SPECIFIC_ATTRIBUTES", "false")))},
		{"select OR of equalities", "ExecuteStatement", stmt(`SELECT * FROM "Orders" WHERE pk = 'o1' OR pk = 'o2'`),
			one(orders("PartiQLSelect", selectKeys([]string{"o1", "o2"}, []string{"pk"}, "ALL_ATTRIBUTES", "false")))},
		{"full scan", "ExecuteStatement", stmt(`SELECT * FROM "Orders" WHERE pk = 'o1' OR a = 1`),
			one(orders("PartiQLSelect", selectKeys(nil, []string{"a", "pk"}, "ALL_ATTRIBUTES", "true")))},
		{"no WHERE", "ExecuteStatement", stmt(`SELECT * FROM "Orders"`),
			one(orders("PartiQLSelect", selectKeys(nil, nil, "ALL_ATTRIBUTES", "true")))},
		{"index with parameter", "ExecuteStatement", `{"Statement":"SELECT * FROM \"Orders\".\"GSI1\" WHERE gpk = ?",
			"Parameters":[{"S":"g1"}],"ReturnConsumedCapacity":"TOTAL"}`,
			one(onIndex("PartiQLSelect", "GSI1", kv{KeyLeadingKeys: {"g1"}, KeyAttributes: {"gpk"}, KeySelect: {"ALL_ATTRIBUTES"},
				KeyFullTableScan: {"false"}, KeyConsumedCapacity: {"TOTAL"}}))},
		{"insert", "ExecuteStatement", stmt(`INSERT INTO "Orders" VALUE {'pk': 'o1', 'sk': 1, 'a': 'x'}`),
			one(orders("PartiQLInsert", kv{KeyLeadingKeys: {"o1"}, KeyAttributes: {"a", "pk", "sk"}, KeyReturnValues: {"NONE"},
				KeyConsumedCapacity: {"NONE"}}))},
		{"update", "ExecuteStatement", stmt(`UPDATE "Orders" SET a = b + 1 REMOVE c WHERE pk = 'o1' AND sk = 1 RETURNING ALL NEW *`),
			one(orders("PartiQLUpdate", kv{KeyLeadingKeys: {"o1"}, KeyAttributes: {"a", "b", "c", "pk", "sk"},
				KeyReturnValues: {"ALL_NEW"}, KeyConsumedCapacity: {"NONE"}}))},
		{"delete", "ExecuteStatement", stmt(`DELETE FROM "Hash" WHERE id = 5`),
			one(hash("PartiQLDelete", kv{KeyLeadingKeys: {"5"}, KeyAttributes: {"id"}, KeyReturnValues: {"NONE"},
				KeyConsumedCapacity: {"NONE"}}))},
		{"batch skips a bad statement", "BatchExecuteStatement", `{"Statements":[
			{"Statement":"SELECT * FROM \"Hash\" WHERE id = 'h1'"},{"Statement":"SELEKT"}]}`,
			one(hash("PartiQLSelect", selectKeys([]string{"h1"}, []string{"id"}, "ALL_ATTRIBUTES", "false")))},
		{"transaction", "ExecuteTransaction", `{"TransactStatements":[
			{"Statement":"UPDATE \"Orders\" SET a = 1 WHERE pk = 'o1' AND sk = 1"},
			{"Statement":"EXISTS(SELECT * FROM \"Hash\" WHERE id = 'h1')"}]}`,
			[]Check{orders("PartiQLUpdate", kv{KeyLeadingKeys: {"o1"}, KeyAttributes: {"a", "pk", "sk"}, KeyReturnValues: {"NONE"},
				KeyConsumedCapacity: {"NONE"}, KeyEnclosingOperation: {"ExecuteTransaction"}}),
				hash("PartiQLSelect", kv{KeyLeadingKeys: {"h1"}, KeyAttributes: {"id"}, KeySelect: {"ALL_ATTRIBUTES"},
					KeyFullTableScan: {"false"}, KeyConsumedCapacity: {"NONE"}, KeyEnclosingOperation: {"ExecuteTransaction"}})}},
	})
}

func TestPartiQLParseError(t *testing.T) {
	for _, op := range []string{"ExecuteStatement", "ExecuteTransaction"} {
		body := stmt("SELEKT 1")
		if op == "ExecuteTransaction" {
			body = `{"TransactStatements":[{"Statement":"SELEKT 1"}]}`
		}
		got, err := Describe(op, decode(t, op, body), testCatalog{})
		if err == nil || got != nil {
			t.Errorf("%s of a bad statement: got %v, %v; want the parse error", op, got, err)
		}
	}
}
