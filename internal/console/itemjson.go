package console

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
)

// parseItem reads the item form's text: DynamoDB JSON as is, or plain
// JSON converted as the AWS SDKs' marshallers convert native values.
// DynamoDB itself validates the values further when the item is put.
func parseItem(text string, plain bool) (item, error) {
	if !plain {
		var it item
		if err := decodeOne(text, &it); err != nil || it == nil {
			return nil, errors.New(msgItemJSON)
		}
		return it, nil
	}
	var v map[string]any
	if err := decodeOne(text, &v); err != nil || v == nil {
		return nil, errors.New(msgPlainJSON)
	}
	it := make(item, len(v))
	for name, x := range v {
		it[name] = attributeValue(x)
	}
	return it, nil
}

// decodeOne decodes exactly one JSON value, numbers kept as written.
func decodeOne(text string, into any) error {
	dec := json.NewDecoder(bytes.NewReader([]byte(text)))
	dec.UseNumber()
	if err := dec.Decode(into); err != nil {
		return err
	}
	if _, err := dec.Token(); err != io.EOF {
		return errors.New("trailing data")
	}
	return nil
}

// attributeValue is one plain JSON value as DynamoDB JSON: numbers N,
// strings S, booleans BOOL, null NULL, arrays L, objects M. Sets have no
// plain JSON form; they need DynamoDB JSON.
func attributeValue(x any) map[string]json.RawMessage {
	var typ string
	var v any
	switch x := x.(type) {
	case json.Number:
		typ, v = "N", x.String()
	case string:
		typ, v = "S", x
	case bool:
		typ, v = "BOOL", x
	case nil:
		typ, v = "NULL", true
	case []any:
		l := make([]map[string]json.RawMessage, len(x))
		for i, e := range x {
			l[i] = attributeValue(e)
		}
		typ, v = "L", l
	case map[string]any:
		m := make(map[string]map[string]json.RawMessage, len(x))
		for k, e := range x {
			m[k] = attributeValue(e)
		}
		typ, v = "M", m
	}
	b, _ := json.Marshal(v)
	return map[string]json.RawMessage{typ: b}
}
