package engine

import (
	"fmt"
	"testing"
	"time"

	"github.com/sortkeydb/sortkey/internal/protocol"
)

// TestSweepResumesWithinBudget sweeps a table in steps of a few items: each
// step reads no more than its budget, and the steps together delete every
// expired item exactly once.
func TestSweepResumesWithinBudget(t *testing.T) {
	e, err := Open(Options{InMemory: true, TTLInterval: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	must[protocol.CreateTableOutput](t)(call(t, e.CreateTable, createTbl))
	must[protocol.UpdateTimeToLiveOutput](t)(call(t, e.UpdateTimeToLive, `{"TableName":"tbl","TimeToLiveSpecification":{"Enabled":true,"AttributeName":"exp"}}`))
	for i := range 50 {
		ttl := time.Now().Unix() - 10
		if i%5 == 0 {
			ttl += 3600
		}
		must[protocol.PutItemOutput](t)(call(t, e.PutItem, fmt.Sprintf(`{"TableName":"tbl","Item":{"pk":{"S":"k%d"},"exp":{"N":"%d"}}}`, i, ttl)))
	}
	tbl := e.lookup("tbl")
	var cursor []byte
	deleted, steps := 0, 0
	for steps == 0 || cursor != nil {
		n, next, err := e.sweepTable(tbl, cursor, 7)
		if err != nil {
			t.Fatal(err)
		}
		deleted, cursor, steps = deleted+n, next, steps+1
	}
	if deleted != 40 || steps < 50/7 {
		t.Fatalf("deleted %d in %d steps, want 40 in at least %d", deleted, steps, 50/7)
	}
}
