package runner

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/sortkeydb/sortkey"
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

// TestEmbeddedWithAccessControl starts the embedded server with an auth
// file: the default client's made-up keys are refused, a client with the
// file's keys is served and recorded.
func TestEmbeddedWithAccessControl(t *testing.T) {
	ctx := context.Background()
	doc := `{"account": "123456789012", "principals": [{"arn": "arn:aws:iam::123456789012:user/admin",
	  "accessKeyId": "AKIDADMIN", "secretAccessKey": "admin-secret",
	  "policies": [{"Version": "2012-10-17", "Statement": [{"Effect": "Allow", "Action": "dynamodb:ListTables", "Resource": "*"}]}]}]}`
	env, err := StartWith(ctx, "", sortkey.Options{Auth: []byte(doc)})
	if err != nil {
		t.Fatal(err)
	}
	defer env.Close()
	if _, err := env.Client.ListTables(ctx, &dynamodb.ListTablesInput{}); err == nil || !strings.Contains(err.Error(), "UnrecognizedClientException") {
		t.Fatalf("unknown keys: %v, want UnrecognizedClientException", err)
	}
	env.Recorder.Take()
	admin := env.ClientWith(credentials.NewStaticCredentialsProvider("AKIDADMIN", "admin-secret", ""))
	if _, err := admin.ListTables(ctx, &dynamodb.ListTablesInput{}); err != nil {
		t.Fatal(err)
	}
	if calls := env.Recorder.Take(); len(calls) != 1 || calls[0].Op != "ListTables" {
		t.Fatalf("recorded %+v", calls)
	}
	if env.AWS() {
		t.Fatal("an embedded server is not AWS")
	}
}
