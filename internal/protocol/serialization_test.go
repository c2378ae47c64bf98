package protocol

import (
	"errors"
	"testing"

	"github.com/sortkeydb/sortkey/internal/apierr"
)

// TestSerializationExceptionTexts: a JSON value of the wrong kind is
// worded as DynamoDB's framework words it, by what was found and what was
// expected where it was found.
func TestSerializationExceptionTexts(t *testing.T) {
	cases := []struct {
		in   any
		body string
		want string
	}{
		{new(PutItemInput), `{"TableName":{}}`, "Start of structure or map found where not expected."},
		{new(PutItemInput), `{"Item":{"a":{"S":{"S":"x"}}}}`, "Start of structure or map found where not expected."},
		{new(PutItemInput), `{"TableName":[]}`, "Start of list found where not expected"},
		{new(PutItemInput), `{"Item":{"a":[]}}`, "Start of list found where not expected"},
		{new(PutItemInput), `{"Item":[]}`, "Unrecognized collection type java.util.Map<java.lang.String, com.amazonaws.dynamodb.v20120810.AttributeValue>"},
		{new(PutItemInput), `{"ExpressionAttributeNames":[]}`, "Unrecognized collection type java.util.Map<java.lang.String, java.lang.String>"},
		{new(PutItemInput), `{"Expected":[]}`, "Unrecognized collection type java.util.Map<java.lang.String, com.amazonaws.dynamodb.v20120810.ExpectedAttributeValue>"},
		{new(BatchWriteItemInput), `{"RequestItems":[]}`, "Unrecognized collection type java.util.Map<java.lang.String, java.util.List<com.amazonaws.dynamodb.v20120810.WriteRequest>>"},
		{new(PutItemInput), `{"Item":{"a":{"M":[]}}}`, "Unrecognized collection type java.util.Map<java.lang.String, com.amazonaws.dynamodb.v20120810.AttributeValue>"},
		{new(QueryInput), `{"ExpressionAttributeNames":"{\"#pk\":\"pk\"}"}`, "Unexpected field type"},
		{new(PutItemInput), `{"Item":"x"}`, "Unexpected field type"},
		{new(PutItemInput), `{"Item":{"a":{"M":"x"}}}`, "Unexpected field type"},
		{new(CreateTableInput), `{"KeySchema":5}`, "Unexpected field type"},
		{new(PutItemInput), `{"Item":{"psd_segid":"45"}}`, "Unexpected value type in payload"},
		{new(PutItemInput), `{"Item":{"a":{"L":["x"]}}}`, "Unexpected value type in payload"},
		{new(CreateTableInput), `{"KeySchema":["pk"]}`, "Unexpected value type in payload"},
		{new(PutItemInput), `{"Item":{"a":{"N":5}}}`, "NUMBER_VALUE cannot be converted to String"},
		{new(PutItemInput), `{"Item":{"a":{"SS":[true]}}}`, "BOOLEAN_VALUE cannot be converted to String"},
		{new(PutItemInput), `{"Item":{"a":{"BOOL":"true"}}}`, "STRING_VALUE cannot be converted to Boolean"},
		{new(PutItemInput), `{"Item":{"a":{"B":5}}}`, "NUMBER_VALUE cannot be converted to ByteBuffer"},
		{new(QueryInput), `{"Limit":"5"}`, "STRING_VALUE cannot be converted to Integer"},
		{new(QueryInput), `{"ConsistentRead":1}`, "NUMBER_VALUE cannot be converted to Boolean"},
		{new(CreateTableInput), `{"ProvisionedThroughput":{"ReadCapacityUnits":"5"}}`, "STRING_VALUE cannot be converted to Long"},
	}
	for _, c := range cases {
		err := Decode([]byte(c.body), c.in)
		var e *apierr.Error
		if !errors.As(err, &e) || e.Code != apierr.Serialization || e.Message != c.want {
			t.Errorf("%T %s: got %v, want SerializationException %q", c.in, c.body, err, c.want)
		}
	}
}
