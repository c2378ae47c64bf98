package main

import (
	"bytes"
	"io"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// --store and --in-memory contradict each other: refused before anything
// opens.
func TestServeRefusesStoreInMemory(t *testing.T) {
	var errb bytes.Buffer
	code := serve([]string{"--in-memory", "--store", "postgres://u@127.0.0.1:1/db"}, io.Discard, &errb)
	if code != 2 || !strings.Contains(errb.String(), "--store") {
		t.Fatalf("exit %d, stderr %q", code, errb.String())
	}
}

// A store URL that is not PostgreSQL's, or names no reachable server, is
// a clear error that never shows the password.
func TestServeBadStoreURL(t *testing.T) {
	for _, url := range []string{"mysql://u:hunter2@127.0.0.1/db", "postgres://u:hunter2@127.0.0.1:1/db?connect_timeout=2", "postgres://u:hunter2@127.0.0.1/db?timeout=soon"} {
		var errb bytes.Buffer
		code := serve([]string{"--addr", "127.0.0.1:0", "--store", url}, io.Discard, &errb)
		if code == 0 || errb.Len() == 0 || strings.Contains(errb.String(), "hunter2") {
			t.Errorf("%s: exit %d, stderr %q", url, code, errb.String())
		}
	}
}

// sortkey serve --store keeps its data in PostgreSQL: what one server
// wrote, the next one on the same schema reads, and a second server on
// the schema while the first runs is refused.
func TestServeOnPostgres(t *testing.T) {
	url := os.Getenv("SORTKEY_TEST_STORE")
	if url == "" {
		t.Skip("needs a PostgreSQL: set SORTKEY_TEST_STORE to its postgres:// URL (.ci/run does)")
	}
	store := url + "?schema=serve_" + strings.ReplaceAll(t.Name(), "/", "_") + "_" + time.Now().Format("150405.000000")
	if strings.Contains(url, "?") {
		store = strings.Replace(store, "?schema", "&schema", 1)
	}
	ctx := testContext(t)
	first := startServe(ctx, t, "--store", store)
	createTable(ctx, t, first.client, "kept")
	// A second server shares the schema while the first runs: one
	// database, two nodes.
	second := startServe(ctx, t, "--store", store)
	if _, err := second.client.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String("kept")}); err != nil {
		t.Fatalf("the table the first server created, on the second: %v", err)
	}
	item := map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: "from the second"}}
	if _, err := second.client.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("kept"), Item: item}); err != nil {
		t.Fatal(err)
	}
	got, err := first.client.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("kept"), Key: item, ConsistentRead: aws.Bool(true)})
	if err != nil || got.Item == nil {
		t.Fatalf("the second server's write, read on the first: %v, %v", got, err)
	}
	first.stop(t)
	if _, err := second.client.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String("kept")}); err != nil {
		t.Fatalf("the table written by the first server: %v", err)
	}
}
