package main

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodbstreams/types"
)

// TestPrintRecordWritesDynamoDBJSON: keys print as the AWS CLI prints them
// ({"S": "tail"}), not as the SDK's Go structs ({"Value": "tail"}).
func TestPrintRecordWritesDynamoDBJSON(t *testing.T) {
	var buf bytes.Buffer
	r := types.Record{EventName: types.OperationTypeInsert, Dynamodb: &types.StreamRecord{
		SequenceNumber: aws.String("000000000000000000001"),
		Keys: map[string]types.AttributeValue{
			"id": &types.AttributeValueMemberS{Value: "tail"},
			"n":  &types.AttributeValueMemberN{Value: "7"},
			"b":  &types.AttributeValueMemberB{Value: []byte{1, 2}},
		}}}
	if err := printRecord(newPrinter(&buf), r); err != nil {
		t.Fatal(err)
	}
	want := `{"event":"INSERT","keys":{"b":{"B":"AQI="},"id":{"S":"tail"},"n":{"N":"7"}},"sequence":"000000000000000000001"}` + "\n"
	if got := buf.String(); got != want {
		t.Fatalf("printed\n%s want\n%s", got, want)
	}
}

// TestDynamoJSONNested: every attribute type, nested, in DynamoDB JSON.
func TestDynamoJSONNested(t *testing.T) {
	v := &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{
		"l":    &types.AttributeValueMemberL{Value: []types.AttributeValue{&types.AttributeValueMemberBOOL{Value: true}, &types.AttributeValueMemberNULL{Value: true}}},
		"ss":   &types.AttributeValueMemberSS{Value: []string{"a", "b"}},
		"ns":   &types.AttributeValueMemberNS{Value: []string{"1"}},
		"bs":   &types.AttributeValueMemberBS{Value: [][]byte{{0xff}}},
		"deep": &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{"s": &types.AttributeValueMemberS{Value: "x"}}},
	}}
	got, err := json.Marshal(dynamoJSON(v))
	if err != nil {
		t.Fatal(err)
	}
	want := `{"M":{"bs":{"BS":["/w=="]},"deep":{"M":{"s":{"S":"x"}}},"l":{"L":[{"BOOL":true},{"NULL":true}]},"ns":{"NS":["1"]},"ss":{"SS":["a","b"]}}}`
	if string(got) != want {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
}
