package engine

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/sortkeydb/sortkey/internal/apierr"
	"github.com/sortkeydb/sortkey/internal/protocol"
	"github.com/sortkeydb/sortkey/internal/storage"
)

// twoNodes opens two engines on one PostgreSQL schema of their own, as
// two sortkey processes would; the schema is dropped at the end.
func twoNodes(t *testing.T) (a, b *Engine) {
	t.Helper()
	if !storage.UnderTestStore() {
		t.Skip("nodes sharing a store are PostgreSQL's: set " + storage.TestStoreEnv + " (.ci/run does)")
	}
	url := os.Getenv(storage.TestStoreEnv)
	schema := fmt.Sprintf("engine_nodes_%x", rand.Uint64())
	store := url + "?schema=" + schema
	for _, e := range []**Engine{&a, &b} {
		var err error
		if *e, err = Open(Options{Store: store}); err != nil {
			t.Fatal(err)
		}
	}
	t.Cleanup(func() {
		a.Close()
		b.Close()
		dropSchema(t, url, schema)
	})
	return a, b
}

func dropSchema(t *testing.T, url, schema string) {
	conn, err := pgx.Connect(context.Background(), url)
	if err != nil {
		t.Error(err)
		return
	}
	defer conn.Close(context.Background())
	if _, err := conn.Exec(context.Background(), "DROP SCHEMA "+pgx.Identifier{schema}.Sanitize()+" CASCADE"); err != nil {
		t.Error(err)
	}
}

const sharedTable = `{"TableName":"shared","BillingMode":"PAY_PER_REQUEST",
	"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],
	"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],
	"StreamSpecification":{"StreamEnabled":true,"StreamViewType":"NEW_AND_OLD_IMAGES"}}`

