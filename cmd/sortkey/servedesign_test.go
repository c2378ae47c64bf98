package main

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

const marketDesignPath = "../../internal/design/testdata/market.yaml"

// serve --design answers the report while serving and prints it, with
// what was served, when it stops.
func TestServeDesignReportsWhenStopped(t *testing.T) {
	ctx := testContext(t)
	f, err := parseServe([]string{"--in-memory", "--addr", "127.0.0.1:0", "--design", marketDesignPath}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	sigs := make(chan os.Signal, 2)
	out := &addrWriter{addr: make(chan string, 1)}
	done := make(chan error, 1)
	go func() { done <- listenAndServe(sigs, f, out, slog.New(slog.DiscardHandler)) }()
	var url string
	select {
	case url = <-out.addr:
	case err := <-done:
		t.Fatalf("serve ended: %v", err)
	}
	getUserProfile(ctx, t, url)
	resp, err := http.Get(url + "/sortkey/design/report")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(body), `"name": "Get user profile"`) {
		t.Errorf("report: %s %s", resp.Status, body)
	}
	sigs <- syscall.SIGTERM
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	out.mu.Lock()
	printed := out.buf.String()
	out.mu.Unlock()
	if !strings.Contains(printed, "## Design coverage: Market") || !strings.Contains(printed, "| 1 | Get user profile | GetItem | 1 | 0 | 0 |") {
		t.Errorf("stdout:\n%s", printed)
	}
}

func getUserProfile(ctx context.Context, t *testing.T, url string) {
	t.Helper()
	c := dynamodb.New(dynamodb.Options{Region: "us-east-1", BaseEndpoint: aws.String(url),
		Credentials: credentials.NewStaticCredentialsProvider("k", "s", "")})
	_, err := c.CreateTable(ctx, &dynamodb.CreateTableInput{TableName: aws.String("Market"), BillingMode: types.BillingModePayPerRequest,
		KeySchema: []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash}, {AttributeName: aws.String("sk"), KeyType: types.KeyTypeRange}},
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS},
			{AttributeName: aws.String("sk"), AttributeType: types.ScalarAttributeTypeS}}})
	if err != nil {
		t.Fatal(err)
	}
	key := map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: "U#1"}, "sk": &types.AttributeValueMemberS{Value: "U#1"}}
	if _, err := c.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("Market"), Key: key}); err != nil {
		t.Fatal(err)
	}
}

func TestServeRefusesABadDesignFile(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "bad.yaml")
	if err := os.WriteFile(bad, []byte("version: 1\nname: X\ntables: [\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{bad, filepath.Join(t.TempDir(), "missing.yaml")} {
		var errb strings.Builder
		code := serve([]string{"--in-memory", "--addr", "127.0.0.1:0", "--design", path}, io.Discard, &errb)
		if code != 1 || !strings.Contains(errb.String(), "--design") {
			t.Errorf("%s: exit %d, stderr %q", path, code, errb.String())
		}
	}
}
