package protocol

import (
	"errors"
	"testing"

	"github.com/sortkeydb/sortkey/internal/apierr"
)

func TestDecodeErrorsAreSerializationExceptions(t *testing.T) {
	cases := map[string]string{
		`{"TableName":`:                          "Malformed JSON: the request body could not be parsed",
		`{"TableName":{}}`:                       "Start of structure or map found where not expected.",
		`{"TableName":[]}`:                       "Start of list found where not expected",
		`{"TableName":"t","Item":{"a":{"S":1}}}`: "Unexpected number value for member Item.S",
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
	f.Fuzz(func(t *testing.T, body []byte) {
		var in PutItemInput
		err := Decode(body, &in)
		var e *apierr.Error
		if err != nil && (!errors.As(err, &e) || e.Code != apierr.Serialization) {
			t.Fatalf("decode error is not a SerializationException: %v", err)
		}
	})
}
