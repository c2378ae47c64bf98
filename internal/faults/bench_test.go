package faults

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/sortkeydb/sortkey/internal/attr"
	"github.com/sortkeydb/sortkey/internal/engine"
	"github.com/sortkeydb/sortkey/internal/protocol"
	"github.com/sortkeydb/sortkey/internal/server"
)

// unmatched are rules that name other tables, operations and keys than
// the benchmark's calls: the cost of rules that do not fire.
const unmatched = `{"seed": 1, "rules": [
  {"operation": "PutItem", "table": "Orders", "error": "ThrottlingException"},
  {"operation": "GetItem", "keyPrefix": "order#", "error": "InternalServerError"},
  {"operation": "BatchWriteItem", "unprocessed": 0.5, "probability": 0.2}]}`

// benchServer is a handler over an in-memory engine with table Bench,
// with an injector holding rules, or none when rules is "-".
func benchServer(b *testing.B, rules string) *server.Handler {
	e, err := engine.Open(engine.Options{InMemory: true})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { e.Close() })
	h := server.New(e, nil)
	if rules != "-" {
		i := New(Config{Ops: h.Operations(), Keys: e})
		if err := i.Set([]byte(rules)); err != nil {
			b.Fatal(err)
		}
		h.SetInjector(i)
	}
	call(b, h, "CreateTable", `{"TableName":"Bench","KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],
	  "AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],"BillingMode":"PAY_PER_REQUEST"}`)
	return h
}

func call(b *testing.B, h http.Handler, op, body string) {
	req := httptest.NewRequest(http.MethodPost, "/", bytes.NewReader([]byte(body)))
	req.Header.Set("Content-Type", "application/x-amz-json-1.0")
	req.Header.Set("X-Amz-Target", "DynamoDB_20120810."+op)
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != http.StatusOK {
		b.Fatalf("%s: %d %s", op, rec.Code, rec.Body)
	}
}

func benchPutGet(b *testing.B, rules string) {
	h := benchServer(b, rules)
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		key := fmt.Sprintf(`{"pk":{"S":"user#%d"}}`, i%1000)
		call(b, h, "PutItem", `{"TableName":"Bench","Item":`+key[:len(key)-1]+`,"name":{"S":"Ada"}}}`)
		call(b, h, "GetItem", `{"TableName":"Bench","Key":`+key+`}`)
	}
}

// BenchmarkPutGetNoInjector is the server without fault machinery.
func BenchmarkPutGetNoInjector(b *testing.B) { benchPutGet(b, "-") }

// BenchmarkPutGetNoRules is an injector with no rule set, as every
// sortkey.DB has one.
func BenchmarkPutGetNoRules(b *testing.B) { benchPutGet(b, "") }

// BenchmarkPutGetUnmatchedRules is an injector whose rules never fire.
func BenchmarkPutGetUnmatchedRules(b *testing.B) { benchPutGet(b, unmatched) }

// benchKeys is a catalog of one table keyed pk, for the rules' keyPrefix.
type benchKeys struct{}

func (benchKeys) KeySchema(string, string) ([]protocol.KeySchemaElement, error) {
	name, hash := "pk", "HASH"
	return []protocol.KeySchemaElement{{AttributeName: &name, KeyType: &hash}}, nil
}

// BenchmarkInjectUnmatched is the hook alone: one PutItem and one
// GetItem asked of rules that do not match them.
func BenchmarkInjectUnmatched(b *testing.B) {
	i := New(Config{Keys: benchKeys{}})
	if err := i.Set([]byte(unmatched)); err != nil {
		b.Fatal(err)
	}
	table := "Bench"
	key := attr.Item{"pk": attr.Str("user#1")}
	put := &protocol.PutItemInput{TableName: &table, Item: key}
	get := &protocol.GetItemInput{TableName: &table, Key: key}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if i.Inject(ctx, "PutItem", put, "") != nil || i.Inject(ctx, "GetItem", get, "") != nil {
			b.Fatal("an unmatched rule fired")
		}
	}
}
