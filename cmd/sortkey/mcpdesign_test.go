package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// mcpChildEnv makes this test binary `sortkey mcp` with the flags it
// holds (TestMain), so that the tests drive the command as an agent's
// client starts it, with no separate build.
const mcpChildEnv = "SORTKEY_MCP_CHILD_ARGS"

// exampleDesigns are the five reference systems, by their folder under
// examples/.
var exampleDesigns = []string{"shop", "chat", "market", "menus", "nishiki"}

// firstCall is a coverage report's record of a pattern's first call:
// how the program called it, and (measured again on the data the program
// left, which the agent sees) what that call reads and costs.
type firstCall struct {
	Bindings  map[string]string `json:"bindings"`
	Operation string            `json:"operation"`
	Request   map[string]any    `json:"request"`
	Items     int64
	Scanned   int64
	RCU       float64
}

type coverageReport struct {
	Patterns []struct {
		Number string          `json:"number"`
		Kind   string          `json:"kind"`
		First  json.RawMessage `json:"first"`
		// Replayed is First sent again on the data the program left.
		Replayed *firstCall `json:"-"`
	} `json:"patterns"`
}

// TestMCPValidatesTheExampleDesigns is issue 36's end-to-end check. Each
// example program runs against `sortkey serve --design`, whose coverage
// report records how the program first called each access pattern and
// what the call cost. Then `sortkey mcp`, on the same data directory,
// over stdio and over HTTP, checks the design, finds its tables as
// designed, and runs every access pattern: each must fit its own pattern,
// be served as designed, and, called as the program called it, read and
// cost exactly what the program's call did.
func TestMCPValidatesTheExampleDesigns(t *testing.T) {
	bin := t.TempDir()
	for _, name := range exampleDesigns {
		build := exec.Command("go", "build", "-o", filepath.Join(bin, name), "./examples/"+name)
		build.Dir = filepath.Join("..", "..")
		if out, err := build.CombinedOutput(); err != nil {
			t.Fatalf("building example %s: %v\n%s", name, err, out)
		}
	}
	for _, name := range exampleDesigns {
		t.Run(name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			doc, err := os.ReadFile(filepath.Join("..", "..", "examples", name, "design.yaml"))
			if err != nil {
				t.Fatal(err)
			}
			dir := t.TempDir()
			report := runExample(ctx, t, filepath.Join(bin, name), dir, string(doc))
			var model string
			for _, transport := range []string{"stdio", "http"} {
				cs := startMCP(ctx, t, transport, dir)
				runs := validateDesign(ctx, t, cs, string(doc), report)
				model = exportModel(ctx, t, cs, string(doc), report)
				cs.Close()
				validateExport(ctx, t, model, runs)
			}
		})
	}
}

// runExample runs the example program against a server keeping its data
// in dir and returns the design coverage report of the run.
func runExample(ctx context.Context, t *testing.T, program, dir, doc string) coverageReport {
	t.Helper()
	designFile := filepath.Join(t.TempDir(), "design.yaml")
	if err := os.WriteFile(designFile, []byte(doc), 0o600); err != nil {
		t.Fatal(err)
	}
	srv := startServe(ctx, t, "--data-dir", dir, "--design", designFile)
	if out, err := exec.CommandContext(ctx, program, "--endpoint", srv.url).CombinedOutput(); err != nil {
		t.Fatalf("the example program: %v\n%s", err, out)
	}
	resp, err := http.Get(srv.url + "/sortkey/design/report")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var rep coverageReport
	if err := json.NewDecoder(resp.Body).Decode(&rep); err != nil {
		t.Fatal(err)
	}
	for i, p := range rep.Patterns {
		if p.First != nil {
			rep.Patterns[i].Replayed = replay(t, srv.url, p.First)
		}
	}
	srv.stop(t)
	return rep
}

// replay sends a recorded call again, asking for its capacity, and
// returns it with what the call reads and costs now. The
// program's calls ran while it was still writing its sample; the agent
// runs on the data the program left.
func replay(t *testing.T, url string, raw json.RawMessage) *firstCall {
	t.Helper()
	var f firstCall
	if err := json.Unmarshal(raw, &f); err != nil {
		t.Fatal(err)
	}
	f.Request["ReturnConsumedCapacity"] = "TOTAL"
	body, _ := json.Marshal(f.Request)
	req, _ := http.NewRequest(http.MethodPost, url, bytes.NewReader(body))
	req.Header.Set("X-Amz-Target", "DynamoDB_20120810."+f.Operation)
	req.Header.Set("Content-Type", "application/x-amz-json-1.0")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out map[string]any
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("replaying %s %s: %d %v %v", f.Operation, body, resp.StatusCode, out, err)
	}
	f.Items, f.Scanned, f.RCU = measured(f.Operation, out)
	return &f
}

