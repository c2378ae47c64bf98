package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/sortkeydb/sortkey/internal/design"
	"github.com/sortkeydb/sortkey/internal/design/coverage"
	"github.com/sortkeydb/sortkey/internal/inproc"
)

// RunInput is design_run's input.
type RunInput struct {
	DesignInput
	Patterns []string              `json:"patterns,omitempty" jsonschema:"the numbers of the access patterns to run (default: every one, in the design's order)"`
	Params   map[string]CallParams `json:"params,omitempty" jsonschema:"how to call each pattern, by its number: bindings (the key templates' variables, e.g. {\"userId\": \"42\"}), values (the filter's :placeholders in DynamoDB JSON), limit, backward, consistent. The first member of each pattern in a coverage report (GET /sortkey/design/report) has this shape, so an application's own calls can be replayed. A pattern without bindings takes them from an item of an entity it returns, found in its table"`
}

// CallParams say how to call one pattern: the shape of a coverage
// report's first call, less its figures.
type CallParams struct {
	Bindings   map[string]string `json:"bindings,omitempty" jsonschema:"the key templates' variables, e.g. {\"userId\": \"42\"}"`
	Values     map[string]any    `json:"values,omitempty" jsonschema:"the filter's :placeholders, in DynamoDB JSON, e.g. {\":tp\": {\"S\": \"O\"}}"`
	Limit      int64             `json:"limit,omitempty" jsonschema:"the Limit to send (default: the pattern's pageSize)"`
	Backward   bool              `json:"backward,omitempty" jsonschema:"send ScanIndexForward false"`
	Consistent bool              `json:"consistent,omitempty" jsonschema:"send ConsistentRead true"`
	// A coverage report's first call also holds the request itself and
	// what it read and cost: accepted, so that it can be passed as it
	// is, and not used.
	Operation string         `json:"operation,omitempty" jsonschema:"not used: the recorded call's operation"`
	Request   map[string]any `json:"request,omitempty" jsonschema:"not used: the recorded call"`
	Items     int64          `json:"items,omitempty" jsonschema:"not used: what the recorded call returned"`
	Scanned   int64          `json:"scanned,omitempty" jsonschema:"not used: what the recorded call read"`
	RCU       float64        `json:"rcu,omitempty" jsonschema:"not used: what the recorded call consumed"`
}

// PatternRun is one access pattern's run: the request it became and
// what it read and cost.
type PatternRun struct {
	Number    string            `json:"number"`
	Name      string            `json:"name"`
	Operation string            `json:"operation"`
	Served    string            `json:"served,omitempty" jsonschema:"key (a read of whole primary keys), key condition (a Query), or scan (reads the whole table or index)"`
	Request   map[string]any    `json:"request,omitempty" jsonschema:"the request sent, in DynamoDB JSON"`
	Bindings  map[string]string `json:"bindings,omitempty"`
	// BindingsFrom says where the variables came from: params, or the
	// key of the item named.
	BindingsFrom       string  `json:"bindingsFrom,omitempty"`
	Items              int64   `json:"items"`
	Scanned            int64   `json:"scanned"`
	RCU                float64 `json:"rcu" jsonschema:"read capacity units the call consumed, table and indexes"`
	More               bool    `json:"more,omitempty" jsonschema:"the call stopped at its page size (Limit) or 1 MB with more to read: an application reads later pages with more calls"`
	FilterDiscardsMost bool    `json:"filterDiscardsMost,omitempty" jsonschema:"the filter discarded more than half of what was read and paid for"`
	CountedAs          string  `json:"countedAs,omitempty" jsonschema:"the pattern design coverage counts the request under: this pattern's number when the request fits the design"`
	Error              string  `json:"error,omitempty"`
}

// RunReport is design_run's result.
type RunReport struct {
	Design   string       `json:"design"`
	Patterns []PatternRun `json:"patterns"`
	Failed   int          `json:"failed" jsonschema:"patterns that could not run, or whose request design coverage counts under another pattern or none"`
	Scans    int          `json:"scans" jsonschema:"patterns served by a Scan"`
}

