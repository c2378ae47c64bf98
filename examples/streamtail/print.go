package main

import (
	"encoding/base64"
	"encoding/json"
	"io"

	"github.com/aws/aws-sdk-go-v2/service/dynamodbstreams/types"
)

// line is one printed record. Keys are in DynamoDB JSON, the form the AWS
// CLI prints and PutItem takes, so a line can be pasted back into a request.
type line struct {
	Event    types.OperationType `json:"event"`
	Keys     map[string]any      `json:"keys"`
	Sequence *string             `json:"sequence"`
}

// printRecord writes r as one JSON line.
func printRecord(enc *json.Encoder, r types.Record) error {
	return enc.Encode(line{Event: r.EventName, Keys: dynamoItem(r.Dynamodb.Keys), Sequence: r.Dynamodb.SequenceNumber})
}

func newPrinter(w io.Writer) *json.Encoder { return json.NewEncoder(w) }

func dynamoItem(item map[string]types.AttributeValue) map[string]any {
	out := make(map[string]any, len(item))
	for k, v := range item {
		out[k] = dynamoJSON(v)
	}
	return out
}

// dynamoJSON is v as DynamoDB JSON: a one-member object named by its type.
// Binary values are base64, as on the wire.
func dynamoJSON(v types.AttributeValue) map[string]any {
	switch v := v.(type) {
	case *types.AttributeValueMemberS:
		return map[string]any{"S": v.Value}
	case *types.AttributeValueMemberN:
		return map[string]any{"N": v.Value}
	case *types.AttributeValueMemberB:
		return map[string]any{"B": base64.StdEncoding.EncodeToString(v.Value)}
	case *types.AttributeValueMemberBOOL:
		return map[string]any{"BOOL": v.Value}
	case *types.AttributeValueMemberNULL:
		return map[string]any{"NULL": v.Value}
	}
	return dynamoContainer(v)
}

func dynamoContainer(v types.AttributeValue) map[string]any {
	switch v := v.(type) {
	case *types.AttributeValueMemberSS:
		return map[string]any{"SS": v.Value}
	case *types.AttributeValueMemberNS:
		return map[string]any{"NS": v.Value}
	case *types.AttributeValueMemberBS:
		return map[string]any{"BS": v.Value} // encoding/json writes []byte as base64
	case *types.AttributeValueMemberL:
		list := make([]any, len(v.Value))
		for i, e := range v.Value {
			list[i] = dynamoJSON(e)
		}
		return map[string]any{"L": list}
	case *types.AttributeValueMemberM:
		return map[string]any{"M": dynamoItem(v.Value)}
	}
	return map[string]any{}
}
