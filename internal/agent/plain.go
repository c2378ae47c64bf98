package agent

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
)

// plainFlag is the input member that asks for plain JSON attribute values.
const plainFlag = "plainJSON"

const (
	msgPlainFlag   = `plainJSON must be true or false`
	msgPlainObject = "plainJSON: %s must be a JSON object of attribute names to values"
	msgPlainList   = "plainJSON: %s must be a JSON array"
	msgPlainValue  = "plainJSON: a value of Go type %T has no DynamoDB type"
)

// plainNote tells agents, in each data tool's description, how to write
// and read attribute values without DynamoDB JSON's type wrappers.
const plainNote = ` Add "plainJSON": true to write and read attribute values as plain JSON instead: ` +
	`string→S, number→N (its digits kept exactly), true/false→BOOL, null→NULL, array→L, object→M, in Item, Key, ` +
	`ExpressionAttributeValues, ExclusiveStartKey, Parameters, SearchVector, and the same members inside RequestItems, ` +
	`TransactItems, Statements and TransactStatements; the answer's items come back the same way (sets as arrays, ` +
	`binary as base64 strings). Sets and binary cannot be written plainly: send those in DynamoDB JSON without plainJSON.`

// attrMapMembers hold an object of attribute names (or :values) to values.
var attrMapMembers = []string{"Item", "Key", "ExpressionAttributeValues", "ExclusiveStartKey"}

// nestedMembers hold requests whose own members may be plain.
var nestedMembers = []string{"RequestItems", "TransactItems", "Statements", "TransactStatements"}

// plainRequested removes the plainJSON member from in and reports its
// value.
func plainRequested(in map[string]any) (bool, error) {
	v, present := in[plainFlag]
	delete(in, plainFlag)
	on, isBool := v.(bool)
	if present && !isBool {
		return false, errors.New(msgPlainFlag)
	}
	return on, nil
}

// plainInput removes plainJSON from in and, when it is true, rewrites
// in's plain members into DynamoDB JSON.
func plainInput(in map[string]any, raw json.RawMessage) (bool, error) {
	plain, err := plainRequested(in)
	if plain && err == nil {
		err = fromPlainArgs(in, raw)
	}
	return plain, err
}

// fromPlainArgs rewrites in's plain members into DynamoDB JSON. They are
// read again from raw, the arguments as sent, because the SDK has already
// decoded in's numbers to float64, which keeps about 16 digits of 38.
func fromPlainArgs(in map[string]any, raw json.RawMessage) error {
	var exact map[string]any
	if err := decodeExact(raw, &exact); err != nil {
		return err
	}
	for _, k := range append(append([]string{"Parameters", "SearchVector"}, attrMapMembers...), nestedMembers...) {
		if v, present := exact[k]; present {
			in[k] = v
		}
	}
	return fromPlainRequest(in)
}

// decodeExact decodes JSON keeping each number's text as a json.Number.
func decodeExact(data []byte, v any) error {
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	return d.Decode(v)
}

// fromPlainRequest converts one request's (or one action's) plain members.
func fromPlainRequest(req map[string]any) error {
	for _, k := range attrMapMembers {
		if err := convertMember(req, k, fromPlainAttrs); err != nil {
			return err
		}
	}
	for _, k := range []string{"Keys", "Parameters", "SearchVector"} {
		if err := convertMember(req, k, fromPlainList(k)); err != nil {
			return err
		}
	}
	if err := convertMember(req, "RequestItems", fromPlainTables); err != nil {
		return err
	}
	for _, k := range nestedMembers[1:] {
		if err := convertMember(req, k, fromPlainActions(k)); err != nil {
			return err
		}
	}
	return nil
}

// convertMember replaces m[k], when present, with convert's result.
func convertMember(m map[string]any, k string, convert func(string, any) (any, error)) error {
	v, present := m[k]
	if !present {
		return nil
	}
	out, err := convert(k, v)
	m[k] = out
	return err
}

