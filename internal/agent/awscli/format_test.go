package awscli

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

func TestFormatWritesTheCommandParseReads(t *testing.T) {
	for _, tc := range []struct{ op, request, line string }{
		{op: "Query", request: `{"TableName":"Orders","IndexName":"ById","KeyConditionExpression":"#k0 = :k0 AND #k1 > :k1",` +
			`"ExpressionAttributeNames":{"#k0":"pk","#k1":"sk"},"ExpressionAttributeValues":{":k0":{"S":"U#ann's"},":k1":{"N":"1.50"}},` +
			`"Limit":10,"ScanIndexForward":false,"ConsistentRead":true,"ReturnConsumedCapacity":"TOTAL"}`,
			line: `aws dynamodb query --table-name Orders --index-name ById --key-condition-expression '#k0 = :k0 AND #k1 > :k1' ` +
				`--expression-attribute-names '{"#k0":"pk","#k1":"sk"}' --expression-attribute-values '{":k0":{"S":"U#ann'\''s"},":k1":{"N":"1.50"}}' ` +
				`--consistent-read --limit 10 --no-scan-index-forward`},
		{op: "GetItem", request: `{"TableName":"T","Key":{"pk":{"S":"a b"}},"AttributesToGet":["x","y"]}`,
			line: `aws dynamodb get-item --table-name T --key '{"pk":{"S":"a b"}}' --attributes-to-get '["x","y"]'`},
		{op: "BatchGetItem", request: `{"RequestItems":{"T":{"Keys":[{"pk":{"S":"$HOME"}}]}},"ReturnConsumedCapacity":"TOTAL"}`,
			line: `aws dynamodb batch-get-item --request-items '{"T":{"Keys":[{"pk":{"S":"$HOME"}}]}}'`},
		{op: "Scan", request: `{"TableName":"T","FilterExpression":"--odd","Segment":0,"TotalSegments":2}`,
			line: `aws dynamodb scan --table-name T --filter-expression=--odd --segment 0 --total-segments 2`},
		{op: "ExecuteStatement", request: `{"Statement":"SELECT * FROM \"T\" WHERE pk = ?","Parameters":[{"S":""}]}`,
			line: `aws dynamodb execute-statement --parameters '[{"S":""}]' --statement 'SELECT * FROM "T" WHERE pk = ?'`},
	} {
		var req map[string]any
		if err := json.Unmarshal([]byte(tc.request), &req); err != nil {
			t.Fatal(err)
		}
		line, err := Format(tc.op, req)
		if err != nil || line != tc.line {
			t.Errorf("%s %s\n got %s, %v\nwant %s", tc.op, tc.request, line, err, tc.line)
			continue
		}
		sameRequest(t, tc.op, req, line)
	}
}

// sameRequest fails unless line parses back to op and req, less the
// ReturnConsumedCapacity Format leaves out. Numbers compare by value.
func sameRequest(t *testing.T, op string, req map[string]any, line string) {
	t.Helper()
	cmd, err := Parse(line)
	if err != nil {
		t.Fatalf("%s: %v", line, err)
	}
	want, got := comparable(t, req), comparable(t, cmd.Request)
	delete(want, "ReturnConsumedCapacity")
	if cmd.Operation != op || !reflect.DeepEqual(got, want) {
		t.Fatalf("%s\nread back as %s %v\nwant %s %v", line, cmd.Operation, got, op, want)
	}
}

func comparable(t *testing.T, v map[string]any) map[string]any {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out map[string]any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

func TestFormatRefusesWhatNoCommandSends(t *testing.T) {
	for _, tc := range []struct{ op, request, want string }{
		{"CreateTable", `{}`, "CreateTable: not a DynamoDB data operation"},
		{"GetItem", `{"TableName":"T","IndexName":"I"}`, "GetItem has no parameter IndexName"},
		{"Query", `{"TableName":7}`, "Query: TableName takes a string, not 7"},
		{"Query", `{"TableName":"T","Limit":1.5}`, "Query: Limit takes a whole number, not 1.5"},
		{"Query", `{"TableName":"T","ScanIndexForward":"false"}`, `Query: ScanIndexForward takes true or false, not "false"`},
		{"GetItem", `{"TableName":"T","Key":"pk"}`, `GetItem: Key takes a JSON object or list, not "pk"`},
		{"GetItem", `{"TableName":"T","AttributesToGet":["a",1]}`, `GetItem: AttributesToGet takes a list of strings, not ["a",1]`},
		{"GetItem", `{"TableName":null}`, "GetItem: TableName takes a string, not null"},
	} {
		var req map[string]any
		if err := json.Unmarshal([]byte(tc.request), &req); err != nil {
			t.Fatal(err)
		}
		line, err := Format(tc.op, req)
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%s %s: %q, %v; want %s", tc.op, tc.request, line, err, tc.want)
		}
	}
}

// FuzzFormat: no request panics Format, and every line it writes parses
// back to the operation and the request.
func FuzzFormat(f *testing.F) {
	for _, seed := range [][2]string{
		{"Query", `{"TableName":"T","KeyConditionExpression":"pk = :p","ExpressionAttributeValues":{":p":{"S":"'x'"}},"Limit":-0}`},
		{"GetItem", `{"TableName":"--T","Key":{"pk":{"N":"1e2"}},"ConsistentRead":false,"AttributesToGet":[]}`},
		{"TransactGetItems", `{"TransactItems":[{"Get":{"TableName":"T","Key":{}}}],"ReturnConsumedCapacity":"INDEXES"}`},
		{"Scan", `{"TableName":"a\nb#c","Select":"","Segment":-1}`},
		{"PutItem", `{"TableName":"T","Item":{"a":{"S":"\\\u0000\""}},"ConditionExpression":"attribute_not_exists(#a)"}`},
	} {
		f.Add(seed[0], seed[1])
	}
	f.Fuzz(func(t *testing.T, op, request string) {
		var req map[string]any
		if json.Unmarshal([]byte(request), &req) != nil {
			return
		}
		line, err := Format(op, req)
		if err != nil {
			return
		}
		sameRequest(t, op, req, line)
	})
}
