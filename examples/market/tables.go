package main

import (
	"context"
	"errors"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// The design's one table, its two indexes and its TTL attribute.
const (
	MarketTable   = "Market"
	ReverseIndex  = "ReverseIndex"
	IdLookupIndex = "IdLookupIndex"
	ttlAttribute  = "ttl"
)

// CreateTables creates Market as the design defines it, unless it exists
// already, waits until it is active and enables Time to Live on ttl, so
// running twice against one endpoint finds everything in place.
func CreateTables(ctx context.Context, db *dynamodb.Client) error {
	_, err := db.CreateTable(ctx, marketTable())
	var exists *types.ResourceInUseException
	if err != nil && !errors.As(err, &exists) {
		return err
	}
	active := dynamodb.NewTableExistsWaiter(db)
	if err := active.Wait(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(MarketTable)}, 5*time.Minute); err != nil {
		return err
	}
	return enableTTL(ctx, db)
}

// marketTable is the design's index schema. Both indexes project only
// keys: the reverse index is "minimal" by design, and an id lookup needs
// only the item's primary key, since every read of data then goes to the
// primary index, the one per-tenant access control applies to.
func marketTable() *dynamodb.CreateTableInput {
	return &dynamodb.CreateTableInput{
		TableName:   aws.String(MarketTable),
		BillingMode: types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{
			attr("pk"), attr("sk"), attr("id"), attr("tp"),
		},
		KeySchema: keySchema("pk", "sk"),
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{
			{IndexName: aws.String(ReverseIndex), KeySchema: keySchema("sk", "pk"), Projection: keysOnly()},
			{IndexName: aws.String(IdLookupIndex), KeySchema: keySchema("id", "tp"), Projection: keysOnly()},
		},
	}
}

func attr(name string) types.AttributeDefinition {
	return types.AttributeDefinition{AttributeName: aws.String(name), AttributeType: types.ScalarAttributeTypeS}
}

func keySchema(hash, rng string) []types.KeySchemaElement {
	return []types.KeySchemaElement{
		{AttributeName: aws.String(hash), KeyType: types.KeyTypeHash},
		{AttributeName: aws.String(rng), KeyType: types.KeyTypeRange},
	}
}

func keysOnly() *types.Projection {
	return &types.Projection{ProjectionType: types.ProjectionTypeKeysOnly}
}

// enableTTL turns Time to Live on unless it already is: DynamoDB refuses
// to enable it twice.
func enableTTL(ctx context.Context, db *dynamodb.Client) error {
	out, err := db.DescribeTimeToLive(ctx, &dynamodb.DescribeTimeToLiveInput{TableName: aws.String(MarketTable)})
	if err != nil {
		return err
	}
	switch out.TimeToLiveDescription.TimeToLiveStatus {
	case types.TimeToLiveStatusEnabled, types.TimeToLiveStatusEnabling:
		return nil
	}
	_, err = db.UpdateTimeToLive(ctx, &dynamodb.UpdateTimeToLiveInput{TableName: aws.String(MarketTable),
		TimeToLiveSpecification: &types.TimeToLiveSpecification{Enabled: aws.Bool(true), AttributeName: aws.String(ttlAttribute)}})
	return err
}
