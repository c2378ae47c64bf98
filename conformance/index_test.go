package conformance_test

import (
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// The index behaviour tests are transcripts in conformance/testdata/indexes;
// these helpers serve other root tests.

// createSingleTable creates a single-table design: PK/SK, an inverted GSI
// (SK, PK) projecting ALL, a sparse KEYS_ONLY GSI on PendingId, an INCLUDE
// GSI on Status, and an LSI on an alternate sort key projecting KEYS_ONLY.
func createSingleTable(t *testing.T, c *dynamodb.Client) {
	t.Helper()
	def := func(n string, ty types.ScalarAttributeType) types.AttributeDefinition {
		return types.AttributeDefinition{AttributeName: aws.String(n), AttributeType: ty}
	}
	ks := func(h, r string) []types.KeySchemaElement {
		k := []types.KeySchemaElement{{AttributeName: aws.String(h), KeyType: types.KeyTypeHash}}
		if r != "" {
			k = append(k, types.KeySchemaElement{AttributeName: aws.String(r), KeyType: types.KeyTypeRange})
		}
		return k
	}
	_, err := c.CreateTable(ctx, &dynamodb.CreateTableInput{
		TableName: aws.String("app"),
		AttributeDefinitions: []types.AttributeDefinition{def("PK", "S"), def("SK", "S"), def("PendingId", "S"),
			def("Status", "S"), def("Created", "N")},
		KeySchema: ks("PK", "SK"),
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{
			{IndexName: aws.String("Inverted"), KeySchema: ks("SK", "PK"), Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll}},
			{IndexName: aws.String("Pending"), KeySchema: ks("PendingId", ""), Projection: &types.Projection{ProjectionType: types.ProjectionTypeKeysOnly}},
			{IndexName: aws.String("ByStatus"), KeySchema: ks("Status", "Created"),
				Projection: &types.Projection{ProjectionType: types.ProjectionTypeInclude, NonKeyAttributes: []string{"Title"}}},
		},
		LocalSecondaryIndexes: []types.LocalSecondaryIndex{
			{IndexName: aws.String("ByCreated"), KeySchema: ks("PK", "Created"), Projection: &types.Projection{ProjectionType: types.ProjectionTypeKeysOnly}},
		},
		BillingMode: types.BillingModePayPerRequest,
	})
	if err != nil {
		t.Fatal(err)
	}
}

func item(pk, sk string, extra map[string]types.AttributeValue) map[string]types.AttributeValue {
	it := map[string]types.AttributeValue{"PK": s(pk), "SK": s(sk)}
	for k, v := range extra {
		it[k] = v
	}
	return it
}

func query(t *testing.T, c *dynamodb.Client, index, cond string, vals map[string]types.AttributeValue) []map[string]types.AttributeValue {
	t.Helper()
	in := &dynamodb.QueryInput{TableName: aws.String("app"), KeyConditionExpression: aws.String(cond), ExpressionAttributeValues: vals}
	if strings.Contains(cond, "#s") {
		in.ExpressionAttributeNames = map[string]string{"#s": "Status"}
	}
	if index != "" {
		in.IndexName = aws.String(index)
	}
	return queryAll(t, c, in)
}
