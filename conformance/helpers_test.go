package conformance_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Helpers the Go tests share, from the files whose tests became
// transcripts.

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

// Multi-attribute GSI keys (for multikey_random_test.go): up to four HASH
// attributes, then up to four RANGE ones, each keeping its type.

func keyElems(hashes, ranges []string) []types.KeySchemaElement {
	var ks []types.KeySchemaElement
	for _, h := range hashes {
		ks = append(ks, types.KeySchemaElement{AttributeName: aws.String(h), KeyType: types.KeyTypeHash})
	}
	for _, r := range ranges {
		ks = append(ks, types.KeySchemaElement{AttributeName: aws.String(r), KeyType: types.KeyTypeRange})
	}
	return ks
}

// mkDefs defines each "name:type" attribute.
func mkDefs(attrs ...string) []types.AttributeDefinition {
	var out []types.AttributeDefinition
	for _, a := range attrs {
		name, typ, _ := strings.Cut(a, ":")
		out = append(out, types.AttributeDefinition{AttributeName: aws.String(name), AttributeType: types.ScalarAttributeType(typ)})
	}
	return out
}

func gsi(name string, ks []types.KeySchemaElement) types.GlobalSecondaryIndex {
	return types.GlobalSecondaryIndex{IndexName: aws.String(name), KeySchema: ks,
		Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll}}
}

func bin(b ...byte) types.AttributeValue { return &types.AttributeValueMemberB{Value: b} }

func ids(items []map[string]types.AttributeValue) []string {
	out := []string{}
	for _, it := range items {
		out = append(out, it["id"].(*types.AttributeValueMemberS).Value)
	}
	return out
}

func queryAll(t *testing.T, c *dynamodb.Client, in *dynamodb.QueryInput) []map[string]types.AttributeValue {
	t.Helper()
	var out []map[string]types.AttributeValue
	p := dynamodb.NewQueryPaginator(c, in)
	for p.HasMorePages() {
		page, err := p.NextPage(ctx)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, page.Items...)
	}
	return out
}

func strs(items []map[string]types.AttributeValue, attr string) string {
	var parts []string
	for _, it := range items {
		switch v := it[attr].(type) {
		case *types.AttributeValueMemberS:
			parts = append(parts, v.Value)
		case *types.AttributeValueMemberN:
			parts = append(parts, v.Value)
		case *types.AttributeValueMemberB:
			parts = append(parts, fmt.Sprintf("%x", v.Value))
		default:
			parts = append(parts, "?")
		}
	}
	return strings.Join(parts, ",")
}

const (
	validation = "ValidationException"
	oneError   = "1 validation error detected: "
)

// notFound is the type of a missing table's error, used across the suite.
const notFound = "ResourceNotFoundException"
