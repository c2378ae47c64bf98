package agent_test

import (
	"context"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/sortkeydb/sortkey"
	"github.com/sortkeydb/sortkey/internal/agent"
)

// connectDB serves the tools of a fresh in-memory sortkey opened with
// dbOpts (InMemory set) and returns a client session to them.
func connectDB(t testing.TB, dbOpts sortkey.Options, opts agent.Options) *mcp.ClientSession {
	t.Helper()
	dbOpts.InMemory = true
	db, err := sortkey.Open("", &dbOpts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	ctx := context.Background()
	serverEnd, clientEnd := mcp.NewInMemoryTransports()
	ss, err := agent.New(db.Handler(), opts).Connect(ctx, serverEnd, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, clientEnd, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// virtualAdmin is the options the clock and fault tools need: a virtual
// clock started at a fixed time, and the admin API.
func virtualAdmin() sortkey.Options {
	return sortkey.Options{Clock: sortkey.NewVirtualClock(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)), Admin: true, TTLInterval: -1}
}

// mustCall is callTool's answer, failing the test on a tool error.
func mustCall(t *testing.T, cs *mcp.ClientSession, tool, args string) map[string]any {
	t.Helper()
	out, e := callTool(t, cs, tool, args)
	if e != "" {
		t.Fatalf("%s %s: %s", tool, args, e)
	}
	return out
}

// response is a data tool's DynamoDB answer.
func response(out map[string]any) map[string]any {
	r, _ := out["response"].(map[string]any)
	return r
}