// Increments from two nodes at once lose none, and each is in the
// table's stream once, numbered in one sequence.
func TestTwoNodesIncrementOneItem(t *testing.T) {
	a, b := twoNodes(t)
	must[protocol.CreateTableOutput](t)(call(t, a.CreateTable, sharedTable))
	var wg sync.WaitGroup
	for _, e := range []*Engine{a, b, a, b} {
		wg.Go(func() {
			for range 40 {
				if _, err := call(t, e.UpdateItem, `{"TableName":"shared","Key":{"pk":{"S":"n"}},
					"UpdateExpression":"ADD n :one","ExpressionAttributeValues":{":one":{"N":"1"}}}`); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	for _, e := range []*Engine{a, b} {
		out := must[protocol.GetItemOutput](t)(call(t, e.GetItem, `{"TableName":"shared","Key":{"pk":{"S":"n"}},"ConsistentRead":true}`))
		if got := string(out.ItemJSON); !strings.Contains(got, `"n":{"N":"160"}`) {
			t.Fatalf("160 increments from two nodes left %s", got)
		}
	}
	seqs := recordSeqs(t, a, "shared")
	if len(seqs) != 160 || seqs[0] != 1 || seqs[len(seqs)-1] != 160 {
		t.Fatalf("160 writes left %d stream records, numbered %d to %d", len(seqs), seqs[0], seqs[len(seqs)-1])
	}
}

// recordSeqs is the numbers of a table's stream records, in order.
func recordSeqs(t *testing.T, e *Engine, table string) []uint64 {
	lo, hi := storage.RecordRange(e.lookup(table).meta.ID)
	var seqs []uint64
	if err := e.db.Scan(lo, hi, func(k, _ []byte) bool {
		seqs = append(seqs, storage.RecordSeq(k))
		return true
	}); err != nil {
		t.Fatal(err)
	}
	return seqs
}

// A definition changed on one node is the one the other writes by, even
// before its next reload: an index added on b is maintained by a's first
// write after it, and a table deleted on a is gone for b's next write.
func TestTwoNodesWriteByTheCurrentDefinition(t *testing.T) {
	a, b := twoNodes(t)
	must[protocol.CreateTableOutput](t)(call(t, a.CreateTable, sharedTable))
	must[protocol.PutItemOutput](t)(call(t, b.PutItem, `{"TableName":"shared","Item":{"pk":{"S":"1"},"g":{"S":"x"}}}`))
	must[protocol.UpdateTableOutput](t)(call(t, b.UpdateTable, `{"TableName":"shared",
		"AttributeDefinitions":[{"AttributeName":"g","AttributeType":"S"}],
		"GlobalSecondaryIndexUpdates":[{"Create":{"IndexName":"byG","KeySchema":[{"AttributeName":"g","KeyType":"HASH"}],
			"Projection":{"ProjectionType":"ALL"}}}]}`))
	must[protocol.PutItemOutput](t)(call(t, a.PutItem, `{"TableName":"shared","Item":{"pk":{"S":"2"},"g":{"S":"x"}}}`))
	waitIndexesActive(t, b, "shared")
	out := must[protocol.ReadOutput](t)(call(t, b.Query, `{"TableName":"shared","IndexName":"byG",
		"KeyConditionExpression":"g = :g","ExpressionAttributeValues":{":g":{"S":"x"}}}`))
	if out.Count != 2 {
		t.Fatalf("the index added on b holds %d items, want both (one backfilled, one written by a)", out.Count)
	}
	must[protocol.DeleteTableOutput](t)(call(t, a.DeleteTable, `{"TableName":"shared"}`))
	_, err := call(t, b.PutItem, `{"TableName":"shared","Item":{"pk":{"S":"3"}}}`)
	wantCode(t, err, apierr.ResourceNotFound, "Requested resource not found")
}

// waitIndexesActive waits until every index of the table is ACTIVE, as e
// describes it.
func waitIndexesActive(t *testing.T, e *Engine, table string) {
	t.Helper()
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		d := must[protocol.DescribeTableOutput](t)(call(t, e.DescribeTable, `{"TableName":"`+table+`"}`))
		active := true
		for _, g := range d.Table.GlobalSecondaryIndexes {
			active = active && g.IndexStatus == "ACTIVE"
		}
		if active {
			return
		}
	}
	t.Fatal("the index never became ACTIVE")
}

// A transaction retried with its client token on another node answers
// the first one's result without applying it again, and the token with a
// different request is refused there too.
func TestTwoNodesShareClientTokens(t *testing.T) {
	a, b := twoNodes(t)
	must[protocol.CreateTableOutput](t)(call(t, a.CreateTable, sharedTable))
	txn := `{"ClientRequestToken":"once","TransactItems":[{"Update":{"TableName":"shared","Key":{"pk":{"S":"n"}},
		"UpdateExpression":"ADD n :one","ExpressionAttributeValues":{":one":{"N":"1"}}}}]}`
	must[protocol.TransactWriteItemsOutput](t)(call(t, a.TransactWriteItems, txn))
	must[protocol.TransactWriteItemsOutput](t)(call(t, b.TransactWriteItems, txn))
	out := must[protocol.GetItemOutput](t)(call(t, b.GetItem, `{"TableName":"shared","Key":{"pk":{"S":"n"}},"ConsistentRead":true}`))
	if got := string(out.ItemJSON); !strings.Contains(got, `"n":{"N":"1"}`) {
		t.Fatalf("a transaction retried on another node with its token left %s, want it applied once", got)
	}
	_, err := call(t, b.TransactWriteItems, strings.Replace(txn, `"N":"1"`, `"N":"2"`, 1))
	wantCode(t, err, apierr.IdempotentParameterMismatch, "The ClientRequestToken was already used by a different request within the last 10 minutes")
}

// Requests that describe tables see another node's changes at once: a
// table created, its TTL turned on, and the table deleted on a, each
// described on b right after (b's periodic reload is a second away).
func TestTwoNodesDescribeTheCurrentCatalog(t *testing.T) {
	a, b := twoNodes(t)
	if out := must[protocol.ListTablesOutput](t)(call(t, b.ListTables, `{}`)); len(out.TableNames) != 0 {
		t.Fatalf("tables before any was created: %v", out.TableNames)
	}
	must[protocol.CreateTableOutput](t)(call(t, a.CreateTable, sharedTable))
	if out := must[protocol.ListTablesOutput](t)(call(t, b.ListTables, `{}`)); len(out.TableNames) != 1 {
		t.Fatalf("b lists %v after a created shared", out.TableNames)
	}
	must[protocol.UpdateTimeToLiveOutput](t)(call(t, a.UpdateTimeToLive, `{"TableName":"shared",
		"TimeToLiveSpecification":{"AttributeName":"exp","Enabled":true}}`))
	ttl := must[protocol.DescribeTimeToLiveOutput](t)(call(t, b.DescribeTimeToLive, `{"TableName":"shared"}`))
	if ttl.TimeToLiveDescription == nil || ttl.TimeToLiveDescription.TimeToLiveStatus != "ENABLED" {
		t.Fatalf("b describes the TTL a enabled as %+v", ttl.TimeToLiveDescription)
	}
	must[protocol.DeleteTableOutput](t)(call(t, a.DeleteTable, `{"TableName":"shared"}`))
	_, err := call(t, b.DescribeTable, `{"TableName":"shared"}`)
	wantCode(t, err, apierr.ResourceNotFound, "Requested resource not found: Table: shared not found")
}
