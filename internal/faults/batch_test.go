package faults

import (
	"math/rand/v2"
	"testing"

	"github.com/sortkeydb/sortkey/internal/attr"
	"github.com/sortkeydb/sortkey/internal/protocol"
)

func puts(keys ...string) []protocol.WriteRequest {
	var out []protocol.WriteRequest
	for _, k := range keys {
		out = append(out, protocol.WriteRequest{PutRequest: &protocol.PutRequest{Item: attr.Item{"pk": attr.Str(k)}}})
	}
	return out
}

func TestHoldWritesSplitsWholeRequestsAndAddsToTheEnginesOwn(t *testing.T) {
	in := &protocol.BatchWriteItemInput{RequestItems: map[string][]protocol.WriteRequest{"A": puts("a1", "a2", "a3", "a4"), "B": puts("b1", "b2")}}
	wantsA := func(r ref) bool { return r.table == "A" }
	f := holdWrites(in, rand.New(rand.NewPCG(1, 0)), 0.5, wantsA)
	if f.Err != nil || len(in.RequestItems["A"]) != 2 || len(in.RequestItems["B"]) != 2 {
		t.Fatalf("left %v, fault %+v", in.RequestItems, f)
	}
	out := &protocol.BatchWriteItemOutput{UnprocessedItems: map[string][]protocol.WriteRequest{"A": puts("engine")}}
	f.Restore(out)
	seen := map[string]bool{}
	for _, w := range append(in.RequestItems["A"], out.UnprocessedItems["A"]...) {
		seen[*w.PutRequest.Item["pk"].S] = true
	}
	if len(out.UnprocessedItems["A"]) != 3 || len(seen) != 5 || out.UnprocessedItems["B"] != nil {
		t.Errorf("unprocessed %v; every item once, the engine's kept: %v", out.UnprocessedItems, seen)
	}
}

func TestHoldLeavesInvalidBatchesToTheEngine(t *testing.T) {
	var many []string
	for range maxBatchWrites + 1 {
		many = append(many, "k")
	}
	for _, items := range []map[string][]protocol.WriteRequest{{"A": puts(many...)}, {}} {
		in := &protocol.BatchWriteItemInput{RequestItems: items}
		n := len(items["A"])
		f := holdWrites(in, rand.New(rand.NewPCG(1, 0)), 0.5, func(ref) bool { return true })
		if f.Err != nil || f.Restore != nil || len(in.RequestItems["A"]) != n {
			t.Errorf("a batch of %d items was changed: %+v", n, f)
		}
	}
}

func TestHoldKeysKeepsProjectionAndConsistency(t *testing.T) {
	proj, yes := "pk, n", true
	keys := []attr.Item{{"pk": attr.Str("1")}, {"pk": attr.Str("2")}, {"pk": attr.Str("3")}}
	in := &protocol.BatchGetItemInput{RequestItems: map[string]protocol.KeysAndAttributes{"A": {Keys: keys, ProjectionExpression: &proj, ConsistentRead: &yes}}}
	f := holdKeys(in, rand.New(rand.NewPCG(2, 0)), 1.0/3, func(ref) bool { return true })
	out := &protocol.BatchGetItemOutput{}
	f.Restore(out)
	held := out.UnprocessedKeys["A"]
	if len(held.Keys) != 1 || len(in.RequestItems["A"].Keys) != 2 || held.ProjectionExpression != &proj || held.ConsistentRead != &yes {
		t.Errorf("held %+v, left %+v", held, in.RequestItems["A"])
	}
}
