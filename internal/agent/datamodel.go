package agent

import (
	"context"
	"fmt"
	"net/http"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/sortkeydb/sortkey/internal/inproc"
)

// DataModelInput is data_model_validate's input.
type DataModelInput struct {
	Model   string `json:"model" jsonschema:"the text of a dynamodb_data_model.json, as AWS's DynamoDB MCP server writes it: tables (CreateTable inputs), items (BatchWriteItem RequestItems by table) and access_patterns (each with its aws dynamodb CLI command in implementation)"`
	Replace bool   `json:"replace,omitempty" jsonschema:"delete and recreate the model's tables that already exist; without it an existing table is an error and nothing is changed"`
}

// DataModelReport is data_model_validate's result.
type DataModelReport struct {
	Valid    bool            `json:"valid" jsonschema:"true when every item was written and every implemented access pattern ran without error"`
	Tables   []TableLoad     `json:"tables" jsonschema:"each table of the model: created (or replaced) and the items written to it"`
	Patterns []PatternResult `json:"patterns" jsonschema:"each access pattern in the model's order"`
	Totals   PatternTotals   `json:"totals"`
}

// TableLoad is one table of the model, created and loaded.
type TableLoad struct {
	Table    string   `json:"table"`
	Replaced bool     `json:"replaced,omitempty" jsonschema:"the table existed and was deleted and created again"`
	Items    int      `json:"items" jsonschema:"the items written to it"`
	Errors   []string `json:"errors,omitempty" jsonschema:"each item that could not be written: its place in the model and DynamoDB's error"`
}

// PatternResult is one access pattern run on the model's tables.
type PatternResult struct {
	Pattern     string   `json:"pattern"`
	Description string   `json:"description,omitempty"`
	Operation   string   `json:"operation,omitempty"`
	Table       string   `json:"table,omitempty"`
	Index       string   `json:"index,omitempty"`
	Status      string   `json:"status" jsonschema:"ok, error, or skipped (a pattern the model gives only a reason for)"`
	Error       string   `json:"error,omitempty" jsonschema:"DynamoDB's error type and message"`
	Reason      string   `json:"reason,omitempty" jsonschema:"why the model does not implement the pattern in DynamoDB"`
	Items       int      `json:"items" jsonschema:"the items returned, as the AWS CLI would print them (after paging, up to --max-items)"`
	Scanned     int      `json:"scanned" jsonschema:"the items read before any filter"`
	Pages       int      `json:"pages" jsonschema:"the requests sent: the CLI pages a Query or Scan to its end"`
	ReadUnits   float64  `json:"read_units" jsonschema:"read capacity units consumed, table and indexes"`
	WriteUnits  float64  `json:"write_units" jsonschema:"write capacity units consumed, table and indexes"`
	Served      string   `json:"served,omitempty" jsonschema:"key (GetItem, BatchGetItem, TransactGetItems and the writes), key condition (a Query), scan (a Scan: flagged) or statement (PartiQL)"`
	Flags       []string `json:"flags,omitempty" jsonschema:"what a designer should look at: a Scan, a filter that discards most of what it reads, paging stopped at the server's cap"`
	Truncated   bool     `json:"truncated,omitempty" jsonschema:"paging stopped at the server's cap of pages (sortkey mcp --max-items) before the end"`
}

// PatternTotals sums the patterns.
type PatternTotals struct {
	Patterns   int     `json:"patterns"`
	OK         int     `json:"ok"`
	Errors     int     `json:"errors"`
	Skipped    int     `json:"skipped"`
	Items      int     `json:"items"`
	ReadUnits  float64 `json:"read_units"`
	WriteUnits float64 `json:"write_units"`
}

const toolDataModel = "data_model_validate"

func addDataModelTools(s *mcp.Server, h http.Handler, opts Options) {
	mcp.AddTool(s, &mcp.Tool{Name: toolDataModel,
		Description: "Validates a dynamodb_data_model.json (the data model file of AWS's DynamoDB MCP server) on this sortkey: " +
			"creates its tables, writes its items and runs every access pattern's aws dynamodb CLI command, paging as the CLI does. " +
			"The whole file is checked first and refused, with every problem named, before anything changes. " +
			"Reports per pattern the status, DynamoDB's error, items returned and read, pages, read and write capacity units, " +
			"whether a key, a key condition or a Scan served it, and filters that discard most of what they read."},
		dataModelValidator(h, opts))
}

func dataModelValidator(h http.Handler, opts Options) mcp.ToolHandlerFor[DataModelInput, DataModelReport] {
	return func(ctx context.Context, _ *mcp.CallToolRequest, in DataModelInput) (*mcp.CallToolResult, DataModelReport, error) {
		if opts.ReadOnly {
			return nil, DataModelReport{}, fmt.Errorf(msgReadOnly, toolDataModel)
		}
		m, err := parseDataModel(in.Model)
		if err != nil {
			return nil, DataModelReport{}, err
		}
		v := &validator{api: inproc.Client{API: h}, maxPages: max(opts.MaxItems, 1), model: m}
		rep, err := v.validate(ctx, in.Replace)
		return nil, rep, err
	}
}

// validate loads the model's tables and items, then runs its patterns.
func (v *validator) validate(ctx context.Context, replace bool) (DataModelReport, error) {
	tables, err := v.createTables(ctx, replace)
	if err != nil {
		return DataModelReport{}, err
	}
	rep := DataModelReport{Tables: tables, Patterns: []PatternResult{}, Valid: true}
	for i := range rep.Tables {
		v.loadItems(ctx, &rep.Tables[i])
		rep.Valid = rep.Valid && len(rep.Tables[i].Errors) == 0
	}
	for i, p := range v.model.patterns {
		r := v.runPattern(ctx, p, v.model.commands[i])
		rep.Totals.add(r)
		rep.Patterns = append(rep.Patterns, r)
	}
	rep.Valid = rep.Valid && rep.Totals.Errors == 0
	return rep, nil
}

func (t *PatternTotals) add(r PatternResult) {
	t.Patterns++
	switch r.Status {
	case statusOK:
		t.OK++
	case statusError:
		t.Errors++
	default:
		t.Skipped++
	}
	t.Items += r.Items
	t.ReadUnits += r.ReadUnits
	t.WriteUnits += r.WriteUnits
}
