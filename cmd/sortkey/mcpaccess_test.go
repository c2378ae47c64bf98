package main

import (
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// pipeSession runs `sortkey mcp args` in process on a pair of pipes and
// connects the SDK's client to it. end hangs up and waits for the command
// to end; the test does it at its end otherwise.
func pipeSession(t *testing.T, args ...string) (cs *mcp.ClientSession, end func()) {
	t.Helper()
	serverIn, clientOut := io.Pipe()
	clientIn, serverOut := io.Pipe()
	var stderr strings.Builder
	done := make(chan int, 1)
	go func() {
		done <- mcpServe(args, serverIn, serverOut, &stderr)
		serverOut.Close()
	}()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).
		Connect(context.Background(), &mcp.IOTransport{Reader: clientIn, Writer: clientOut}, nil)
	if err != nil {
		t.Fatalf("sortkey mcp %v: %v\n%s", args, err, stderr.String())
	}
	var once sync.Once
	end = func() {
		once.Do(func() {
			cs.Close()
			if code := <-done; code != 0 {
				t.Errorf("sortkey mcp %v ended %d: %s", args, code, stderr.String())
			}
		})
	}
	t.Cleanup(end)
	return cs, end
}

// toolText calls a tool and returns its error text, or "" and its
// structured answer as JSON.
func toolText(t *testing.T, cs *mcp.ClientSession, tool, args string) (errText, answer string) {
	t.Helper()
	res := callOver(t, cs, tool, args)
	if res.IsError {
		return res.Content[0].(*mcp.TextContent).Text, ""
	}
	out, _ := json.Marshal(res.StructuredContent)
	return "", string(out)
}

func mustTool(t *testing.T, cs *mcp.ClientSession, tool, args string) string {
	t.Helper()
	msg, answer := toolText(t, cs, tool, args)
	if msg != "" {
		t.Fatalf("%s: %s", tool, msg)
	}
	return answer
}

const tblRequest = `{"TableName":"tbl","BillingMode":"PAY_PER_REQUEST","AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}]}`

// With --auth, every tool call is the --as principal's, decided by its
// policies: other may read only the items whose key is its user name.
func TestMCPActsAsTheAuthPrincipal(t *testing.T) {
	dir := t.TempDir()
	authPath := filepath.Join(t.TempDir(), "auth.json")
	writeFile(t, authPath, authFileOf(crashPrincipal, otherPrincipal))
	admin, end := pipeSession(t, "--data-dir", dir, "--auth", authPath, "--as", "arn:aws:iam::123456789012:user/crash")
	mustTool(t, admin, "create_table", tblRequest)
	mustTool(t, admin, "put_item", `{"TableName":"tbl","Item":{"pk":{"S":"other"}}}`)
	mustTool(t, admin, "put_item", `{"TableName":"tbl","Item":{"pk":{"S":"someone"}}}`)
	end() // the directory is one command's at a time

	other, _ := pipeSession(t, "--data-dir", dir, "--auth", authPath, "--as", "arn:aws:iam::123456789012:user/other")
	if answer := mustTool(t, other, "get_item", `{"TableName":"tbl","Key":{"pk":{"S":"other"}}}`); !strings.Contains(answer, `"other"`) {
		t.Errorf("other's own item: %s", answer)
	}
	for _, c := range []struct{ tool, args string }{
		{"get_item", `{"TableName":"tbl","Key":{"pk":{"S":"someone"}}}`},
		{"put_item", `{"TableName":"tbl","Item":{"pk":{"S":"other"},"x":{"S":"y"}}}`},
		{"scan", `{"TableName":"tbl"}`},
	} {
		if msg, _ := toolText(t, other, c.tool, c.args); !strings.Contains(msg, "AccessDeniedException") || !strings.Contains(msg, "user/other") {
			t.Errorf("%s %s as other: %q, want AccessDeniedException naming the principal", c.tool, c.args, msg)
		}
	}
}

func TestMCPRefusesContradictoryFlags(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--auth", "f.json"}, errMCPAs.Error()},
		{[]string{"--data-dir", "d", "--store", "postgres://x/y"}, errMCPWhere.Error()},
		{[]string{"--endpoint", "http://127.0.0.1:1", "--clock", "virtual"}, errMCPRemoteOn.Error()},
		{[]string{"--as", "arn:aws:iam::123456789012:user/x"}, errMCPAs.Error()},
	} {
		var stderr strings.Builder
		if code := mcpServe(c.args, io.NopCloser(strings.NewReader("")), io.Discard, &stderr); code != 2 || !strings.Contains(stderr.String(), c.want) {
			t.Errorf("sortkey mcp %v: %d %q, want 2 and %q", c.args, code, stderr.String(), c.want)
		}
	}
}

// --endpoint sends the data tools' calls to another server, signed with
// the SDK's default credentials; the server's own access control decides.
func TestMCPOnARemoteEndpoint(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	authPath := filepath.Join(t.TempDir(), "auth.json")
	writeFile(t, authPath, authFileOf(crashPrincipal))
	srv := startServe(ctx, t, "--in-memory", "--auth", authPath)
	t.Setenv("AWS_ACCESS_KEY_ID", "crash")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "crash")
	t.Setenv("AWS_REGION", "us-east-1")
	t.Setenv("AWS_CONFIG_FILE", filepath.Join(t.TempDir(), "none"))
	t.Setenv("AWS_SHARED_CREDENTIALS_FILE", filepath.Join(t.TempDir(), "none"))
	cs, _ := pipeSession(t, "--endpoint", srv.url)
	mustTool(t, cs, "create_table", tblRequest)
	mustTool(t, cs, "put_item", `{"TableName":"tbl","Item":{"pk":{"S":"a"}}}`)
	out, err := srv.client.Scan(ctx, &dynamodb.ScanInput{TableName: aws.String("tbl")})
	if err != nil || out.Count != 1 {
		t.Errorf("the server holds %v items after a put through the agent (%v)", out, err)
	}
	if msg, _ := toolText(t, cs, "clock_get", `{}`); !strings.Contains(msg, "needs the command's own database") {
		t.Errorf("clock_get on a remote endpoint: %q", msg)
	}
	t.Setenv("AWS_SECRET_ACCESS_KEY", "wrong")
	wrong, _ := pipeSession(t, "--endpoint", srv.url)
	if msg, _ := toolText(t, wrong, "list_tables", `{}`); !strings.Contains(msg, "InvalidSignatureException") {
		t.Errorf("a wrong secret: %q", msg)
	}
}

// --store puts the agent on a PostgreSQL schema beside a running server:
// two nodes of one database, each seeing the other's writes.
func TestMCPOnPostgres(t *testing.T) {
	url := os.Getenv("SORTKEY_TEST_STORE")
	if url == "" {
		t.Skip("needs a PostgreSQL: set SORTKEY_TEST_STORE to its postgres:// URL (.ci/run does)")
	}
	sep := "?"
	if strings.Contains(url, "?") {
		sep = "&"
	}
	store := url + sep + "schema=mcp_" + time.Now().Format("150405.000000")
	ctx := testContext(t)
	srv := startServe(ctx, t, "--store", store)
	createTable(ctx, t, srv.client, "kept")
	cs, _ := pipeSession(t, "--store", store)
	mustTool(t, cs, "put_item", `{"TableName":"kept","Item":{"pk":{"S":"from the agent"}}}`)
	key := map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: "from the agent"}}
	got, err := srv.client.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("kept"), Key: key, ConsistentRead: aws.Bool(true)})
	if err != nil || got.Item == nil {
		t.Fatalf("the agent's write, read on the server: %v, %v", got, err)
	}
}
