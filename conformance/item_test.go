package conformance_test

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/sortkeydb/sortkey/sortkeytest"
)

func s(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
func n(v string) types.AttributeValue { return &types.AttributeValueMemberN{Value: v} }

// everyType is an item holding one attribute of each of DynamoDB's ten types,
// nested ones included.
func everyType() map[string]types.AttributeValue {
	return map[string]types.AttributeValue{
		"Artist":    s("Acme Band"),
		"SongTitle": s("Happy Day"),
		"str":       s("héllo ✓"),
		"emptyStr":  s(""),
		"num":       n("-12.5"),
		"bin":       &types.AttributeValueMemberB{Value: []byte{0, 1, 2, 255}},
		"emptyBin":  &types.AttributeValueMemberB{Value: []byte{}},
		"bool":      &types.AttributeValueMemberBOOL{Value: true},
		"null":      &types.AttributeValueMemberNULL{Value: true},
		"map": &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{
			"inner": &types.AttributeValueMemberL{Value: []types.AttributeValue{n("1"), s("two")}},
			"empty": &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{}},
		}},
		"list":   &types.AttributeValueMemberL{Value: []types.AttributeValue{}},
		"strSet": &types.AttributeValueMemberSS{Value: []string{"a", "b"}},
		"numSet": &types.AttributeValueMemberNS{Value: []string{"1", "2.5"}},
		"binSet": &types.AttributeValueMemberBS{Value: [][]byte{{1}, {2}}},
	}
}

func musicKey() map[string]types.AttributeValue {
	return map[string]types.AttributeValue{"Artist": s("Acme Band"), "SongTitle": s("Happy Day")}
}

func put(c *dynamodb.Client, table string, item map[string]types.AttributeValue) error {
	_, err := c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(table), Item: item})
	return err
}

func TestAnyCredentialsAndRegionSeeOneDatabase(t *testing.T) {
	srv := sortkeytest.New(t)
	createSimple(t, srv.Client(), "shared")
	other := srv.Client(func(o *dynamodb.Options) { o.Region = "eu-west-3" })
	out, err := other.ListTables(ctx, &dynamodb.ListTablesInput{})
	if err != nil || len(out.TableNames) != 1 || out.TableNames[0] != "shared" {
		t.Fatalf("another region sees %v (%v)", out, err)
	}
}
