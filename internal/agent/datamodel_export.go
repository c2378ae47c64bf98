package agent

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/sortkeydb/sortkey/internal/agent/awscli"
	"github.com/sortkeydb/sortkey/internal/design"
	"github.com/sortkeydb/sortkey/internal/design/apply"
	"github.com/sortkeydb/sortkey/internal/inproc"
)

// ExportInput is data_model_export's input.
type ExportInput struct {
	DesignInput
	Params           map[string]CallParams `json:"params,omitempty" jsonschema:"how to call each pattern, by its number, as design_run takes them: bindings, values, limit, backward, consistent. A pattern without bindings takes them from an exported item of an entity it returns"`
	MaxItemsPerTable int                   `json:"max_items_per_table,omitempty" jsonschema:"the items of each table to export, read by a Scan from its start (default 25, at most 1000)"`
}

// ExportReport is data_model_export's result.
type ExportReport struct {
	Model    string   `json:"model" jsonschema:"the dynamodb_data_model.json text: tables (CreateTable inputs), items (PutRequests by table) and access_patterns (each with its aws dynamodb CLI command, or a reason)"`
	Warnings []string `json:"warnings,omitempty" jsonschema:"what the model leaves out: write patterns, TTL settings, items beyond the cap, and patterns exported with a reason instead of a command"`
}

const (
	toolDataModelExport = "data_model_export"
	defaultExportItems  = 25
	maxExportItems      = sampleSize

	msgExportItems    = "max_items_per_table is %d: give 1 to %d, or leave it out for %d"
	warnWrite         = "write pattern %s (%s, %s) is not exported: a dynamodb_data_model.json's patterns here are the design's reads"
	warnTTL           = "table %s: Time to Live on %s is not part of a CreateTable input and is not exported"
	warnMoreItems     = "table %s: only its first %d items are exported (max_items_per_table)"
	warnNoTable       = "table %s does not exist on this sortkey: no items exported (%v)"
	warnNotImplement  = "pattern %s has a reason and no implementation: %s"
	msgExportEncoding = "pattern %s: %v"
)

func addDataModelExport(s *mcp.Server, h http.Handler, _ Options) {
	mcp.AddTool(s, &mcp.Tool{Name: toolDataModelExport, Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true},
		Description: "Exports a design as a dynamodb_data_model.json (the data model file of AWS's DynamoDB MCP server): " +
			"its tables as CreateTable inputs, each table's first items on this sortkey as PutRequests, and each read access pattern " +
			"with the aws dynamodb CLI command that sends the request design_run would send. " +
			"data_model_validate, here or on another sortkey, runs the file back."}, exporter(h))
}

func exporter(h http.Handler) mcp.ToolHandlerFor[ExportInput, ExportReport] {
	api := inproc.Client{API: h}
	return func(ctx context.Context, _ *mcp.CallToolRequest, in ExportInput) (*mcp.CallToolResult, ExportReport, error) {
		d, err := design.Parse([]byte(in.Design), fileName(in.File))
		if err != nil {
			return nil, ExportReport{}, err
		}
		limit, err := exportLimit(in.MaxItemsPerTable)
		if err != nil {
			return nil, ExportReport{}, err
		}
		if _, err := selected(d, RunInput{Params: in.Params}); err != nil {
			return nil, ExportReport{}, err
		}
		x := &export{run: *newRun(api, d, in.Params), limit: limit}
		rep, err := x.model(ctx)
		return nil, rep, err
	}
}

func exportLimit(n int) (int, error) {
	switch {
	case n == 0:
		return defaultExportItems, nil
	case n < 0 || n > maxExportItems:
		return 0, fmt.Errorf(msgExportItems, n, maxExportItems, defaultExportItems)
	}
	return n, nil
}

// export is one data_model_export call: a design_run that writes its
// requests out instead of sending them.
type export struct {
	run
	limit    int
	warnings []string
}

// modelOut is the file: its keys in the order AWS's server writes them.
type modelOut struct {
	Tables         []map[string]any            `json:"tables"`
	Items          map[string][]map[string]any `json:"items"`
	AccessPatterns []patternOut                `json:"access_patterns"`
}

// patternOut is one entry of access_patterns.
type patternOut struct {
	Pattern        string  `json:"pattern"`
	Description    string  `json:"description"`
	Table          string  `json:"table"`
	Index          *string `json:"index"`
	Operation      string  `json:"dynamodb_operation"`
	Implementation string  `json:"implementation,omitempty"`
	Reason         string  `json:"reason,omitempty"`
}

