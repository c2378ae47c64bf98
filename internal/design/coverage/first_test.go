package coverage

import (
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/sortkeydb/sortkey/internal/protocol"
)

// A pattern's first successful call is kept whole, so that it can be made
// again: its variables, its filter's values (not the others), its options
// and its request. A failed call before it, and calls after it, change
// nothing.
func TestTheFirstCallOfAPatternIsKept(t *testing.T) {
	r := New(market(t))
	const body = `{"TableName":"Market","KeyConditionExpression":"pk = :pk","FilterExpression":"tp = :tp",
		"ExpressionAttributeValues":{":pk":{"S":"U#42#O"},":tp":{"S":"O"}},"ScanIndexForward":false,"Limit":10,"ConsistentRead":true}`
	in := &protocol.QueryInput{}
	if err := protocol.Decode([]byte(body), in); err != nil {
		t.Fatal(err)
	}
	r.Observe("Query", in, nil, errors.New("throttled"), time.Millisecond)
	if first := pattern(t, r.Report(), "2").First; first != nil {
		t.Fatalf("a failed call was kept: %+v", first)
	}
	observe(t, r, "Query", body, &protocol.ReadOutput{Count: 3, ScannedCount: 5, ConsumedCapacity: &protocol.ConsumedCapacity{CapacityUnits: f(1)}})
	observe(t, r, "Query", `{"TableName":"Market","KeyConditionExpression":"pk = :pk","FilterExpression":"tp = :tp",
		"ExpressionAttributeValues":{":pk":{"S":"U#7#O"},":tp":{"S":"O"}}}`, &protocol.ReadOutput{Count: 1, ScannedCount: 1})
	first := pattern(t, r.Report(), "2").First
	got, _ := json.Marshal(first)
	want := `{"bindings":{"userId":"42"},"values":{":tp":{"S":"O"}},"limit":10,"backward":true,"consistent":true,"operation":"Query",` +
		`"request":` + mustCompact(t, body) + `,"items":3,"scanned":5,"rcu":1}`
	if string(got) != want {
		t.Errorf("first call\n got %s\nwant %s", got, want)
	}
}

func mustCompact(t *testing.T, body string) string {
	t.Helper()
	in := &protocol.QueryInput{}
	if err := protocol.Decode([]byte(body), in); err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
