package agent

import (
	"context"
	"fmt"
	"maps"

	"github.com/sortkeydb/sortkey/internal/agent/awscli"
)

const (
	statusOK      = "ok"
	statusError   = "error"
	statusSkipped = "skipped"

	servedKey       = "key"
	servedCondition = "key condition"
	servedScan      = "scan"
	servedStatement = "statement"

	flagScan      = "served by a Scan: it reads every item of the table or index, and its cost grows with the table"
	flagFilter    = "the filter discarded %d of the %d items the key condition read: a key or an index that selects them would read less"
	flagTruncated = "paging stopped after %d pages, the server's cap (sortkey mcp --max-items); the CLI would read on"
	flagNothing   = "returned no items: check the command's key values against the model's items"
	flagToken     = "--starting-token is the CLI's own token and is not followed: the pattern ran from the start"
)

// servedBy is how DynamoDB finds each operation's items.
var servedBy = map[string]string{
	"GetItem": servedKey, "BatchGetItem": servedKey, "TransactGetItems": servedKey,
	"PutItem": servedKey, "UpdateItem": servedKey, "DeleteItem": servedKey,
	"BatchWriteItem": servedKey, "TransactWriteItems": servedKey,
	"Query": servedCondition, "Scan": servedScan,
	"ExecuteStatement": servedStatement, "BatchExecuteStatement": servedStatement, "ExecuteTransaction": servedStatement,
}

// reads are the operations whose capacity is read capacity; a
// statement's kind is its own.
var reads = map[string]bool{"GetItem": true, "BatchGetItem": true, "TransactGetItems": true, "Query": true, "Scan": true}

// runPattern runs one pattern's command as the AWS CLI would, and
// measures it.
func (v *validator) runPattern(ctx context.Context, p accessPattern, cmd *awscli.Command) PatternResult {
	r := PatternResult{Pattern: string(p.Pattern), Description: p.Description, Table: deref(p.Table),
		Index: deref(p.Index), Operation: deref(p.Operation), Reason: deref(p.Reason)}
	if cmd == nil {
		r.Status = statusSkipped
		return r
	}
	r.Operation, r.Served = cmd.Operation, servedBy[cmd.Operation]
	r.Table = orDefault(r.Table, cmd.Request["TableName"])
	r.Index = orDefault(r.Index, cmd.Request["IndexName"])
	r.Status = statusOK
	if err := v.send(ctx, cmd, &r); err != nil {
		r.Status, r.Error = statusError, err.Error()
	}
	r.Flags = append(r.Flags, judge(cmd, &r)...)
	return r
}

func orDefault(s string, v any) string {
	if d, ok := v.(string); ok && s == "" {
		return d
	}
	return s
}

// send sends the request, and the pages after it the CLI would request.
func (v *validator) send(ctx context.Context, cmd *awscli.Command, r *PatternResult) error {
	req, paged := firstRequest(cmd)
	for {
		var out map[string]any
		if err := v.api.Call(ctx, cmd.Operation, req, &out); err != nil {
			return err
		}
		r.Pages++
		measurePage(cmd, out, r)
		next, more := out["LastEvaluatedKey"]
		if !paged || !more || v.enough(cmd, r) {
			break
		}
		req["ExclusiveStartKey"] = next
	}
	if m := cmd.Paging.MaxItems; m > 0 {
		r.Items = min(r.Items, m) // the CLI prints no more than --max-items
	}
	return nil
}

// firstRequest is the command's request, asking for its capacity, and
// whether the CLI would page through its answers.
func firstRequest(cmd *awscli.Command) (map[string]any, bool) {
	req := maps.Clone(cmd.Request)
	if req["ReturnConsumedCapacity"] != "INDEXES" {
		req["ReturnConsumedCapacity"] = "TOTAL"
	}
	paged := (cmd.Operation == "Query" || cmd.Operation == "Scan") && !cmd.Paging.Off
	if paged && cmd.Paging.PageSize > 0 {
		req["Limit"] = cmd.Paging.PageSize
	}
	return req, paged
}

