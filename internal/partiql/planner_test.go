package partiql

import (
	"errors"
	"strings"
	"testing"

	"github.com/sortkeydb/sortkey/internal/attr"
	"github.com/sortkeydb/sortkey/internal/protocol"
)

var errNoTable = errors.New("no such table")

// schemaT keys table T on pk and sk, its index I on sk alone, and index
// M on two partition key attributes.
func schemaT(table, index string) ([]protocol.KeySchemaElement, error) {
	el := func(name, typ string) protocol.KeySchemaElement {
		return protocol.KeySchemaElement{AttributeName: &name, KeyType: &typ}
	}
	switch {
	case table != "T":
		return nil, errNoTable
	case index == "":
		return []protocol.KeySchemaElement{el("pk", "HASH"), el("sk", "RANGE")}, nil
	case index == "I":
		return []protocol.KeySchemaElement{el("sk", "HASH")}, nil
	case index == "M":
		return []protocol.KeySchemaElement{el("a", "HASH"), el("b", "HASH")}, nil
	}
	return nil, errNoTable
}

func str(s string) attr.Value { return attr.Value{S: &s} }

func TestPlannerNamesTheNativeRequest(t *testing.T) {
	p := NewPlanner(schemaT)
	for stmt, want := range map[string]string{
		`SELECT * FROM "T" WHERE pk = ? AND sk = 'b'`:      "GetItem",
		`SELECT * FROM "T" WHERE pk = ?`:                   "Query",
		`SELECT * FROM "T"."I" WHERE sk = ?`:               "Query",
		`SELECT * FROM "T" WHERE x = ?`:                    "Scan",
		`INSERT INTO "T" VALUE {'pk': ?, 'sk': 'b'}`:       "PutItem",
		`UPDATE "T" SET x = ? WHERE pk = 'a' AND sk = 'b'`: "UpdateItem",
		`DELETE FROM "T" WHERE pk = ? AND sk = 'b'`:        "DeleteItem",
	} {
		for range 2 { // the second time from the cache
			plan, err := p.Statement(stmt, []attr.Value{str("a")})
			if err != nil {
				t.Fatalf("%s: %v", stmt, err)
			}
			if op, in := plan.Native(); op != want || in == nil {
				t.Errorf("%s runs as %s %v, want %s", stmt, op, in, want)
			}
		}
	}
	if _, err := p.Statement(`SELECT * FROM "U" WHERE pk = 'a'`, nil); !errors.Is(err, errNoTable) {
		t.Errorf("unknown table: %v", err)
	}
	if _, err := p.Statement(`SELECT * FROM "T"."M" WHERE a = 'x'`, nil); err == nil || !strings.Contains(err.Error(), "multi-attribute") {
		t.Errorf("multi-attribute index: %v", err)
	}
}

func TestPlannerBatchRefusesWhatTheExecutorRefuses(t *testing.T) {
	p := NewPlanner(schemaT)
	stmt := func(s string) protocol.BatchStatementRequest { return protocol.BatchStatementRequest{Statement: &s} }
	plans, errs := p.Batch(&protocol.BatchExecuteStatementInput{Statements: []protocol.BatchStatementRequest{
		stmt(`SELECT * FROM "T" WHERE pk = 'a' AND sk = 'b'`), stmt(`SELECT * FROM "T" WHERE pk = 'a'`),
		stmt(`EXISTS(SELECT * FROM "T" WHERE pk = 'a' AND sk = 'b')`)}})
	if plans[0] == nil || plans[0].Get == nil || errs[0] != nil {
		t.Errorf("by key: %+v %v", plans[0], errs[0])
	}
	if plans[1] != nil || errs[1] == nil || !strings.Contains(errs[1].Error(), msgBatchKey) {
		t.Errorf("by partition key: %+v %v", plans[1], errs[1])
	}
	if plans[2] != nil || errs[2] == nil {
		t.Errorf("EXISTS: %+v %v", plans[2], errs[2])
	}
}

func TestPlannerTransactionIsOneNativeTransaction(t *testing.T) {
	p := NewPlanner(schemaT)
	stmt := func(s string) protocol.ParameterizedStatement { return protocol.ParameterizedStatement{Statement: &s} }
	op, in, err := p.Transaction(&protocol.ExecuteTransactionInput{TransactStatements: []protocol.ParameterizedStatement{
		stmt(`SELECT * FROM "T" WHERE pk = 'a' AND sk = 'b'`), stmt(`SELECT * FROM "T" WHERE pk = 'c' AND sk = 'd'`)}})
	get, ok := in.(*protocol.TransactGetItemsInput)
	if err != nil || op != "TransactGetItems" || !ok || len(get.TransactItems) != 2 || *get.TransactItems[1].Get.Key["pk"].S != "c" {
		t.Errorf("reads: %s %+v %v", op, in, err)
	}
	op, in, err = p.Transaction(&protocol.ExecuteTransactionInput{TransactStatements: []protocol.ParameterizedStatement{
		stmt(`INSERT INTO "T" VALUE {'pk': 'a', 'sk': 'b'}`), stmt(`EXISTS(SELECT * FROM "T" WHERE pk = 'c' AND sk = 'd')`)}})
	w, ok := in.(*protocol.TransactWriteItemsInput)
	if err != nil || op != "TransactWriteItems" || !ok || len(w.TransactItems) != 2 || w.TransactItems[0].Put == nil || w.TransactItems[1].ConditionCheck == nil {
		t.Errorf("writes: %s %+v %v", op, in, err)
	}
	if _, _, err := p.Transaction(&protocol.ExecuteTransactionInput{}); err == nil {
		t.Error("a transaction without statements: no error")
	}
	if _, _, err := p.Transaction(&protocol.ExecuteTransactionInput{TransactStatements: []protocol.ParameterizedStatement{
		stmt(`SELECT * FROM "T" WHERE pk = 'a' AND sk = 'b'`), stmt(`DELETE FROM "T" WHERE pk = 'a' AND sk = 'b'`)}}); err == nil {
		t.Error("reads and writes mixed: no error")
	}
}
