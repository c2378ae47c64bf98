package agent

import (
	"context"
	"fmt"
	"net/http"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/sortkeydb/sortkey/internal/inproc"
	"github.com/sortkeydb/sortkey/internal/version"
)

// DefaultMaxItems is the items one Query or Scan returns at most when
// Options.MaxItems is 0: enough to see a partition's shape, small enough
// for an agent's context.
const DefaultMaxItems = 100

// Options bound what the tools may do.
type Options struct {
	// ReadOnly refuses every tool that writes.
	ReadOnly bool
	// MaxItems caps the items of one Query or Scan (DefaultMaxItems if 0).
	MaxItems int
	// MaxBytes caps the JSON of a data tool's answer (DefaultMaxBytes if 0).
	MaxBytes int
}

const msgReadOnly = "%s writes, and this server is read-only (sortkey mcp --read-only)"

// operation is one data tool: the DynamoDB operation it sends.
type operation struct {
	tool, op string
	writes   bool
	paged    bool   // Query and Scan: Limit is capped at MaxItems
	target   string // the X-Amz-Target prefix: DynamoDB's when empty
	// statements is where a PartiQL request holds its statements: a
	// read-only server sends it only when every one is a SELECT.
	statements statementsAt
}

var operations = []operation{
	{tool: "list_tables", op: "ListTables"},
	{tool: "describe_table", op: "DescribeTable"},
	{tool: "create_table", op: "CreateTable", writes: true},
	{tool: "update_table", op: "UpdateTable", writes: true},
	{tool: "delete_table", op: "DeleteTable", writes: true},
	{tool: "get_item", op: "GetItem"},
	{tool: "put_item", op: "PutItem", writes: true},
	{tool: "update_item", op: "UpdateItem", writes: true},
	{tool: "delete_item", op: "DeleteItem", writes: true},
	{tool: "query", op: "Query", paged: true},
	{tool: "scan", op: "Scan", paged: true},
	{tool: "search_vectors", op: "SearchVectors"},
	{tool: "batch_get_item", op: "BatchGetItem"},
	{tool: "batch_write_item", op: "BatchWriteItem", writes: true},
	{tool: "transact_get_items", op: "TransactGetItems"},
	{tool: "transact_write_items", op: "TransactWriteItems", writes: true},
	{tool: "execute_statement", op: "ExecuteStatement", statements: oneStatement},
	{tool: "execute_transaction", op: "ExecuteTransaction", statements: listedIn("TransactStatements")},
	{tool: "batch_execute_statement", op: "BatchExecuteStatement", statements: listedIn("Statements")},
	{tool: "describe_time_to_live", op: "DescribeTimeToLive"},
	{tool: "update_time_to_live", op: "UpdateTimeToLive", writes: true},
	{tool: "create_backup", op: "CreateBackup", writes: true},
	{tool: "describe_backup", op: "DescribeBackup"},
	{tool: "list_backups", op: "ListBackups"},
	{tool: "delete_backup", op: "DeleteBackup", writes: true},
	{tool: "restore_table_from_backup", op: "RestoreTableFromBackup", writes: true},
	{tool: "list_streams", op: "ListStreams", target: streamsTarget},
	{tool: "describe_stream", op: "DescribeStream", target: streamsTarget},
	{tool: "get_shard_iterator", op: "GetShardIterator", target: streamsTarget},
	{tool: "get_records", op: "GetRecords", target: streamsTarget},
}

// Answer is a data tool's result. The handler encodes it itself (see
// handler), so its jsonschema tags document it for readers, not clients.
type Answer struct {
	Response  map[string]any `json:"response" jsonschema:"DynamoDB's answer, exactly as the API Reference defines it (attribute values in DynamoDB JSON)"`
	Truncated bool           `json:"truncated,omitempty" jsonschema:"true when the answer stopped at the server's item or byte cap: send the request again with ExclusiveStartKey set to the answer's LastEvaluatedKey for more; for a write, the answer lost the members named in dropped"`
	PlainJSON bool           `json:"plainJSON,omitempty" jsonschema:"true when the answer's attribute values are plain JSON, as the request asked"`
	Dropped   []string       `json:"dropped,omitempty" jsonschema:"the members of a write's answer removed to fit the byte cap; the write itself succeeded"`
}

// New is the MCP server whose tools act on the DynamoDB API that h
// serves.
func New(h http.Handler, opts Options) *mcp.Server {
	if opts.MaxItems <= 0 {
		opts.MaxItems = DefaultMaxItems
	}
	if opts.MaxBytes <= 0 {
		opts.MaxBytes = DefaultMaxBytes
	}
	s := mcp.NewServer(&mcp.Implementation{Name: "sortkey", Version: version.Get().Version}, nil)
	for _, o := range operations {
		mcp.AddTool(s, o.describe(), o.handler(h, opts))
	}
	addDesignTools(s, h, opts)
	addRunTool(s, h, opts)
	addCollectionTool(s, h, opts)
	addMoreTools(s, h, opts)
	addDataModelTools(s, h, opts)
	addDataModelExport(s, h, opts)
	return s
}

func (o operation) describe() *mcp.Tool {
	api := "DynamoDB"
	if o.target == streamsTarget {
		api = "DynamoDB Streams"
	}
	d := fmt.Sprintf("Sends a %s %s request to sortkey and returns DynamoDB's answer. "+
		"The input is the request exactly as the DynamoDB API Reference defines %s, attribute values in DynamoDB JSON "+
		`(for example {"S": "abc"}, {"N": "12"}); an error is DynamoDB's own type and message.`, api, o.op, o.op)
	if o.paged {
		d += " At most the server's item cap is returned per call; the answer says truncated and gives LastEvaluatedKey to continue from."
	}
	d += bytesNote
	if plainOps[o.op] {
		d += plainNote
	}
	return &mcp.Tool{Name: o.tool, Description: d, Annotations: &mcp.ToolAnnotations{ReadOnlyHint: !o.writes && o.statements == nil}}
}

// handler answers with the answer's JSON itself, not an Answer for the
// SDK to encode: the SDK checks an answer against its output schema by
// decoding it to float64s and encoding it again, which would round a
// plain number's 38 digits to 17.
func (o operation) handler(h http.Handler, opts Options) mcp.ToolHandlerFor[map[string]any, any] {
	api := inproc.Client{API: h, Target: o.target}
	return func(ctx context.Context, req *mcp.CallToolRequest, in map[string]any) (*mcp.CallToolResult, any, error) {
		plain, err := plainInput(in, req.Params.Arguments)
		if err != nil {
			return nil, nil, err
		}
		if opts.ReadOnly && o.refused(in) {
			return nil, nil, fmt.Errorf(msgReadOnly, o.tool)
		}
		capped := o.paged && capLimit(in, opts.MaxItems)
		c := call{o: o, api: api, max: opts.MaxBytes, plain: plain, writes: o.refused(in)}
		b, err := c.answer(ctx, in, capped)
		return nil, b, err
	}
}

// refused reports whether a read-only server refuses the request.
func (o operation) refused(in map[string]any) bool {
	if o.statements != nil {
		return !allSelects(o.statements(in))
	}
	return o.writes
}

// capLimit lowers the request's Limit to max, and reports whether it did.
// A Limit that is not a number is left for the API to refuse.
func capLimit(in map[string]any, max int) bool {
	v, present := in["Limit"]
	if n, isNumber := v.(float64); present && (!isNumber || n <= float64(max)) {
		return false
	}
	in["Limit"] = max
	return true
}
