package agent

// The virtual clock and fault rules, through the same admin endpoints
// `sortkey serve` offers (POST /sortkey/clock, PUT /sortkey/faults),
// called in process so that the tools and a client over HTTP meet the
// same checks and answers.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/sortkeydb/sortkey/internal/clock"
	"github.com/sortkeydb/sortkey/internal/faults"
)

const msgNoFaults = "this sortkey serves no fault rules: the database behind the tools must be opened with sortkey.Options.Admin"

// admin calls an admin endpoint of h in process, as a client on this
// machine (admin endpoints answer no other).
func admin(ctx context.Context, h http.Handler, method, path string, body []byte) (int, []byte, error) {
	req, err := http.NewRequestWithContext(ctx, method, path, bytes.NewReader(body))
	if err != nil {
		return 0, nil, err
	}
	req.RemoteAddr = "127.0.0.1:0"
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec.Code, rec.Body.Bytes(), nil
}

// adminError is the error of an admin answer that is not a success: the
// endpoint's own words ("error" from the clock, "message" from the fault
// rules), or notMounted when the answer is not the endpoint's (the path
// fell through to the DynamoDB API).
func adminError(body []byte, notMounted string) error {
	var e struct {
		Error   string `json:"error"`
		Message string `json:"message"`
		Type    string `json:"__type"`
	}
	_ = json.Unmarshal(body, &e)
	switch {
	case e.Type != "" || e.Error == "" && e.Message == "":
		return errors.New(notMounted)
	case e.Error != "":
		return errors.New(e.Error)
	}
	return errors.New(e.Message)
}

// ClockMove is clock_advance's input: one of advance and set.
type ClockMove struct {
	Advance string `json:"advance,omitempty" jsonschema:"how far to move the clock forward: a Go duration such as 90s, 15m, 2h or 720h"`
	Set     string `json:"set,omitempty" jsonschema:"the RFC 3339 time to move the clock to, such as 2026-01-01T00:00:00Z; never earlier than now"`
}

// ClockTime is the clock tools' answer.
type ClockTime struct {
	Now string `json:"now" jsonschema:"the database's time now, RFC 3339"`
}

// msgRealClock is the clock tools' error on a database on the real clock:
// the endpoint's own words name serve's flag, which the MCP command may
// not have.
const msgRealClock = "this sortkey runs on the real clock, which cannot be moved: the database behind the tools must be opened with a virtual clock (sortkey.Options.Clock)"

func addClockTools(s *mcp.Server, h http.Handler, opts Options) {
	mcp.AddTool(s, &mcp.Tool{Name: "clock_get", Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true},
		Description: "Reads sortkey's virtual clock, the time Time to Live, stream retention and creation times follow. " +
			"An error says when the database runs on the real clock instead."},
		func(ctx context.Context, _ *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, ClockTime, error) {
			return clockCall(ctx, h, http.MethodGet, nil)
		})
	mcp.AddTool(s, &mcp.Tool{Name: "clock_advance",
		Description: "Moves sortkey's virtual clock forward, by a duration (advance) or to a time (set), never back. " +
			"Items whose Time to Live the move passes are deleted before the answer, with their stream records, as DynamoDB's TTL would in time."},
		func(ctx context.Context, _ *mcp.CallToolRequest, in ClockMove) (*mcp.CallToolResult, ClockTime, error) {
			if opts.ReadOnly {
				return nil, ClockTime{}, fmt.Errorf(msgReadOnly, "clock_advance")
			}
			body, _ := json.Marshal(in)
			return clockCall(ctx, h, http.MethodPost, body)
		})
}

func clockCall(ctx context.Context, h http.Handler, method string, body []byte) (*mcp.CallToolResult, ClockTime, error) {
	status, answer, err := admin(ctx, h, method, clock.Path, body)
	if err != nil {
		return nil, ClockTime{}, err
	}
	if status == http.StatusNotFound {
		return nil, ClockTime{}, errors.New(msgRealClock)
	}
	var out ClockTime
	if status != http.StatusOK || json.Unmarshal(answer, &out) != nil {
		return nil, ClockTime{}, adminError(answer, msgRealClock)
	}
	return nil, out, nil
}

// FaultRules is faults_set's input: a fault rule file as JSON.
type FaultRules struct {
	Seed  uint64           `json:"seed,omitempty" jsonschema:"the seed of every rule's random stream (probability), for a repeatable run"`
	Rules []map[string]any `json:"rules" jsonschema:"the rules, tried in order for each call, the first that fires applying (docs/TESTING-FAILURES.md). Match with operation, table, index, keyPrefix, principal; fire with probability, every, after, count, window; act with error (a DynamoDB error type such as ProvisionedThroughputExceededException), conflict, unprocessed, latency, drop or hold"`
}

// FaultStatus is the fault tools' answer: GET /sortkey/faults's. Rules
// are plain objects, not faults.RuleStatus, whose schema would cost every
// start of the server milliseconds to build.
type FaultStatus struct {
	Seed    uint64           `json:"seed"`
	Rules   []map[string]any `json:"rules" jsonschema:"the rules in force, in order, each as written with matched and fired: how many calls it matched and fired on"`
	Holding int              `json:"holding" jsonschema:"how many transactions hold rules keep in flight now"`
}

func addFaultTools(s *mcp.Server, h http.Handler, opts Options) {
	mcp.AddTool(s, &mcp.Tool{Name: "faults_set",
		Description: "Replaces sortkey's fault rules: errors, partial batches, latency and dropped connections on the calls they match, " +
			"as `sortkey serve --faults` injects them. A bad rule is refused, naming it and its member, and changes nothing. " +
			"Answers the rules in force with how many calls each matched and fired on."},
		func(ctx context.Context, _ *mcp.CallToolRequest, in FaultRules) (*mcp.CallToolResult, FaultStatus, error) {
			if opts.ReadOnly {
				return nil, FaultStatus{}, fmt.Errorf(msgReadOnly, "faults_set")
			}
			body, _ := json.Marshal(in)
			return faultsCall(ctx, h, http.MethodPut, body)
		})
	mcp.AddTool(s, &mcp.Tool{Name: "faults_list", Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true},
		Description: "Lists sortkey's fault rules in force, each with how many calls it matched and fired on."},
		func(ctx context.Context, _ *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, FaultStatus, error) {
			return faultsCall(ctx, h, http.MethodGet, nil)
		})
	mcp.AddTool(s, &mcp.Tool{Name: "faults_clear",
		Description: "Removes every fault rule, so that calls succeed or fail on their own again. Answers the (empty) rules in force."},
		func(ctx context.Context, _ *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, FaultStatus, error) {
			if opts.ReadOnly {
				return nil, FaultStatus{}, fmt.Errorf(msgReadOnly, "faults_clear")
			}
			if _, _, err := faultsCall(ctx, h, http.MethodDelete, nil); err != nil {
				return nil, FaultStatus{}, err
			}
			return faultsCall(ctx, h, http.MethodGet, nil)
		})
}

func faultsCall(ctx context.Context, h http.Handler, method string, body []byte) (*mcp.CallToolResult, FaultStatus, error) {
	status, answer, err := admin(ctx, h, method, faults.Path, body)
	if err != nil {
		return nil, FaultStatus{}, err
	}
	if method == http.MethodDelete && status == http.StatusNoContent {
		return nil, FaultStatus{}, nil
	}
	out := FaultStatus{Rules: []map[string]any{}}
	if status != http.StatusOK || json.Unmarshal(answer, &out) != nil {
		return nil, FaultStatus{}, adminError(answer, msgNoFaults)
	}
	return nil, out, nil
}
