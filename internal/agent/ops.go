package agent

import (
	"context"
	"net/http"
	"regexp"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/sortkeydb/sortkey/internal/inproc"
)

// streamsTarget is the X-Amz-Target prefix of the DynamoDB Streams API,
// which answers ListStreams, DescribeStream, GetShardIterator and
// GetRecords apart from DynamoDB's own operations.
const streamsTarget = "DynamoDBStreams_20120810."

// statementsAt finds a PartiQL request's statements. A statement that is
// missing or not a string comes back as nil, which is no SELECT.
type statementsAt func(in map[string]any) []any

// oneStatement is ExecuteStatement's single Statement.
func oneStatement(in map[string]any) []any { return []any{in["Statement"]} }

// listedIn is the Statement of each entry of the list member names
// (ExecuteTransaction's TransactStatements, BatchExecuteStatement's
// Statements). A member that is not a list is one unknown statement, so
// that a malformed request is refused rather than sent.
func listedIn(member string) statementsAt {
	return func(in map[string]any) []any {
		list, isList := in[member].([]any)
		if !isList {
			return []any{nil}
		}
		out := make([]any, len(list))
		for i, entry := range list {
			m, _ := entry.(map[string]any)
			out[i] = m["Statement"]
		}
		return out
	}
}

// selectStatement is a PartiQL statement that only reads.
var selectStatement = regexp.MustCompile(`(?i)^\s*SELECT\b`)

// allSelects reports whether every statement is a SELECT.
func allSelects(statements []any) bool {
	for _, s := range statements {
		text, isText := s.(string)
		if !isText || !selectStatement.MatchString(text) {
			return false
		}
	}
	return true
}

// addMoreTools registers the tools beyond the DynamoDB operations and
// design_check/design_apply: design documents, conversions and cost, the
// virtual clock and fault rules.
func addMoreTools(s *mcp.Server, h http.Handler, opts Options) {
	s.AddReceivingMiddleware(answerDrops)
	addDesignDocTools(s)
	addClockTools(s, h, opts)
	addFaultTools(s, h, opts)
}

// answerDrops turns a fault rule's dropped connection, which the API
// handler signals by panicking with http.ErrAbortHandler, into the tool
// error a client over HTTP would see as a closed connection, instead of
// a panic that would end the whole MCP server.
func answerDrops(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (res mcp.Result, err error) {
		defer func() {
			if p := recover(); p == http.ErrAbortHandler {
				res, err = &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: inproc.ErrDropped.Error()}}}, nil
			} else if p != nil {
				panic(p)
			}
		}()
		return next(ctx, method, req)
	}
}