const (
	msgNoPattern    = "the design has no access pattern %q"
	msgNoParams     = "params names %q, which is not an access pattern of the design"
	msgNoValue      = "the filter uses %s: give its value in params[%q].values"
	msgNoItem       = "no item in table %s is one of %s with every variable of the key (%s): load sample items, or give the pattern's bindings in params"
	msgUnbound      = "variable {%s} has no value: give it in params[%q].bindings"
	msgUnmatched    = "design coverage counts this request under no pattern"
	msgOtherPattern = "design coverage counts this request under pattern %s"
)

func addRunTool(s *mcp.Server, h http.Handler, opts Options) {
	mcp.AddTool(s, &mcp.Tool{Name: "design_run", Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true},
		Description: "Runs a design's access patterns on this sortkey's tables and data, once each, and reports per pattern the request it sent, " +
			"the items it returned and read, the read capacity it consumed, whether more pages follow, whether a key condition served it " +
			"(a Scan is flagged) and the pattern design coverage counts it under. Key values come from params, or from an item found in the table. " +
			"Make the tables with design_apply and load items first."}, runner(h, opts))
}

func runner(h http.Handler, opts Options) mcp.ToolHandlerFor[RunInput, RunReport] {
	api := inproc.Client{API: h}
	return func(ctx context.Context, _ *mcp.CallToolRequest, in RunInput) (*mcp.CallToolResult, RunReport, error) {
		d, err := design.Parse([]byte(in.Design), fileName(in.File))
		if err != nil {
			return nil, RunReport{}, err
		}
		pats, err := selected(d, in)
		if err != nil {
			return nil, RunReport{}, err
		}
		r := newRun(api, d, in.Params)
		rep := RunReport{Design: d.Name, Patterns: []PatternRun{}}
		for _, p := range pats {
			pr := r.pattern(ctx, p)
			rep.Patterns = append(rep.Patterns, pr)
			rep.Failed += boolCount(pr.Error != "")
			rep.Scans += boolCount(pr.Served == "scan")
		}
		return nil, rep, nil
	}
}

func boolCount(b bool) int {
	if b {
		return 1
	}
	return 0
}

// selected are the patterns in.Patterns names, or all of them; params
// for a pattern the design lacks are refused rather than ignored.
func selected(d *design.Design, in RunInput) ([]*design.Pattern, error) {
	byNumber := map[string]*design.Pattern{}
	for i := range d.Patterns {
		byNumber[d.Patterns[i].Number] = &d.Patterns[i]
	}
	for n := range in.Params {
		if byNumber[n] == nil {
			return nil, fmt.Errorf(msgNoParams, n)
		}
	}
	if len(in.Patterns) == 0 {
		out := make([]*design.Pattern, len(d.Patterns))
		for i := range d.Patterns {
			out[i] = &d.Patterns[i]
		}
		return out, nil
	}
	for i := range d.Patterns {
		if _, taken := byNumber[d.Patterns[i].Name]; !taken {
			byNumber[d.Patterns[i].Name] = &d.Patterns[i]
		}
	}
	var out []*design.Pattern
	for _, n := range in.Patterns {
		if byNumber[n] == nil {
			return nil, fmt.Errorf(msgNoPattern, n)
		}
		out = append(out, byNumber[n])
	}
	return out, nil
}

// run is one design_run call.
type run struct {
	api     inproc.Client
	d       *design.Design
	params  map[string]CallParams
	samples map[string][]map[string]any // items read from each table, for bindings
	// rec classifies the run's calls; counted is each pattern's calls
	// so far, so that the pattern a call went to is the one that grew.
	rec     *coverage.Recorder
	counted map[string]int64
}

