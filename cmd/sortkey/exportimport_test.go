package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/sortkeydb/sortkey/sortkeytest"
)

func runCmd(args ...string) (int, string, string) {
	var out, errb bytes.Buffer
	code := run(args, &out, &errb)
	return code, out.String(), errb.String()
}

// sortkey export, then sortkey import with the schema of the source
// table, over HTTP as against DynamoDB; a GSI comes along.
func TestExportImportCommands(t *testing.T) {
	noAWSEnvironment(t)
	srv := sortkeytest.New(t)
	c := dynamodb.NewFromConfig(srv.NetworkAWSConfig())
	ctx := context.Background()
	_, err := c.CreateTable(ctx, &dynamodb.CreateTableInput{TableName: aws.String("Orders"), BillingMode: types.BillingModePayPerRequest,
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash}},
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS}, {AttributeName: aws.String("status"), AttributeType: types.ScalarAttributeTypeS}},
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{{IndexName: aws.String("ByStatus"), Projection: &types.Projection{ProjectionType: types.ProjectionTypeKeysOnly},
			KeySchema: []types.KeySchemaElement{{AttributeName: aws.String("status"), KeyType: types.KeyTypeHash}}}}})
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"o1", "o2", "o3"} {
		c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("Orders"), Item: map[string]types.AttributeValue{
			"pk": &types.AttributeValueMemberS{Value: id}, "status": &types.AttributeValueMemberS{Value: "open"}}})
	}
	out := t.TempDir()
	code, stdout, stderr := runCmd("export", "--endpoint", srv.URL, "--table", "Orders", "--out", out, "--segments", "2", "--consistent")
	if code != 0 || !strings.Contains(stdout, "exported 3 items from Orders") {
		t.Fatalf("export: exit %d\n%s%s", code, stdout, stderr)
	}
	code, stdout, stderr = runCmd("import", "--endpoint", srv.URL, "--table", "OrdersCopy", "--in", out, "--schema-from", "Orders")
	if code != 0 || !strings.Contains(stdout, "imported 3 of 3 items into OrdersCopy from 2 files") {
		t.Fatalf("import: exit %d\n%s%s", code, stdout, stderr)
	}
	q, err := c.Query(ctx, &dynamodb.QueryInput{TableName: aws.String("OrdersCopy"), IndexName: aws.String("ByStatus"),
		KeyConditionExpression: aws.String("#s = :s"), ExpressionAttributeNames: map[string]string{"#s": "status"},
		ExpressionAttributeValues: map[string]types.AttributeValue{":s": &types.AttributeValueMemberS{Value: "open"}}})
	if err != nil || q.Count != 3 {
		t.Fatalf("the copy's index: %v (%v)", q, err)
	}
}

func TestImportCommandExitStatus(t *testing.T) {
	noAWSEnvironment(t)
	srv := sortkeytest.New(t)
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "a.json"), []byte(`{"Item":{"pk":{"S":"a"}}}`+"\nnot json\n"), 0o644)
	logFile := filepath.Join(t.TempDir(), "errors.jsonl")
	code, _, stderr := runCmd("import", "--endpoint", srv.URL, "--table", "Some", "--in", dir, "--partition-key", "pk:S", "--error-log", logFile)
	if code != 3 || !strings.Contains(stderr, "import FAILED (ItemValidationError)") || !strings.Contains(stderr, logFile) {
		t.Fatalf("bad line: exit %d, stderr %q", code, stderr)
	}
	code, _, stderr = runCmd("import", "--endpoint", srv.URL, "--table", "None", "--in", t.TempDir(), "--partition-key", "pk:S")
	if code != 1 || !strings.Contains(stderr, "holds no data files") {
		t.Fatalf("empty folder: exit %d, stderr %q", code, stderr)
	}
	for _, args := range [][]string{
		{"import", "--table", "X"},
		{"import", "--endpoint", srv.URL, "--table", "Xyz", "--in", dir},
		{"import", "--endpoint", srv.URL, "--table", "Xyz", "--in", dir, "--partition-key", "pk:S", "--schema-from", "Some"},
		{"export", "--table", "Some"},
	} {
		if code, _, stderr := runCmd(args...); code != 2 || stderr == "" {
			t.Errorf("%v: exit %d, stderr %q", args, code, stderr)
		}
	}
	code, _, stderr = runCmd("export", "--endpoint", srv.URL, "--table", "Some", "--out", t.TempDir(), "--format", "XML")
	if code != 1 || !strings.Contains(stderr, `unknown format "XML"`) {
		t.Fatalf("XML: exit %d, stderr %q", code, stderr)
	}
}
