package main

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestMCPServesToolsOverAStream runs the command on a pair of pipes, as an
// agent's client runs it on stdin and stdout, and drives it with the MCP
// SDK's client until the client hangs up (pipeSession then wants exit 0).
func TestMCPServesToolsOverAStream(t *testing.T) {
	cs, _ := pipeSession(t, "--max-items", "1")
	mustTool(t, cs, "create_table", tblRequest)
	mustTool(t, cs, "put_item", `{"TableName":"tbl","Item":{"pk":{"S":"a"}}}`)
	mustTool(t, cs, "put_item", `{"TableName":"tbl","Item":{"pk":{"S":"b"}}}`)
	if out := mustTool(t, cs, "scan", `{"TableName":"tbl"}`); !strings.Contains(out, `"Count":1`) || !strings.Contains(out, `"truncated":true`) {
		t.Fatalf("a scan of 2 items under --max-items 1 answered %s", out)
	}
}

func callOver(t *testing.T, cs *mcp.ClientSession, tool, args string) *mcp.CallToolResult {
	t.Helper()
	var in map[string]any
	if err := json.Unmarshal([]byte(args), &in); err != nil {
		t.Fatal(err)
	}
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: in})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func TestMCPRefusesABadItemCap(t *testing.T) {
	var stderr strings.Builder
	if code := mcpServe([]string{"--max-items", "0"}, io.NopCloser(strings.NewReader("")), io.Discard, &stderr); code != 2 {
		t.Fatalf("--max-items 0 exited %d: %s", code, stderr.String())
	}
}

func TestMCPHTTPAddresses(t *testing.T) {
	t.Setenv("SORTKEY_MCP_TOKEN", "")
	for _, tc := range []struct{ addr, token, want string }{
		{":8765", "", "127.0.0.1:8765"},
		{"127.0.0.1:8765", "", "127.0.0.1:8765"},
		{"localhost:8765", "", "localhost:8765"},
		{"[::1]:8765", "", "[::1]:8765"},
		{"0.0.0.0:8765", "chosen", "0.0.0.0:8765"},
	} {
		if got, err := mcpAddr(tc.addr, tc.token); err != nil || got != tc.want {
			t.Errorf("mcpAddr(%q, %q) = %q, %v; want %q", tc.addr, tc.token, got, err, tc.want)
		}
	}
	var stderr strings.Builder
	dir := filepath.Join(t.TempDir(), "data")
	code := mcpServe([]string{"--http", "0.0.0.0:0", "--data-dir", dir}, io.NopCloser(strings.NewReader("")), io.Discard, &stderr)
	if code != 2 || !strings.Contains(stderr.String(), "is not a loopback address: set the token") {
		t.Fatalf("--http on every address without a token exited %d: %s", code, stderr.String())
	}
	if _, err := os.Stat(dir); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("the refused command made its data directory: %v", err)
	}
}