// enough reports whether paging stops before the last page: at
// --max-items, or at the server's cap of pages.
func (v *validator) enough(cmd *awscli.Command, r *PatternResult) bool {
	if m := cmd.Paging.MaxItems; m > 0 && r.Items >= m {
		return true
	}
	if r.Pages < v.maxPages {
		return false
	}
	r.Truncated = true
	r.Flags = append(r.Flags, fmt.Sprintf(flagTruncated, r.Pages))
	return true
}

// measurePage adds one answer's items and capacity to the result.
func measurePage(cmd *awscli.Command, out map[string]any, r *PatternResult) {
	items, scanned := counts(cmd.Operation, out)
	r.Items += items
	r.Scanned += scanned
	read, write := capacity(out["ConsumedCapacity"], isRead(cmd))
	r.ReadUnits += read
	r.WriteUnits += write
}

// counts are the items an answer returns and the items it read (all it
// returns, but for a Query's or Scan's filter).
func counts(op string, out map[string]any) (items, scanned int) {
	switch op {
	case "Query", "Scan":
		return jsonInt(out["Count"]), jsonInt(out["ScannedCount"])
	case "BatchGetItem":
		for _, list := range asMap(out["Responses"]) {
			items += len(asList(list))
		}
	case "ExecuteStatement":
		items = len(asList(out["Items"]))
	case "TransactGetItems", "BatchExecuteStatement", "ExecuteTransaction":
		for _, resp := range asList(out["Responses"]) {
			if asMap(resp)["Item"] != nil {
				items++
			}
		}
	case "GetItem":
		items = present(out["Item"])
	default: // a write returns at most the item's Attributes, and reads none
		return present(out["Attributes"]), 0
	}
	return items, items
}

func present(v any) int {
	if v == nil {
		return 0
	}
	return 1
}

// capacity sums an answer's ConsumedCapacity (one, or one per table). A
// transaction's answer names the kind of each unit; every other answer
// gives CapacityUnits, of the kind the operation consumes.
func capacity(cc any, read bool) (r, w float64) {
	list := asList(cc)
	if m, one := cc.(map[string]any); one {
		list = []any{m}
	}
	for _, c := range list {
		m := asMap(c)
		rcu, hasR := m["ReadCapacityUnits"].(float64)
		wcu, hasW := m["WriteCapacityUnits"].(float64)
		units, _ := m["CapacityUnits"].(float64)
		switch {
		case hasR || hasW:
			r, w = r+rcu, w+wcu
		case read:
			r += units
		default:
			w += units
		}
	}
	return r, w
}

// isRead reports whether the command reads: by its operation, or for
// PartiQL by its (first) statement.
func isRead(cmd *awscli.Command) bool {
	if stmt, ok := cmd.Request["Statement"].(string); ok {
		return selectStatement.MatchString(stmt)
	}
	for _, key := range []string{"Statements", "TransactStatements"} {
		if list := asList(cmd.Request[key]); len(list) > 0 {
			stmt, _ := asMap(list[0])["Statement"].(string)
			return selectStatement.MatchString(stmt)
		}
	}
	return reads[cmd.Operation]
}

// judge flags what a designer should look at.
func judge(cmd *awscli.Command, r *PatternResult) []string {
	var flags []string
	if r.Served == servedScan {
		flags = append(flags, flagScan)
	}
	_, filtered := cmd.Request["FilterExpression"]
	if cmd.Operation == "Query" && filtered && 2*(r.Scanned-r.Items) > r.Scanned {
		flags = append(flags, fmt.Sprintf(flagFilter, r.Scanned-r.Items, r.Scanned))
	}
	if cmd.Paging.StartingToken != "" {
		flags = append(flags, flagToken)
	}
	if r.Status == statusOK && r.Items == 0 && isRead(cmd) {
		flags = append(flags, flagNothing)
	}
	return flags
}

func jsonInt(v any) int {
	f, _ := v.(float64)
	return int(f)
}
