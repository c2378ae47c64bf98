package sortkey_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/sortkeydb/sortkey/sortkeytest"
)

const (
	validation = "ValidationException"
	oneError   = "1 validation error detected: "
)

// rawCall sends body to op over HTTP, for requests the SDK refuses to
// send (it checks required members itself), and returns the error's type
// and message.
func rawCall(t *testing.T, srv *sortkeytest.Server, op, body string) (code, msg string) {
	t.Helper()
	r := postRaw(t, srv.URL, "DynamoDB_20120810."+op, body)
	if r.status != http.StatusBadRequest || r.Type == "" {
		t.Fatalf("%s: status %d, body %s", op, r.status, r.body)
	}
	return r.Type[strings.LastIndexByte(r.Type, '#')+1:], r.Message
}

// composite creates table tbl keyed pk (S) and sk (S) and returns a client.
func composite(t *testing.T) *dynamodb.Client {
	c := sortkeytest.New(t).Client()
	createTyped(t, c, "tbl", types.ScalarAttributeTypeS)
	return c
}

// keyCond is a valid key condition on tbl.
func keyCond(in *dynamodb.QueryInput) *dynamodb.QueryInput {
	in.TableName = aws.String("tbl")
	in.KeyConditionExpression = aws.String("pk = :v")
	in.ExpressionAttributeValues = map[string]types.AttributeValue{":v": s("a")}
	return in
}

// rawCase is one request sent byte for byte and the answer it must get:
// success when code is "", else a 400 of type code whose message is msg,
// or contains part when msg is "".
type rawCase struct {
	name, op, body  string
	code, msg, part string
}

// runRawCases sends every case to srv, in order (later cases may depend on
// the writes of earlier ones).
func runRawCases(t *testing.T, srv *sortkeytest.Server, cases []rawCase) {
	t.Helper()
	for _, tc := range cases {
		r := postRaw(t, srv.URL, "DynamoDB_20120810."+tc.op, tc.body)
		code := r.Type[strings.LastIndexByte(r.Type, '#')+1:]
		switch {
		case tc.code == "" && r.status != http.StatusOK:
			t.Errorf("%s: status %d, body %.300s", tc.name, r.status, r.body)
		case tc.code == "":
		case r.status != http.StatusBadRequest || code != tc.code:
			t.Errorf("%s: status %d, body %.300s; want %s", tc.name, r.status, r.body, tc.code)
		case tc.msg != "" && r.Message != tc.msg:
			t.Errorf("%s:\n got %.300s\nwant %.300s", tc.name, r.Message, tc.msg)
		case tc.msg == "" && !strings.Contains(r.Message, tc.part):
			t.Errorf("%s: %.300q does not contain %q", tc.name, r.Message, tc.part)
		}
	}
}

// TestAttributeNameLimits checks the 64 KB attribute-name limit (65535
// bytes accepted, 65536 refused stating the limit) and empty names, in the
// six request shapes of facts 27.1 and 27.2.
func TestAttributeNameLimits(t *testing.T) {
	srv := sortkeytest.New(t)
	createSimple(t, srv.Client(), "hhh")
	shapes := []struct{ op, body string }{
		{"PutItem", `{"TableName":"hhh","Item":{"pk":{"S":"a"},"NAME":{"S":"x"}}}`},
		{"GetItem", `{"TableName":"hhh","Key":{"pk":{"S":"a"}},"ProjectionExpression":"#name","ExpressionAttributeNames":{"#name":"NAME"}}`},
		{"GetItem", `{"TableName":"hhh","Key":{"pk":{"S":"a"}},"AttributesToGet":["NAME"]}`},
		{"UpdateItem", `{"TableName":"hhh","Key":{"pk":{"S":"a"}},"AttributeUpdates":{"NAME":{"Action":"PUT","Value":{"S":"x"}}}}`},
		{"UpdateItem", `{"TableName":"hhh","Key":{"pk":{"S":"a"}},"UpdateExpression":"SET #name = :val","ExpressionAttributeNames":{"#name":"NAME"},"ExpressionAttributeValues":{":val":{"S":"x"}}}`},
		{"UpdateItem", `{"TableName":"hhh","Key":{"pk":{"S":"a"}},"ConditionExpression":"#name = :val","ExpressionAttributeNames":{"#name":"NAME"},"ExpressionAttributeValues":{":val":{"S":"x"}}}`},
		{"Query", `{"TableName":"hhh","KeyConditions":{"pk":{"ComparisonOperator":"EQ","AttributeValueList":[{"S":"a"}]}},"QueryFilter":{"NAME":{"ComparisonOperator":"NOT_NULL"}}}`},
	}
	var cases []rawCase
	for i, sh := range shapes {
		with := func(name string) string { return strings.Replace(sh.body, "NAME", name, 1) }
		cases = append(cases,
			rawCase{name: fmt.Sprintf("facts 27.1 shape %d 65536", i), op: sh.op, body: with(strings.Repeat("x", 65536)), code: validation, part: "65536"},
			rawCase{name: fmt.Sprintf("facts 27.2 shape %d empty", i), op: sh.op, body: with(""), code: validation, part: "Empty attribute name"})
		if i != 5 && i != 6 { // a condition on a missing attribute fails; a filter on the key is refused
			cases = append(cases, rawCase{name: fmt.Sprintf("facts 27.1 shape %d 65535", i), op: sh.op, body: with(strings.Repeat("y", 65535))})
		}
	}
	runRawCases(t, srv, cases)
}
