package main

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

func TestTableIsAsDesigned(t *testing.T) {
	f := newFixture(t)
	if err := CreateTables(ctx, f.back); err != nil {
		t.Fatalf("creating the tables a second time: %v", err)
	}
	d, err := f.back.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(MarketTable)})
	if err != nil {
		t.Fatal(err)
	}
	wantEqual(t, "table keys", keys(d.Table.KeySchema), "pk HASH, sk RANGE")
	indexes := map[string]string{}
	for _, g := range d.Table.GlobalSecondaryIndexes {
		indexes[*g.IndexName] = keys(g.KeySchema) + " " + string(g.Projection.ProjectionType)
	}
	wantEqual(t, "indexes", indexes, map[string]string{
		ReverseIndex:  "sk HASH, pk RANGE KEYS_ONLY",
		IdLookupIndex: "id HASH, tp RANGE KEYS_ONLY",
	})
	ttl, err := f.back.DescribeTimeToLive(ctx, &dynamodb.DescribeTimeToLiveInput{TableName: aws.String(MarketTable)})
	if err != nil {
		t.Fatal(err)
	}
	wantEqual(t, "ttl", string(ttl.TimeToLiveDescription.TimeToLiveStatus)+" "+aws.ToString(ttl.TimeToLiveDescription.AttributeName), "ENABLED ttl")
}

func keys(ks []types.KeySchemaElement) string {
	s := ""
	for i, k := range ks {
		if i > 0 {
			s += ", "
		}
		s += *k.AttributeName + " " + string(k.KeyType)
	}
	return s
}

// TestIndexesHoldWhatTheDesignSays: the reverse index is dense, one entry
// per item; the id index is sparse, holding only the items with both id
// and tp: the two users and the four orders, not order items, rewards or
// carts.
func TestIndexesHoldWhatTheDesignSays(t *testing.T) {
	f := newFixture(t)
	d, err := f.back.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(MarketTable)})
	if err != nil {
		t.Fatal(err)
	}
	// 2 profiles, 4 orders with 8 items, 6 rewards, 1 open cart.
	counts := map[string]int64{"table": aws.ToInt64(d.Table.ItemCount)}
	for _, g := range d.Table.GlobalSecondaryIndexes {
		counts[*g.IndexName] = aws.ToInt64(g.ItemCount)
	}
	wantEqual(t, "item counts", counts, map[string]int64{"table": 21, ReverseIndex: 21, IdLookupIndex: 6})
}