// fromPlainAttrs converts an object of plain values.
func fromPlainAttrs(name string, v any) (any, error) {
	m, isObject := v.(map[string]any)
	if !isObject {
		return nil, fmt.Errorf(msgPlainObject, name)
	}
	out := make(map[string]any, len(m))
	for k, x := range m {
		av, err := fromPlain(x)
		if err != nil {
			return nil, err
		}
		out[k] = av
	}
	return out, nil
}

// fromPlainList converts a list member: Keys holds attribute objects,
// Parameters and SearchVector plain values.
func fromPlainList(name string) func(string, any) (any, error) {
	return func(_ string, v any) (any, error) {
		list, isList := v.([]any)
		if !isList {
			return nil, fmt.Errorf(msgPlainList, name)
		}
		out := make([]any, len(list))
		for i, x := range list {
			var err error
			if name == "Keys" {
				out[i], err = fromPlainAttrs(name, x)
			} else {
				out[i], err = fromPlain(x)
			}
			if err != nil {
				return nil, err
			}
		}
		return out, nil
	}
}

// fromPlainTables converts RequestItems: per table, BatchGetItem's
// {Keys: [...]} or BatchWriteItem's [{PutRequest: {Item}}, ...].
func fromPlainTables(name string, v any) (any, error) {
	tables, isObject := v.(map[string]any)
	if !isObject {
		return nil, fmt.Errorf(msgPlainObject, name)
	}
	for _, t := range tables {
		if err := fromPlainTable(name, t); err != nil {
			return nil, err
		}
	}
	return tables, nil
}

func fromPlainTable(name string, t any) error {
	if req, isObject := t.(map[string]any); isObject {
		return fromPlainRequest(req)
	}
	_, err := fromPlainActions(name)(name, t)
	return err
}

// fromPlainActions converts a list of actions, each an object whose
// members are requests ({Put: {...}}, {DeleteRequest: {...}}) or, for
// PartiQL, the request itself ({Statement, Parameters}).
func fromPlainActions(name string) func(string, any) (any, error) {
	return func(_ string, v any) (any, error) {
		list, isList := v.([]any)
		if !isList {
			return nil, fmt.Errorf(msgPlainList, name)
		}
		for _, a := range list {
			if err := fromPlainAction(a); err != nil {
				return nil, err
			}
		}
		return list, nil
	}
}

func fromPlainAction(a any) error {
	action, isObject := a.(map[string]any)
	if !isObject {
		return nil // the API refuses it in its own words
	}
	if _, isStatement := action["Statement"]; isStatement {
		return fromPlainRequest(action)
	}
	for _, req := range action {
		if m, isObject := req.(map[string]any); isObject {
			if err := fromPlainRequest(m); err != nil {
				return err
			}
		}
	}
	return nil
}

// fromPlain is one plain JSON value (numbers as json.Number) in DynamoDB
// JSON.
func fromPlain(v any) (map[string]any, error) {
	switch x := v.(type) {
	case string:
		return map[string]any{"S": x}, nil
	case json.Number:
		return map[string]any{"N": x.String()}, nil
	case bool:
		return map[string]any{"BOOL": x}, nil
	case nil:
		return map[string]any{"NULL": true}, nil
	case []any:
		return fromPlainL(x)
	case map[string]any:
		m, err := fromPlainAttrs("M", x)
		return map[string]any{"M": m}, err
	}
	return nil, fmt.Errorf(msgPlainValue, v)
}

func fromPlainL(list []any) (map[string]any, error) {
	out := make([]any, len(list))
	for i, x := range list {
		av, err := fromPlain(x)
		if err != nil {
			return nil, err
		}
		out[i] = av
	}
	return map[string]any{"L": out}, nil
}

// plainOps are the operations whose requests or answers hold attribute
// values: their descriptions say how to send plainJSON.
var plainOps = map[string]bool{
	"GetItem": true, "PutItem": true, "UpdateItem": true, "DeleteItem": true, "Query": true, "Scan": true,
	"BatchGetItem": true, "BatchWriteItem": true, "TransactGetItems": true, "TransactWriteItems": true,
	"ExecuteStatement": true, "ExecuteTransaction": true, "BatchExecuteStatement": true, "GetRecords": true,
}
