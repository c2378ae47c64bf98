package agent_test

import (
	"encoding/json"
	"testing"

	"github.com/sortkeydb/sortkey/internal/agent"
)

// TestPlainSearchVectors: an agent writes vectors and searches them in
// plain JSON through search_vectors, and reads plain items back with
// their scores, nearest first.
func TestPlainSearchVectors(t *testing.T) {
	cs := connect(t, agent.Options{})
	mustCall(t, cs, "create_table", `{"TableName":"Docs","BillingMode":"PAY_PER_REQUEST",
	 "AttributeDefinitions":[{"AttributeName":"id","AttributeType":"S"}],"KeySchema":[{"AttributeName":"id","KeyType":"HASH"}],
	 "VectorIndexes":[{"IndexName":"byEmb","VectorAttribute":{"AttributeName":"emb"},"Dimensions":2,
	  "DistanceFunction":"EUCLIDEAN","Projection":{"ProjectionType":"ALL"}}]}`)
	for _, it := range []string{`{"id":"far","emb":[5,5]}`, `{"id":"near","emb":[1,0.5]}`, `{"id":"mid","emb":[2,2]}`} {
		mustExact(t, cs, "put_item", `{"plainJSON":true,"TableName":"Docs","Item":`+it+`}`)
	}
	out := mustExact(t, cs, "search_vectors", `{"plainJSON":true,"TableName":"Docs","IndexName":"byEmb","SearchVector":[1,0],"TopK":2}`)
	results := response(out)["SearchResults"].([]any)
	if len(results) != 2 {
		t.Fatalf("results %v, want 2", results)
	}
	first := results[0].(map[string]any)
	if item := first["Item"].(map[string]any); item["id"] != "near" || first["Score"] != json.Number("0.5") {
		t.Fatalf("first result %v, want near at distance 0.5", first)
	}
	if results[1].(map[string]any)["Item"].(map[string]any)["id"] != "mid" {
		t.Fatalf("second result %v, want mid", results[1])
	}
}
