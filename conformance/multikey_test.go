package conformance_test

import (
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Multi-attribute GSI keys: up to four HASH attributes, then up to four
// RANGE ones, each keeping its type. Their behaviour tests are transcripts
// in conformance/testdata/multikey; these helpers serve
// multikey_random_test.go.

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
