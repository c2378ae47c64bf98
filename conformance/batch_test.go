package conformance_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/sortkeydb/sortkey/sortkeytest"
)

type avMap = map[string]types.AttributeValue

func putReq(it avMap) types.WriteRequest {
	return types.WriteRequest{PutRequest: &types.PutRequest{Item: it}}
}

func delReq(key avMap) types.WriteRequest {
	return types.WriteRequest{DeleteRequest: &types.DeleteRequest{Key: key}}
}

func pk(v string) avMap { return avMap{"pk": s(v)} }

func batchWrite(c *dynamodb.Client, items map[string][]types.WriteRequest) (*dynamodb.BatchWriteItemOutput, error) {
	return c.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{RequestItems: items})
}

func batchGet(c *dynamodb.Client, items map[string]types.KeysAndAttributes) (*dynamodb.BatchGetItemOutput, error) {
	return c.BatchGetItem(ctx, &dynamodb.BatchGetItemInput{RequestItems: items})
}

// TestConcurrentBatchWritesOverlap has writers batch-write overlapping keys,
// each in its own order, deleting some as they go. Deadlock would hang the
// writers past their deadline; the table's count and size must match what
// is left, which holds only if every batch is applied atomically.
func TestConcurrentBatchWritesOverlap(t *testing.T) {
	c := sortkeytest.New(t).Client()
	createSimple(t, c, "hot")
	const writers, rounds, keys = 6, 12, 15
	deadline, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	var wg sync.WaitGroup
	for w := 0; w < writers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for r := 0; r < rounds; r++ {
				if _, err := c.BatchWriteItem(deadline, &dynamodb.BatchWriteItemInput{
					RequestItems: map[string][]types.WriteRequest{"hot": overlapping(w, r, keys)}}); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	var all []avMap
	for i := 0; i < keys; i += 5 {
		var ks []avMap
		for j := i; j < i+5; j++ {
			ks = append(ks, pk(fmt.Sprintf("k%02d", j)))
		}
		g, err := batchGet(c, map[string]types.KeysAndAttributes{"hot": {Keys: ks}})
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, g.Responses["hot"]...)
	}
	var bytes int64
	for _, it := range all {
		bytes += int64(len("pk") + 3 + len("by") + len(it["by"].(*types.AttributeValueMemberS).Value))
	}
	d, err := c.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String("hot")})
	if err != nil || *d.Table.ItemCount != int64(len(all)) || *d.Table.TableSizeBytes != bytes {
		t.Fatalf("describe says %d items / %d bytes, table holds %d / %d (%v)",
			*d.Table.ItemCount, *d.Table.TableSizeBytes, len(all), bytes, err)
	}
}

// overlapping is writer w's round r: ten of the keys, starting at a
// different key for each writer and stepping through them in an order
// coprime with their number, every fourth one a delete.
func overlapping(w, r, keys int) []types.WriteRequest {
	var ws []types.WriteRequest
	for j := 0; j < 10; j++ {
		k := fmt.Sprintf("k%02d", (w*4+r+j*7)%keys)
		if (j+w)%4 == 3 {
			ws = append(ws, delReq(pk(k)))
			continue
		}
		ws = append(ws, putReq(avMap{"pk": s(k), "by": s(fmt.Sprintf("w%dr%d", w, r))}))
	}
	return ws
}
