package conformance_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

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