func (r *run) pattern(ctx context.Context, p *design.Pattern) PatternRun {
	pr := PatternRun{Number: p.Number, Name: p.Name, Operation: p.Operation, Served: served(p.Operation)}
	call, err := r.prepare(ctx, p, &pr)
	if err != nil {
		pr.Error = err.Error()
		return pr
	}
	pr.Request = call
	var out map[string]any
	if err := r.api.Call(ctx, p.Operation, call, &out); err != nil {
		pr.Error = err.Error()
		return pr
	}
	measure(&pr, out)
	r.classify(&pr, p, call, out)
	return pr
}

func served(op string) string {
	switch op {
	case "Query":
		return "key condition"
	case "Scan":
		return "scan"
	}
	return "key"
}

// prepare finds the pattern's variables and builds its request.
func (r *run) prepare(ctx context.Context, p *design.Pattern, pr *PatternRun) (map[string]any, error) {
	par := r.params[p.Number]
	pr.Bindings, pr.BindingsFrom = par.Bindings, "params"
	if len(par.Bindings) == 0 && len(p.Key) > 0 {
		var err error
		if pr.Bindings, pr.BindingsFrom, err = r.bindingsFromData(ctx, p); err != nil {
			return nil, err
		}
	}
	if len(pr.Bindings) == 0 {
		pr.BindingsFrom = ""
	}
	return r.request(p, pr.Bindings, par)
}

// measure takes the counts and capacity from a read's answer.
func measure(pr *PatternRun, out map[string]any) {
	pr.RCU = capacityOf(out["ConsumedCapacity"])
	_, pr.More = out["LastEvaluatedKey"]
	switch pr.Operation {
	case "Query", "Scan":
		pr.Items, pr.Scanned = number(out["Count"]), number(out["ScannedCount"])
		pr.FilterDiscardsMost = pr.Scanned > 2*pr.Items
	case "GetItem":
		pr.Items = int64(boolCount(out["Item"] != nil))
	case "BatchGetItem":
		for _, items := range asMap(out["Responses"]) {
			list, _ := items.([]any)
			pr.Items += int64(len(list))
		}
	case "TransactGetItems":
		for _, r := range asList(out["Responses"]) {
			pr.Items += int64(boolCount(asMap(r)["Item"] != nil))
		}
	}
}

// capacityOf sums CapacityUnits of one ConsumedCapacity or a list.
func capacityOf(v any) float64 {
	if m, ok := v.(map[string]any); ok {
		f, _ := m["CapacityUnits"].(float64)
		return f
	}
	var sum float64
	for _, c := range asList(v) {
		sum += capacityOf(c)
	}
	return sum
}

func number(v any) int64 {
	f, _ := v.(float64)
	return int64(f)
}

func asMap(v any) map[string]any {
	m, _ := v.(map[string]any)
	return m
}

func asList(v any) []any {
	l, _ := v.([]any)
	return l
}

// classify asks design coverage which pattern the request serves: the
// same classifier `sortkey serve --design` counts an application's
// requests with.
func (r *run) classify(pr *PatternRun, p *design.Pattern, call, out map[string]any) {
	in, res, err := decodeCall(p.Operation, call, out)
	if err != nil {
		pr.Error = err.Error()
		return
	}
	r.rec.Observe(p.Operation, in, res, nil, 0)
	for _, got := range r.rec.Report().Patterns {
		if got.Kind == "read" && got.Calls > r.counted[got.Number] {
			pr.CountedAs, r.counted[got.Number] = got.Number, got.Calls
			break
		}
	}
	switch pr.CountedAs {
	case p.Number:
	case "":
		pr.Error = msgUnmatched
	default:
		pr.Error = fmt.Sprintf(msgOtherPattern, pr.CountedAs)
	}
}

// roundTrip re-decodes v into out, a protocol type.
func roundTrip(v, out any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return json.Unmarshal(b, out)
}

func newRun(api inproc.Client, d *design.Design, params map[string]CallParams) *run {
	return &run{api: api, d: d, params: params, samples: map[string][]map[string]any{},
		rec: coverage.New(d), counted: map[string]int64{}}
}
