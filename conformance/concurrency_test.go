package conformance_test

import (
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/sortkeydb/sortkey/sortkeytest"
)

// TestConcurrentWritersKeepExactCounts has 16 clients put, overwrite and
// delete overlapping items at once; the table's count and size must match
// what is left, which holds only if every read-modify-write is atomic.
func TestConcurrentWritersKeepExactCounts(t *testing.T) {
	c := sortkeytest.New(t).Client()
	createSimple(t, c, "hot")
	var wg sync.WaitGroup
	for w := 0; w < 16; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 40; i++ {
				key := map[string]types.AttributeValue{"pk": s(fmt.Sprintf("k%d", i%20))}
				item := map[string]types.AttributeValue{"pk": key["pk"], "by": n(fmt.Sprint(w))}
				if _, err := c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("hot"), Item: item}); err != nil {
					t.Error(err)
				}
				if i%7 == w%7 {
					if _, err := c.DeleteItem(ctx, &dynamodb.DeleteItemInput{TableName: aws.String("hot"), Key: key}); err != nil {
						t.Error(err)
					}
				}
			}
		}()
	}
	wg.Wait()
	var items, bytes int64
	for i := 0; i < 20; i++ {
		got, err := c.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("hot"),
			Key: map[string]types.AttributeValue{"pk": s(fmt.Sprintf("k%d", i))}})
		if err != nil {
			t.Fatal(err)
		}
		if got.Item != nil {
			items++
			by := got.Item["by"].(*types.AttributeValueMemberN).Value
			bytes += int64(len("pk") + len(fmt.Sprintf("k%d", i)) + len("by") + smallNumberSize(by))
		}
	}
	d, err := c.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String("hot")})
	if err != nil || *d.Table.ItemCount != items || *d.Table.TableSizeBytes != bytes {
		t.Fatalf("describe says %d items / %d bytes, table holds %d / %d (%v)",
			*d.Table.ItemCount, *d.Table.TableSizeBytes, items, bytes, err)
	}
}

// smallNumberSize is the Developer Guide's size of a whole number: one byte
// per two significant digits, plus one. Trailing zeros are not significant,
// so 0 takes 1 byte and 10 takes 2.
func smallNumberSize(v string) int {
	sig := len(strings.Trim(v, "0"))
	return (sig+1)/2 + 1
}
