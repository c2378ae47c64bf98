package faults

import (
	"context"
	"testing"

	"github.com/sortkeydb/sortkey/internal/protocol"
)

// fuzzRules reach every part of matching and every effect that reads the
// request: key prefixes (Query's key condition too), tables, batches held
// back, transactions cancelled.
const fuzzRules = `{"seed": 1, "rules": [
  {"keyPrefix": "a", "latency": "1ms", "probability": 0.5},
  {"operation": "BatchWriteItem", "unprocessed": 0.5},
  {"operation": "BatchGetItem", "table": "T", "unprocessed": 0.5},
  {"table": "T", "error": "TransactionCanceledException", "conflict": [1]}]}`

// fuzzOps are the operations whose inputs rules read, with their input
// and output shapes.
var fuzzOps = []struct {
	name string
	in   func() any
	out  func() any
}{
	{"Query", func() any { return new(protocol.QueryInput) }, nil},
	{"PutItem", func() any { return new(protocol.PutItemInput) }, nil},
	{"BatchWriteItem", func() any { return new(protocol.BatchWriteItemInput) }, func() any { return new(protocol.BatchWriteItemOutput) }},
	{"BatchGetItem", func() any { return new(protocol.BatchGetItemInput) }, func() any { return new(protocol.BatchGetItemOutput) }},
	{"TransactWriteItems", func() any { return new(protocol.TransactWriteItemsInput) }, nil},
	{"TransactGetItems", func() any { return new(protocol.TransactGetItemsInput) }, nil},
}

func FuzzInject(f *testing.F) {
	f.Add(uint8(0), []byte(`{"TableName": "T", "KeyConditionExpression": "#p = :v AND sk > :s", "ExpressionAttributeNames": {"#p": "pk"}, "ExpressionAttributeValues": {":v": {"S": "abc"}}}`))
	f.Add(uint8(2), []byte(`{"RequestItems": {"T": [{"PutRequest": {"Item": {"pk": {"S": "a1"}}}}, {"DeleteRequest": {"Key": {"pk": {"N": "1"}}}}]}}`))
	f.Add(uint8(3), []byte(`{"RequestItems": {"T": {"Keys": [{"pk": {"S": "a"}}, {"pk": {"B": "AAE="}}], "ConsistentRead": true}}}`))
	f.Add(uint8(4), []byte(`{"TransactItems": [{"Put": {"TableName": "T", "Item": {"pk": {"S": "x"}}}}, {"Delete": {"TableName": "T", "Key": {"pk": {"S": "y"}}}}]}`))
	f.Fuzz(func(t *testing.T, op uint8, body []byte) {
		o := fuzzOps[int(op)%len(fuzzOps)]
		in := o.in()
		if protocol.Decode(body, in) != nil {
			return
		}
		i := New(Config{Keys: benchKeys{}})
		if err := i.Set([]byte(fuzzRules)); err != nil {
			t.Fatal(err)
		}
		fault := i.Inject(context.Background(), o.name, in, "")
		if fault != nil && fault.Restore != nil && o.out != nil {
			fault.Restore(o.out())
		}
	})
}