// measured is what an answer says was returned, read and consumed.
func measured(op string, out map[string]any) (items, scanned int64, rcu float64) {
	switch c := out["ConsumedCapacity"].(type) {
	case map[string]any:
		rcu = c["CapacityUnits"].(float64)
	case []any:
		for _, one := range c {
			rcu += one.(map[string]any)["CapacityUnits"].(float64)
		}
	}
	switch op {
	case "Query", "Scan":
		return int64(out["Count"].(float64)), int64(out["ScannedCount"].(float64)), rcu
	case "GetItem":
		return int64(boolInt(out["Item"] != nil)), 0, rcu
	case "BatchGetItem":
		for _, list := range out["Responses"].(map[string]any) {
			items += int64(len(list.([]any)))
		}
		return items, 0, rcu
	}
	for _, r := range out["Responses"].([]any) {
		items += int64(boolInt(r.(map[string]any)["Item"] != nil))
	}
	return items, 0, rcu
}

// startMCP starts `sortkey mcp --data-dir dir` and connects to it over
// transport, stdio or http.
func startMCP(ctx context.Context, t *testing.T, transport, dir string) *mcp.ClientSession {
	t.Helper()
	args, addr := "--data-dir "+dir, ""
	if transport == "http" {
		addr = freeAddr(t)
		args += " --http " + addr + " --http-token e2e-token"
	}
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), mcpChildEnv+"="+args)
	var tr mcp.Transport = &mcp.CommandTransport{Command: cmd}
	if transport == "http" {
		tr = &mcp.StreamableClientTransport{Endpoint: "http://" + addr + "/mcp", MaxRetries: -1,
			HTTPClient: &http.Client{Transport: bearer{"e2e-token"}}}
		cmd.Stderr = io.Discard
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = cmd.Process.Signal(os.Interrupt); _ = cmd.Wait() })
		waitListening(t, addr)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "e2e", Version: "1"}, nil).Connect(ctx, tr, nil)
	if err != nil {
		t.Fatalf("connecting over %s: %v", transport, err)
	}
	return cs
}

// patternRun is what design_run says one pattern read and cost.
type patternRun struct {
	Number, Operation, Served, CountedAs, Error string
	Items, Scanned                              int64
	RCU                                         float64
}

// params are the report's first calls, as design_run takes them.
func params(rep coverageReport) map[string]json.RawMessage {
	out := map[string]json.RawMessage{}
	for _, p := range rep.Patterns {
		if p.Kind == "read" && p.First != nil {
			out[p.Number] = p.First
		}
	}
	return out
}

func validateDesign(ctx context.Context, t *testing.T, cs *mcp.ClientSession, doc string, rep coverageReport) []patternRun {
	t.Helper()
	var check struct{ Errors int }
	callJSON(ctx, t, cs, "design_check", map[string]any{"design": doc}, &check)
	var apply struct {
		Changes []string
		Matches bool
	}
	callJSON(ctx, t, cs, "design_apply", map[string]any{"design": doc, "dry_run": true}, &apply)
	if check.Errors != 0 || !apply.Matches || len(apply.Changes) != 0 {
		t.Fatalf("design_check found %d errors; design_apply would change %v", check.Errors, apply.Changes)
	}
	firsts := map[string]firstCall{}
	for _, p := range rep.Patterns {
		if p.Replayed != nil {
			firsts[p.Number] = *p.Replayed
		}
	}
	var run struct {
		Patterns []patternRun
		Failed   int
	}
	callJSON(ctx, t, cs, "design_run", map[string]any{"design": doc, "params": params(rep)}, &run)
	reads := 0
	for _, p := range rep.Patterns {
		reads += boolInt(p.Kind == "read")
	}
	if len(run.Patterns) != reads || run.Failed != 0 {
		t.Errorf("design_run ran %d of %d access patterns, %d failed", len(run.Patterns), reads, run.Failed)
	}
	for _, got := range run.Patterns {
		if got.Error != "" || got.CountedAs != got.Number || (got.Served == "scan") != (got.Operation == "Scan") {
			t.Errorf("pattern %s: %s, counted as %q, served by %s", got.Number, got.Error, got.CountedAs, got.Served)
		}
		want, called := firsts[got.Number]
		if called && (got.Items != want.Items || got.Scanned != want.Scanned || got.RCU != want.RCU) {
			t.Errorf("pattern %s read %d items (%d scanned) for %v RCU; the example's call read %d (%d) for %v RCU (bindings %v)",
				got.Number, got.Items, got.Scanned, got.RCU, want.Items, want.Scanned, want.RCU, want.Bindings)
		}
	}
	t.Logf("%d access patterns run: %d as the program called them, the others with key values from its data", len(run.Patterns), len(firsts))
	return run.Patterns
}

