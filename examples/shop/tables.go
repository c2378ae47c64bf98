package main

import (
	"context"
	"errors"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// The indexes, named as the design's Table/Index column names them.
const (
	indexLSI  = "LSI"
	indexGSI1 = "GSI1"
	indexGSI2 = "GSI2"
	// indexGSI3 is not in the design: a multi-attribute GSI over the
	// product's own brand_id, category_id and created_at, where GSI1 needs
	// the hand-built GSI1SK "CAT#<category>#AT#<time>".
	indexGSI3 = "GSI3"
)

// maxTableWait bounds the wait for a new table on AWS.
const maxTableWait = 5 * time.Minute

// CreateTables creates the shop's one table, unless it exists, and waits
// until it is ACTIVE (at once on sortkey, seconds on AWS).
func CreateTables(ctx context.Context, db *dynamodb.Client, table string) error {
	_, err := db.CreateTable(ctx, tableDefinition(table))
	var inUse *types.ResourceInUseException
	if err != nil && !errors.As(err, &inUse) {
		return err
	}
	return dynamodb.NewTableExistsWaiter(db).Wait(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(table)}, maxTableWait)
}

// tableDefinition is the design's key schema: PK/SK on the table, SKU as
// the LSI's alternate sort key, and GSI1/GSI2 on their own key pairs; and
// GSI3, keyed on the product's attributes themselves (HASH brand_id, RANGE
// category_id then created_at). Every index projects ALL because every
// access pattern returns whole entities.
func tableDefinition(table string) *dynamodb.CreateTableInput {
	return &dynamodb.CreateTableInput{
		TableName:   aws.String(table),
		BillingMode: types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{
			stringAttr("PK"), stringAttr("SK"), stringAttr("SKU"),
			stringAttr("GSI1PK"), stringAttr("GSI1SK"), stringAttr("GSI2PK"), stringAttr("GSI2SK"),
			stringAttr("brand_id"), stringAttr("category_id"), stringAttr("created_at"),
		},
		KeySchema: keySchema("PK", "SK"),
		LocalSecondaryIndexes: []types.LocalSecondaryIndex{{IndexName: aws.String(indexLSI),
			KeySchema: keySchema("PK", "SKU"), Projection: projectAll()}},
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{
			{IndexName: aws.String(indexGSI1), KeySchema: keySchema("GSI1PK", "GSI1SK"), Projection: projectAll()},
			{IndexName: aws.String(indexGSI2), KeySchema: keySchema("GSI2PK", "GSI2SK"), Projection: projectAll()},
			{IndexName: aws.String(indexGSI3), KeySchema: append(keySchema("brand_id", "category_id"),
				types.KeySchemaElement{AttributeName: aws.String("created_at"), KeyType: types.KeyTypeRange}), Projection: projectAll()},
		},
	}
}

func stringAttr(name string) types.AttributeDefinition {
	return types.AttributeDefinition{AttributeName: aws.String(name), AttributeType: types.ScalarAttributeTypeS}
}

func keySchema(hash, rangeKey string) []types.KeySchemaElement {
	return []types.KeySchemaElement{
		{AttributeName: aws.String(hash), KeyType: types.KeyTypeHash},
		{AttributeName: aws.String(rangeKey), KeyType: types.KeyTypeRange},
	}
}

func projectAll() *types.Projection {
	return &types.Projection{ProjectionType: types.ProjectionTypeAll}
}
