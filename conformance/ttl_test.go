package conformance_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/sortkeydb/sortkey"
	"github.com/sortkeydb/sortkey/sortkeytest"
)

func setTTL(c *dynamodb.Client, enabled bool) error {
	_, err := c.UpdateTimeToLive(ctx, &dynamodb.UpdateTimeToLiveInput{TableName: aws.String("app"),
		TimeToLiveSpecification: &types.TimeToLiveSpecification{Enabled: aws.Bool(enabled), AttributeName: aws.String("ttl")}})
	return err
}

// TestBackgroundSweeper relies on the sweeper alone, with a short interval
// and the real clock; the deadline only bounds a sweeper that never runs.
func TestBackgroundSweeper(t *testing.T) {
	c := sortkeytest.NewWithOptions(t, &sortkey.Options{InMemory: true, TTLInterval: 10 * time.Millisecond}).Client()
	createSingleTable(t, c)
	if err := setTTL(c, true); err != nil {
		t.Fatal(err)
	}
	past := n(fmt.Sprint(time.Now().Unix() - 1))
	for i := range 30 {
		if err := put(c, "app", item("P", fmt.Sprintf("S%02d", i), map[string]types.AttributeValue{"ttl": past})); err != nil {
			t.Fatal(err)
		}
	}
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if len(query(t, c, "", "PK = :p", map[string]types.AttributeValue{":p": s("P")})) == 0 {
			return
		}
	}
	t.Fatal("the background sweeper never deleted the expired items")
}
