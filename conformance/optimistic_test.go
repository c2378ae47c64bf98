package conformance_test

import (
	"errors"
	"strconv"
	"sync"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/sortkeydb/sortkey/sortkeytest"
)

// TestOptimisticLockIncrements is the classic version-number lock: 16
// clients each make 200 increments, reading the version and writing only if
// it is unchanged, retrying on ConditionalCheckFailed. No increment may be
// lost or applied twice.
func TestOptimisticLockIncrements(t *testing.T) {
	const workers, each = 16, 200
	c := sortkeytest.New(t).Client()
	createSimple(t, c, "counters")
	if err := put(c, "counters", map[string]types.AttributeValue{"pk": s("c"), "version": n("0"), "count": n("0")}); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < each; i++ {
				if err := incrementOnce(c); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	got, err := c.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("counters"), Key: map[string]types.AttributeValue{"pk": s("c")}})
	if err != nil {
		t.Fatal(err)
	}
	want := strconv.Itoa(workers * each)
	if cnt := got.Item["count"].(*types.AttributeValueMemberN).Value; cnt != want {
		t.Fatalf("count %s, want %s", cnt, want)
	}
}

func incrementOnce(c *dynamodb.Client) error {
	key := map[string]types.AttributeValue{"pk": s("c")}
	for {
		got, err := c.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("counters"), Key: key, ConsistentRead: aws.Bool(true)})
		if err != nil {
			return err
		}
		v := got.Item["version"].(*types.AttributeValueMemberN).Value
		_, err = c.UpdateItem(ctx, &dynamodb.UpdateItemInput{
			TableName:                 aws.String("counters"),
			Key:                       key,
			UpdateExpression:          aws.String("SET #c = #c + :one, version = version + :one"),
			ConditionExpression:       aws.String("version = :v"),
			ExpressionAttributeNames:  map[string]string{"#c": "count"},
			ExpressionAttributeValues: map[string]types.AttributeValue{":one": n("1"), ":v": n(v)},
		})
		var ccf *types.ConditionalCheckFailedException
		if !errors.As(err, &ccf) {
			return err
		}
	}
}
