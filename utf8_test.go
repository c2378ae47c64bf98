package sortkey_test

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/sortkeydb/sortkey/sortkeytest"
)

// invalidUTF8 is the message of the SerializationException that refuses a
// body that is not valid UTF-8 text. DynamoDB's own wording is not
// documented; this is sortkey's.
const invalidUTF8 = "Invalid UTF-8 in request body"

// rawReply is what a client sees of the answer to a raw request.
type rawReply struct {
	status  int
	body    []byte
	Type    string `json:"__type"`
	Message string `json:"message"` // also takes coral's "Message": encoding/json matches keys without case
}

// postRaw sends body byte for byte to the target over HTTP: the SDKs never
// send invalid UTF-8 or lone surrogate escapes, so these tests cannot use
// them.
func postRaw(t *testing.T, url, target, body string) rawReply {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("X-Amz-Target", target)
	req.Header.Set("Content-Type", "application/x-amz-json-1.0")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	r := rawReply{status: resp.StatusCode}
	if r.body, err = io.ReadAll(resp.Body); err != nil {
		t.Fatal(err)
	}
	_ = json.Unmarshal(r.body, &r) // only error bodies have the members
	return r
}

func wantInvalidUTF8(t *testing.T, body string, r rawReply) {
	t.Helper()
	if r.status != 400 || r.Type != "com.amazon.coral.service#SerializationException" || r.Message != invalidUTF8 {
		t.Errorf("%q: got %d %s, want 400 SerializationException %q", body, r.status, r.body, invalidUTF8)
	}
}

func wantEmpty(t *testing.T, c *dynamodb.Client, table string) {
	t.Helper()
	out, err := c.Scan(ctx, &dynamodb.ScanInput{TableName: aws.String(table)})
	if err != nil || out.Count != 0 {
		t.Fatalf("refused requests left items in %s: %v (%v)", table, out.Items, err)
	}
}

// Every string of a body is held to the rule, whatever member it is in and
// whichever operation reads it.
func TestInvalidUTF8AnywhereInTheBodyRefused(t *testing.T) {
	srv := sortkeytest.New(t)
	c := srv.Client()
	createSimple(t, c, "utf")
	const item = `"Item":{"pk":{"S":"a"}}`
	for _, tc := range []struct{ op, body string }{
		{"PutItem", `{"TableName":"utf","Item":{"pk":{"S":"a"},"n` + "\xff" + `":{"S":"x"}}}`},
		{"PutItem", `{"TableName":"utf","Item":{"pk":{"S":"a"},"m":{"M":{"k\ud800":{"N":"1"}}}}}`},
		{"PutItem", `{"TableName":"utf","Item":{"pk":{"S":"a"},"l":{"L":[{"SS":["x","y` + "\xc3" + `"]}]}}}`},
		{"PutItem", `{"TableName":"utf",` + item + `,"ConditionExpression":"attribute_not_exists(p` + "\xff" + `k)"}`},
		{"PutItem", `{"TableName":"utf",` + item + `,"ConditionExpression":"attribute_not_exists(#k)","ExpressionAttributeNames":{"#k` + "\xfe" + `":"pk"}}`},
		{"PutItem", `{"TableName":"utf",` + item + `,"ConditionExpression":"attribute_not_exists(#k)","ExpressionAttributeNames":{"#k":"p\udc00k"}}`},
		{"PutItem", `{"TableName":"ut` + "\xf0" + `f",` + item + `}`},
		{"UpdateItem", `{"TableName":"utf","Key":{"pk":{"S":"a"}},"UpdateExpression":"SET v = :v` + "\xff" + `","ExpressionAttributeValues":{":v":{"N":"1"}}}`},
		{"BatchWriteItem", `{"RequestItems":{"utf":[{"PutRequest":{"Item":{"pk":{"S":"` + "\xff" + `"}}}}]}}`},
		{"TransactWriteItems", `{"TransactItems":[{"Put":{"TableName":"utf","Item":{"pk":{"S":"\ud800"}}}}]}`},
		{"GetItem", `{"TableName":"utf","Key":{"pk":{"S":"a` + "\xff" + `"}}}`},
		{"Query", `{"TableName":"utf","IndexName":"i` + "\xff" + `","KeyConditionExpression":"pk = :p","ExpressionAttributeValues":{":p":{"S":"a"}}}`},
		{"Scan", `{"TableName":"utf","FilterExpression":"v = :v","ExpressionAttributeValues":{":v":{"SS":["\udfff"]}}}`},
		{"CreateTable", `{"TableName":"new` + "\xff" + `","KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],` +
			`"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],"BillingMode":"PAY_PER_REQUEST"}`},
		{"DescribeTable", `{"TableName":"utf\ud800"}`},
	} {
		wantInvalidUTF8(t, tc.body, postRaw(t, srv.URL, "DynamoDB_20120810."+tc.op, tc.body))
	}
	body := `{"StreamArn":"arn:aws:dynamodb:us-east-1:000000000000:table/utf/stream/` + "\xff" + `"}`
	wantInvalidUTF8(t, body, postRaw(t, srv.URL, "DynamoDBStreams_20120810.DescribeStream", body))
	wantEmpty(t, c, "utf")
	if out, err := c.ListTables(ctx, &dynamodb.ListTablesInput{}); err != nil || len(out.TableNames) != 1 {
		t.Fatalf("tables: %v (%v)", out.TableNames, err)
	}
}
