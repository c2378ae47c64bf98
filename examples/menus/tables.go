package main

import (
	"context"
	"errors"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// The design's one table: PK/SK, GSI1 on GSI1PK/GSI1SK (an entity by its
// id, where its own key is in its parent's partition) and GSI2 on
// GSI2PK/GSI2SK (an entity by its name).
const (
	DefaultTable = "menus"
	GSI1         = "GSI1"
	GSI2         = "GSI2"
)

// CreateTable creates the table unless it exists, and waits until it is
// ACTIVE (at once on sortkey, seconds on AWS).
func CreateTable(ctx context.Context, db *dynamodb.Client, table string) error {
	_, err := db.CreateTable(ctx, tableDefinition(table))
	var inUse *types.ResourceInUseException
	if err != nil && !errors.As(err, &inUse) {
		return err
	}
	return dynamodb.NewTableExistsWaiter(db).Wait(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(table)}, 5*time.Minute)
}

func tableDefinition(table string) *dynamodb.CreateTableInput {
	return &dynamodb.CreateTableInput{
		TableName:            aws.String(table),
		BillingMode:          types.BillingModePayPerRequest,
		AttributeDefinitions: stringAttributes("PK", "SK", "GSI1PK", "GSI1SK", "GSI2PK", "GSI2SK"),
		KeySchema:            keySchema("PK", "SK"),
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{
			{IndexName: aws.String(GSI1), KeySchema: keySchema("GSI1PK", "GSI1SK"),
				Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll}},
			{IndexName: aws.String(GSI2), KeySchema: keySchema("GSI2PK", "GSI2SK"),
				Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll}},
		},
	}
}

func stringAttributes(names ...string) []types.AttributeDefinition {
	defs := make([]types.AttributeDefinition, len(names))
	for i, n := range names {
		defs[i] = types.AttributeDefinition{AttributeName: aws.String(n), AttributeType: types.ScalarAttributeTypeS}
	}
	return defs
}

func keySchema(hash, rng string) []types.KeySchemaElement {
	return []types.KeySchemaElement{
		{AttributeName: aws.String(hash), KeyType: types.KeyTypeHash},
		{AttributeName: aws.String(rng), KeyType: types.KeyTypeRange},
	}
}
