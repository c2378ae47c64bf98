package agent

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"
)

// FuzzPlainJSON: every plain JSON value has a DynamoDB form, and reading
// that form back gives the value again, each number's text unchanged.
func FuzzPlainJSON(f *testing.F) {
	f.Add(`{"pk":"c1","n":12345678901234567890123456789012345678,"m":{"l":[1,-2.5e-3,true,null,"x",{}]}}`)
	f.Add(`[[],[[]],{"":""}]`)
	f.Add(`-0.000`)
	f.Add(`"\u00e9"`)
	f.Fuzz(func(t *testing.T, plain string) {
		var v any
		if decodeExact([]byte(plain), &v) != nil {
			return
		}
		av, err := fromPlain(v)
		if err != nil {
			t.Fatalf("%s has no DynamoDB form: %v", plain, err)
		}
		back := toPlain(av)
		if !reflect.DeepEqual(back, v) {
			t.Fatalf("%s came back as %v", plain, back)
		}
		if _, err := json.Marshal(back); err != nil {
			t.Fatalf("%s came back unencodable: %v", plain, err)
		}
	})
}

// FuzzPlainAnswer: any answer, well formed or not, converts without a
// panic into encodable JSON, and a DynamoDB item read as plain JSON,
// written back and read again, reads the same.
func FuzzPlainAnswer(f *testing.F) {
	f.Add(`{"Item":{"a":{"SS":["x"]},"b":{"NS":["1","2.50"]},"c":{"BS":["AQ=="]},"d":{"NULL":true},"e":{"M":{"f":{"L":[{"N":"1"}]}}}}}`)
	f.Add(`{"Items":[{"a":{"N":"abc"}},{"b":{"S":5}}],"LastEvaluatedKey":{"k":{"B":"AA=="}}}`)
	f.Add(`{"Responses":{"T":[{"a":{"BOOL":false}}]},"UnprocessedKeys":{"T":{"Keys":[{"k":{"S":"x"}}]}}}`)
	f.Add(`{"Responses":[{"Item":{"a":{"L":"s"}}}],"UnprocessedItems":{"T":[{"PutRequest":{"Item":{"a":{"N":" 1"}}}}]}}`)
	f.Add(`{"Records":[{"dynamodb":{"Keys":{"k":{"N":"1"}},"NewImage":{"x":{"NULL":false}}}}]}`)
	f.Fuzz(func(t *testing.T, answer string) {
		var resp, request map[string]any
		if decodeExact([]byte(answer), &resp) != nil || decodeExact([]byte(answer), &request) != nil {
			return
		}
		_ = fromPlainRequest(request)
		toPlainAnswer(resp)
		if _, err := json.Marshal(resp); err != nil {
			t.Fatalf("%s converted unencodable: %v", answer, err)
		}
		item, isObject := resp["Item"].(map[string]any)
		if !isObject {
			return
		}
		typed, err := fromPlainAttrs("Item", item)
		if err != nil {
			t.Fatalf("%v, read as plain JSON, cannot be written back: %v", item, err)
		}
		if again := toPlainAttrs(typed); !reflect.DeepEqual(again, item) {
			a, _ := json.Marshal(again)
			b, _ := json.Marshal(item)
			if !bytes.Equal(a, b) {
				t.Fatalf("%s read back as %s", b, a)
			}
			t.Fatalf("%v read back as %v", item, again)
		}
	})
}
