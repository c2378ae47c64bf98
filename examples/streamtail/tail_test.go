package main

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	dtypes "github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/aws-sdk-go-v2/service/dynamodbstreams/types"

	"github.com/sortkeydb/sortkey/sortkeytest"
)

// TestTailSeesLiveChanges starts the consumer, then writes: every write
// made after it started must reach it, in order.
func TestTailSeesLiveChanges(t *testing.T) {
	srv := sortkeytest.New(t)
	db := srv.Client()
	_, err := db.CreateTable(context.Background(), &dynamodb.CreateTableInput{TableName: aws.String("live"),
		BillingMode:          dtypes.BillingModePayPerRequest,
		AttributeDefinitions: []dtypes.AttributeDefinition{{AttributeName: aws.String("id"), AttributeType: "S"}},
		KeySchema:            []dtypes.KeySchemaElement{{AttributeName: aws.String("id"), KeyType: dtypes.KeyTypeHash}},
		StreamSpecification:  &dtypes.StreamSpecification{StreamEnabled: aws.Bool(true), StreamViewType: dtypes.StreamViewTypeNewImage}})
	if err != nil {
		t.Fatal(err)
	}
	arn, err := streamOf(context.Background(), db, "live")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute) // bounds a consumer that hangs
	defer cancel()
	got := make(chan string, 100)
	var wg sync.WaitGroup
	wg.Go(func() {
		if err := Tail(ctx, srv.StreamsClient(), arn, func(r types.Record) {
			got <- string(r.EventName) + " " + r.Dynamodb.Keys["id"].(*types.AttributeValueMemberS).Value
		}); err != nil {
			t.Error(err)
		}
	})
	n := 0
	put := func(id string) {
		n++ // every write differs, so every write makes a record
		if _, err := db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("live"), Item: map[string]dtypes.AttributeValue{
			"id": &dtypes.AttributeValueMemberS{Value: id}, "n": &dtypes.AttributeValueMemberN{Value: fmt.Sprint(n)}}}); err != nil {
			t.Fatal(err)
		}
	}
	waitLive(t, put, got)
	for i := range 5 {
		put(fmt.Sprint(i))
	}
	for i := 0; i < 5; {
		select {
		case ev := <-got:
			if ev == "MODIFY marker" {
				continue // a marker written before the consumer was seen to be live
			}
			if want := fmt.Sprintf("INSERT %d", i); ev != want {
				t.Fatalf("event %d: %q, want %q", i, ev, want)
			}
			i++
		case <-ctx.Done():
			t.Fatalf("the consumer saw %d of 5 writes", i)
		}
	}
	cancel()
	wg.Wait()
}

// waitLive writes a marker item until the consumer reports one: from then
// on it holds an iterator and sees every later write.
func waitLive(t *testing.T, put func(string), got <-chan string) {
	for {
		put("marker")
		select {
		case <-got:
			return
		case <-time.After(100 * time.Millisecond):
		}
	}
}
