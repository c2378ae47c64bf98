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
	var errb bytes.Buffer
	if code := serve([]string{"--addr", "127.0.0.1:0", "--store", store}, io.Discard, &errb); code != 1 || !strings.Contains(errb.String(), "in use by another process") {
		t.Fatalf("a second server on the schema: exit %d, stderr %q", code, errb.String())
	}
	first.stop(t)
	second := startServe(ctx, t, "--store", store)
	if _, err := second.client.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String("kept")}); err != nil {
		t.Fatalf("the table written by the first server: %v", err)
	}
}
