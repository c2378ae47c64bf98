package main

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// The table of each environment, and the design's index names.
const (
	DevTable  = "nishiki-table-dev-db"
	ProdTable = "nishiki-table-prod-db"

	IndexUserAndGroup      = "UserAndGroupRelationship"
	IndexGroupAndContainer = "GroupAndContainerRelationship"
	IndexEMailAndUserId    = "EMailAndUserIdRelationship"
	IndexInvitationHash    = "InvitationHash"
)

// TableName is the table of an environment, "dev" or "prod".
func TableName(env string) (string, error) {
	switch env {
	case "dev":
		return DevTable, nil
	case "prod":
		return ProdTable, nil
	}
	return "", fmt.Errorf("unknown environment %q (want dev or prod)", env)
}

// CreateTable creates the table unless it exists, and waits until it is
// active (at once on sortkey, seconds on AWS).
func CreateTable(ctx context.Context, db *dynamodb.Client, name string) error {
	_, err := db.CreateTable(ctx, tableDefinition(name))
	var exists *types.ResourceInUseException
	if err != nil && !errors.As(err, &exists) {
		return err
	}
	return dynamodb.NewTableExistsWaiter(db).Wait(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(name)}, 5*time.Minute)
}

// tableDefinition is the design's table. Its "Retain" deletion policy for
// prod becomes deletion protection, DynamoDB's own guard against deletion.
func tableDefinition(name string) *dynamodb.CreateTableInput {
	return &dynamodb.CreateTableInput{
		TableName: aws.String(name),
		AttributeDefinitions: []types.AttributeDefinition{attrS("PK"), attrS("SK"),
			attrS("GroupId"), attrS("ContainerId"), attrS("EMailAddress"), attrS("InvitationLinkHash")},
		KeySchema: []types.KeySchemaElement{
			{AttributeName: aws.String("PK"), KeyType: types.KeyTypeHash},
			{AttributeName: aws.String("SK"), KeyType: types.KeyTypeRange}},
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{
			gsi(IndexUserAndGroup, "GroupId", nil),
			gsi(IndexGroupAndContainer, "ContainerId", nil),
			gsi(IndexEMailAndUserId, "EMailAddress", nil),
			gsi(IndexInvitationHash, "InvitationLinkHash", []string{"LinkExpiryDatetime"}),
		},
		BillingMode:               types.BillingModePayPerRequest,
		DeletionProtectionEnabled: aws.Bool(name == ProdTable),
	}
}

func attrS(name string) types.AttributeDefinition {
	return types.AttributeDefinition{AttributeName: aws.String(name), AttributeType: types.ScalarAttributeTypeS}
}

// gsi is an index with a partition key only, as every index of the
// design is: KEYS_ONLY, or INCLUDE when it names non-key attributes.
func gsi(name, pk string, include []string) types.GlobalSecondaryIndex {
	p := &types.Projection{ProjectionType: types.ProjectionTypeKeysOnly}
	if include != nil {
		p = &types.Projection{ProjectionType: types.ProjectionTypeInclude, NonKeyAttributes: include}
	}
	return types.GlobalSecondaryIndex{IndexName: aws.String(name), Projection: p,
		KeySchema: []types.KeySchemaElement{{AttributeName: aws.String(pk), KeyType: types.KeyTypeHash}}}
}
