package protocol

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"testing"

	"github.com/sortkeydb/sortkey/internal/apierr"
)

func TestDecodeErrorsAreSerializationExceptions(t *testing.T) {
	cases := map[string]string{
		`{"TableName":`:                          "",
		`{"TableName":{}}`:                       "Start of structure or map found where not expected.",
		`{"TableName":[]}`:                       "Start of list found where not expected",
		`{"TableName":"t","Item":{"a":{"S":1}}}`: "NUMBER_VALUE cannot be converted to String",
		// The first error in the body wins, wherever the decoding is done.
		`{"TableName":true,"Item":{"a":{"S":1}}}`:                        "BOOLEAN_VALUE cannot be converted to String",
		`{"TableName":true,"Item":{"a":{"B":"!"}}}`:                      "BOOLEAN_VALUE cannot be converted to String",
		`{"Item":{"a":{"B":"!"}},"TableName":1}`:                         "",
		` null `:                                                         "Unexpected value type in payload",
		`{"Item":{"a":{"S":"x"}},"Expected":{"a":{"Value":{"S":true}}}}`: "BOOLEAN_VALUE cannot be converted to String",
		`{"ReturnValues":[],"Expected":{"a":{"Value":{"S":1}}}}`:         "Start of list found where not expected",
		`{"ReturnValues":1}`:                                             "NUMBER_VALUE cannot be converted to String",
		`{"Item":{"a":{"S":1}},"ReturnValues":[]}`:                       "NUMBER_VALUE cannot be converted to String",
		// Text is checked before anything is parsed.
		`{"TableName":"t\ud800"}`:             "Invalid UTF-8 in request body",
		"{\"TableName\":1,\"Item\":\"\xff\"}": "Invalid UTF-8 in request body",
		"{\"TableName\":\xfe":                 "Invalid UTF-8 in request body",
	}
	for body, msg := range cases {
		var in PutItemInput
		err := Decode([]byte(body), &in)
		var e *apierr.Error
		if !errors.As(err, &e) || e.Code != apierr.Serialization || e.Message != msg {
			t.Errorf("%s: got %v, want SerializationException %q", body, err, msg)
		}
	}
}

func TestDecodeEmptyBodyIsEmptyRequest(t *testing.T) {
	var in DescribeTableInput
	if err := Decode([]byte("  "), &in); err != nil || in.TableName != nil {
		t.Fatalf("empty body: %v %+v", err, in)
	}
}

func FuzzDecode(f *testing.F) {
	f.Add([]byte(`{"TableName":"t","Item":{"a":{"M":{"b":{"L":[{"N":"1"}]}}}}}`))
	f.Add([]byte(`{"Item":{"a":{"B":"AAEC"}}}`))
	f.Add([]byte(`{"TableName":1,"Item":{"a":{"S":1}},"Expected":{"a":{"Value":{"B":"!"},"AttributeValueList":[{"s":"x"}]}}}`))
	f.Add([]byte(`{"item":{"a":{"ſ":"x","L":[{"M":{}}]}},"ExpressionAttributeValues":{":a":{"BS":[[1]]}}}`))
	f.Add([]byte(`{"TableName":"t\ud800","Item":{"a":{"S":"\udc00"}}}`))
	f.Add([]byte("{\"TableName\":\"t\",\"Item\":{\"a\xff\":{\"S\":1}}}"))
	f.Fuzz(func(t *testing.T, body []byte) {
		if len(bytes.TrimSpace(body)) == 0 {
			checkTextRule(t, body, new(PutItemInput), nil, new(PutItemInput))
			return
		}
		var in PutItemInput
		err := decode(body, &in)
		checkTextRule(t, body, new(PutItemInput), err, &in)
		var e *apierr.Error
		if err != nil && (!errors.As(err, &e) || e.Code != apierr.Serialization) {
			t.Fatalf("decode error is not a SerializationException: %v", err)
		}
		// Reflection alone, as Decode was before AttributeValues had
		// their own decoder, must fail alike.
		plainErr := json.Unmarshal(body, reflect.New(plainType(reflect.TypeOf(in))).Interface())
		if plainErr != nil {
			plainErr = serializationError(plainErr, reflect.TypeOf(in))
		}
		if fmt.Sprint(err) != fmt.Sprint(plainErr) {
			t.Fatalf("%q: %v, by reflection %v", body, err, plainErr)
		}
	})
}

// Every input gets a plain twin for firstError, and the twin reports type
// errors where the input would.
func TestPlainTypesOfInputs(t *testing.T) {
	for _, in := range []any{new(BatchGetItemInput), new(BatchWriteItemInput), new(PutItemInput), new(GetItemInput), new(DeleteItemInput), new(UpdateItemInput), new(QueryInput), new(ScanInput), new(ListStreamsInput), new(DescribeStreamInput), new(GetShardIteratorInput), new(GetRecordsInput), new(CreateTableInput), new(DescribeTableInput), new(DeleteTableInput), new(ListTablesInput), new(UpdateTableInput), new(TagResourceInput), new(UntagResourceInput), new(ListTagsOfResourceInput), new(TransactWriteItemsInput), new(TransactGetItemsInput), new(UpdateTimeToLiveInput), new(DescribeTimeToLiveInput)} {
		body := []byte(`{"TableName":1}`)
		if err := json.Unmarshal(body, reflect.New(plainType(reflect.TypeOf(in).Elem())).Interface()); !sameTypeError(err, json.Unmarshal(body, in)) {
			t.Errorf("%T: plain twin gives %v", in, err)
		}
	}
}

func sameTypeError(a, b error) bool {
	var ta, tb *json.UnmarshalTypeError
	if errors.As(a, &ta) && errors.As(b, &tb) {
		return ta.Value == tb.Value && ta.Field == tb.Field
	}
	return a == nil && b == nil
}