// exportModel exports the design, its data and its calls as a
// dynamodb_data_model.json.
func exportModel(ctx context.Context, t *testing.T, cs *mcp.ClientSession, doc string, rep coverageReport) string {
	t.Helper()
	var out struct{ Model string }
	callJSON(ctx, t, cs, "data_model_export", map[string]any{"design": doc, "params": params(rep), "max_items_per_table": 1000}, &out)
	return out.Model
}

// validateExport validates an exported model on a fresh `sortkey mcp`, as
// AWS's DynamoDB MCP server validates one on DynamoDB Local: every
// pattern must run and read and cost what design_run measured.
func validateExport(ctx context.Context, t *testing.T, model string, runs []patternRun) {
	t.Helper()
	fresh, _ := pipeSession(t)
	var v struct {
		Valid    bool
		Patterns []struct {
			Pattern, Status, Error string
			Items                  int64
			ReadUnits              float64 `json:"read_units"`
		}
	}
	callJSON(ctx, t, fresh, "data_model_validate", map[string]any{"model": model}, &v)
	if !v.Valid || len(v.Patterns) != len(runs) {
		t.Fatalf("the exported model: valid %v, %d patterns of %d", v.Valid, len(v.Patterns), len(runs))
	}
	for i, p := range v.Patterns {
		if r := runs[i]; p.Status != "ok" || p.Pattern != r.Number || p.Items != r.Items || p.ReadUnits != r.RCU {
			t.Errorf("exported pattern %s: %s %s, %d items for %v units; design_run: %d for %v", p.Pattern, p.Status, p.Error, p.Items, p.ReadUnits, r.Items, r.RCU)
		}
	}
}

// TestMCPValidatesADataModel validates the dynamodb_data_model.json of
// internal/agent's tests through the command, as an agent of AWS's
// DynamoDB MCP server would on DynamoDB Local.
func TestMCPValidatesADataModel(t *testing.T) {
	model, err := os.ReadFile(filepath.Join("..", "..", "internal", "agent", "testdata", "dynamodb_data_model.json"))
	if err != nil {
		t.Fatal(err)
	}
	cs, _ := pipeSession(t)
	var v struct {
		Valid    bool
		Patterns []struct{ Status string }
	}
	callJSON(context.Background(), t, cs, "data_model_validate", map[string]any{"model": string(model)}, &v)
	ran := 0
	for _, p := range v.Patterns {
		ran += boolInt(p.Status == "ok")
	}
	if !v.Valid || ran == 0 {
		t.Fatalf("valid %v, %d patterns ran: %+v", v.Valid, ran, v.Patterns)
	}
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// callJSON calls a tool and decodes its structured result into out.
func callJSON(ctx context.Context, t *testing.T, cs *mcp.ClientSession, tool string, args map[string]any, out any) {
	t.Helper()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", tool, err)
	}
	if res.IsError {
		t.Fatalf("%s: %s", tool, res.Content[0].(*mcp.TextContent).Text)
	}
	b, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(b, out); err != nil {
		t.Fatal(err)
	}
}

// bearer sends the MCP endpoint's token.
type bearer struct{ token string }

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return http.DefaultTransport.RoundTrip(r)
}

// freeAddr is a loopback address no one listens on now.
func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// waitListening waits until addr accepts connections.
func waitListening(t *testing.T, addr string) {
	t.Helper()
	for i := 0; i < 500; i++ {
		if c, err := net.Dial("tcp", addr); err == nil {
			c.Close()
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("sortkey mcp --http %s never listened", addr)
}
