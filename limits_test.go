package sortkey_test

import (
	"bytes"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/sortkeydb/sortkey/sortkeytest"
)

func nested(depth int) types.AttributeValue {
	var v types.AttributeValue = s("leaf")
	for range depth {
		v = &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{"m": v}}
	}
	return v
}

// TestEveryLimitRefusesAndWritesNothing sends one request past each of
// DynamoDB's limits; each gets DynamoDB's error and the table stays empty.
func TestEveryLimitRefusesAndWritesNothing(t *testing.T) {
	c := sortkeytest.New(t).Client()
	createPKSK(t, c, "lim")
	tbl := aws.String("lim")
	it := func(extra map[string]types.AttributeValue) map[string]types.AttributeValue {
		m := map[string]types.AttributeValue{"PK": s("p"), "SK": s("s")}
		for k, v := range extra {
			m[k] = v
		}
		return m
	}
	putReqs := func(n int) []types.WriteRequest {
		var out []types.WriteRequest
		for i := range n {
			out = append(out, types.WriteRequest{PutRequest: &types.PutRequest{Item: map[string]types.AttributeValue{"PK": s(fmt.Sprint(i)), "SK": s("s")}}})
		}
		return out
	}
	var keys []map[string]types.AttributeValue
	var txs []types.TransactWriteItem
	for i := range 101 {
		keys = append(keys, map[string]types.AttributeValue{"PK": s(fmt.Sprint(i)), "SK": s("s")})
		txs = append(txs, types.TransactWriteItem{Put: &types.Put{TableName: tbl, Item: keys[i]}})
	}
	for _, tc := range []struct {
		name, prefix string
		call         func() error
	}{
		{"item over 400 KB", "Item size has exceeded the maximum allowed size", func() error {
			return put(c, "lim", it(map[string]types.AttributeValue{"big": s(strings.Repeat("x", 400*1024))}))
		}},
		{"partition key over 2048 bytes", "One or more parameter values were invalid: Size of hashkey has exceeded", func() error {
			return put(c, "lim", map[string]types.AttributeValue{"PK": s(strings.Repeat("k", 2049)), "SK": s("s")})
		}},
		{"sort key over 1024 bytes", "One or more parameter values were invalid: Aggregated size of all range keys", func() error {
			return put(c, "lim", map[string]types.AttributeValue{"PK": s("p"), "SK": s(strings.Repeat("k", 1025))})
		}},
		{"nesting past 32 levels", "1 validation error detected: Nesting Levels have exceeded supported limits", func() error {
			return put(c, "lim", it(map[string]types.AttributeValue{"deep": nested(32)}))
		}},
		{"empty attribute name", "1 validation error detected: One or more parameter values were invalid: Empty attribute name", func() error {
			return put(c, "lim", it(map[string]types.AttributeValue{"": s("v")}))
		}},
		{"attribute name of 64 KB", "1 validation error detected: One or more parameter values were invalid: An attribute name must be less than 65536 bytes", func() error {
			return put(c, "lim", it(map[string]types.AttributeValue{strings.Repeat("n", 64*1024): s("v")}))
		}},
		{"expression over 4 KB", "1 validation error detected: Invalid ConditionExpression: Expression size has exceeded the maximum allowed size", func() error {
			_, err := c.PutItem(ctx, &dynamodb.PutItemInput{TableName: tbl, Item: it(nil),
				ConditionExpression: aws.String("attribute_not_exists(PK)" + strings.Repeat(" ", 4096))})
			return err
		}},
		{"26 batch writes", "1 validation error detected: Value '{lim=[WriteRequest", func() error {
			_, err := c.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{"lim": putReqs(26)}})
			return err
		}},
		{"101 batch keys", "1 validation error detected: Value", func() error {
			_, err := c.BatchGetItem(ctx, &dynamodb.BatchGetItemInput{RequestItems: map[string]types.KeysAndAttributes{"lim": {Keys: keys}}})
			return err
		}},
		{"101 transaction actions", "1 validation error detected: Value '[TransactWriteItem", func() error {
			_, err := c.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: txs})
			return err
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			wantAPIErrorPrefix(t, tc.call(), "ValidationException", tc.prefix)
		})
	}
	if out, err := c.Scan(ctx, &dynamodb.ScanInput{TableName: tbl}); err != nil || out.Count != 0 {
		t.Fatalf("refused requests left %v items (%v)", out.Count, err)
	}
}

// TestOversizedRequestBody sends more than 16 MB: refused before it is
// read, with 413, as DynamoDB's front end does.
func TestOversizedRequestBody(t *testing.T) {
	srv := sortkeytest.New(t)
	body := bytes.Repeat([]byte(" "), 16*1024*1024+1)
	req, _ := http.NewRequest(http.MethodPost, srv.URL, bytes.NewReader(body))
	req.Header.Set("X-Amz-Target", "DynamoDB_20120810.ListTables")
	req.Header.Set("Content-Type", "application/x-amz-json-1.0")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusRequestEntityTooLarge {
		t.Fatalf("status %d, want 413", resp.StatusCode)
	}
}