func (x *export) model(ctx context.Context) (ExportReport, error) {
	m := modelOut{Tables: []map[string]any{}, Items: map[string][]map[string]any{}, AccessPatterns: []patternOut{}}
	for _, t := range x.d.Tables {
		create, err := createTable(t)
		if err != nil {
			return ExportReport{}, err
		}
		m.Tables = append(m.Tables, create)
		m.Items[t.Name] = x.items(ctx, t.Name)
		x.warnIf(t.TTL != "", warnTTL, t.Name, t.TTL)
	}
	for i := range x.d.Patterns {
		p, err := x.pattern(ctx, &x.d.Patterns[i])
		if err != nil {
			return ExportReport{}, err
		}
		m.AccessPatterns = append(m.AccessPatterns, p)
	}
	for _, w := range x.d.Writes {
		x.warnIf(true, warnWrite, w.Number, w.Name, w.Operation)
	}
	text, err := indented(m)
	return ExportReport{Model: text, Warnings: x.warnings}, err
}

func (x *export) warnIf(cond bool, format string, args ...any) {
	if cond {
		x.warnings = append(x.warnings, fmt.Sprintf(format, args...))
	}
}

// createTable is the CreateTable input design_apply sends for t, as
// DynamoDB JSON without the members it leaves unset.
func createTable(t design.Table) (map[string]any, error) {
	var v any
	if err := roundTrip(apply.CreateTableInput(t), &v); err != nil {
		return nil, err
	}
	m, _ := pruned(v).(map[string]any)
	return m, nil
}

// pruned is v without nulls, empty strings and empty lists: the SDK's
// unset members, which its own serializer leaves out too.
func pruned(v any) any {
	switch t := v.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, e := range t {
			if e = pruned(e); e != nil {
				out[k] = e
			}
		}
		return out
	case []any:
		if len(t) == 0 {
			return nil
		}
		for i := range t {
			t[i] = pruned(t[i])
		}
	case string:
		if t == "" {
			return nil
		}
	}
	return v
}

// items are the table's first items as PutRequests. They are also the
// run's sample, so that every pattern binds to an item the file holds.
func (x *export) items(ctx context.Context, table string) []map[string]any {
	found, more, err := x.scan(ctx, table)
	x.warnIf(err != nil, warnNoTable, table, err)
	x.warnIf(more, warnMoreItems, table, x.limit)
	x.samples[table] = found
	puts := []map[string]any{}
	for _, item := range found {
		puts = append(puts, map[string]any{"PutRequest": map[string]any{"Item": item}})
	}
	return puts
}

// scan reads up to x.limit items, and says whether more follow: it asks
// for one more, as a LastEvaluatedKey may follow the last item.
func (x *export) scan(ctx context.Context, table string) ([]map[string]any, bool, error) {
	var items []map[string]any
	req := map[string]any{"TableName": table}
	for {
		req["Limit"] = x.limit + 1 - len(items)
		var out map[string]any
		if err := x.api.Call(ctx, "Scan", req, &out); err != nil {
			return nil, false, err
		}
		for _, it := range asList(out["Items"]) {
			items = append(items, asMap(it))
		}
		last, more := out["LastEvaluatedKey"]
		if len(items) > x.limit {
			return items[:x.limit], true, nil
		}
		if !more {
			return items, false, nil
		}
		req["ExclusiveStartKey"] = last
	}
}

// pattern is p's entry: the command for design_run's request, or the
// reason there is none.
func (x *export) pattern(ctx context.Context, p *design.Pattern) (patternOut, error) {
	out := patternOut{Pattern: p.Number, Description: p.Name, Table: p.Table, Operation: p.Operation}
	if p.Index != "" {
		out.Index = &p.Index
	}
	call, err := x.prepare(ctx, p, &PatternRun{})
	if err != nil {
		out.Reason = err.Error()
		x.warnIf(true, warnNotImplement, p.Number, out.Reason)
		return out, nil
	}
	if out.Implementation, err = awscli.Format(p.Operation, call); err != nil {
		return out, fmt.Errorf(msgExportEncoding, p.Number, err)
	}
	return out, nil
}

// indented is v as JSON indented by two spaces, as AWS's server writes
// the file, with <, > and & as written.
func indented(v any) (string, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	err := enc.Encode(v)
	return b.String(), err
}
