package runner

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

func TestEmbeddedRecordsAndPrints(t *testing.T) {
	env, err := Start(context.Background(), "")
	if err != nil {
		t.Fatal(err)
	}
	defer env.Close()
	_, err = env.Client.CreateTable(context.Background(), &dynamodb.CreateTableInput{TableName: aws.String("tbl"),
		BillingMode:          types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("pk"), AttributeType: "S"}},
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash}}})
	if err != nil {
		t.Fatal(err)
	}
	env.Recorder.Take()
	_, err = env.Client.Query(context.Background(), &dynamodb.QueryInput{TableName: aws.String("tbl"),
		KeyConditionExpression: aws.String("pk = :p"), ExpressionAttributeValues: map[string]types.AttributeValue{":p": &types.AttributeValueMemberS{Value: "a"}}})
	if err != nil {
		t.Fatal(err)
	}
	calls := env.Recorder.Take()
	if len(calls) != 1 || calls[0] != (Call{Op: "Query", Table: "tbl", KeyCondition: "pk = :p"}) {
		t.Fatalf("recorded %+v", calls)
	}
	var out bytes.Buffer
	Print(&out, "Get by key", calls, []string{"pk", "name"}, [][]string{{"a", "first"}, {"bb", "second"}})
	if !strings.Contains(out.String(), "Query tbl  [pk = :p]") || !strings.Contains(out.String(), "bb  second") {
		t.Fatalf("printout:\n%s", out.String())
	}
}
