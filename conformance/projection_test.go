package conformance_test

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/sortkeydb/sortkey/sortkeytest"
)

func TestNonKeyAttributesRules(t *testing.T) {
	c := sortkeytest.New(t).Client()
	create := func(name string, p *types.Projection) error {
		_, err := c.CreateTable(ctx, &dynamodb.CreateTableInput{TableName: aws.String(name), BillingMode: types.BillingModePayPerRequest,
			AttributeDefinitions: attrDefs("pk", "g"), KeySchema: keySchema("pk", ""),
			GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{{IndexName: aws.String("byG"), KeySchema: keySchema("g", ""), Projection: p}}})
		return err
	}
	err := create("nka", &types.Projection{ProjectionType: types.ProjectionTypeInclude, NonKeyAttributes: []string{"a", "b", "a"}})
	wantAPIError(t, err, "ValidationException", "One or more parameter values were invalid: Duplicate NonKeyAttributes in Projection: a") // facts 19.3
	err = create("nka", &types.Projection{ProjectionType: types.ProjectionTypeKeysOnly, NonKeyAttributes: []string{"a"}})
	wantAPIError(t, err, "ValidationException", "One or more parameter values were invalid: ProjectionType is KEYS_ONLY, but NonKeyAttributes is specified")
	createSimple(t, c, "nkb")
	_, err = c.UpdateTable(ctx, &dynamodb.UpdateTableInput{TableName: aws.String("nkb"), AttributeDefinitions: attrDefs("g"),
		GlobalSecondaryIndexUpdates: []types.GlobalSecondaryIndexUpdate{{Create: &types.CreateGlobalSecondaryIndexAction{
			IndexName: aws.String("byG"), KeySchema: keySchema("g", ""),
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeInclude, NonKeyAttributes: []string{"x", "x"}}}}}})
	wantAPIError(t, err, "ValidationException", "One or more parameter values were invalid: Duplicate NonKeyAttributes in Projection: x") // facts 19.3
}
