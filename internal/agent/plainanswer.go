package agent

import "encoding/json"

// toPlainAnswer rewrites the attribute values of DynamoDB's answer as
// plain JSON, member by member where the API Reference puts items.
func toPlainAnswer(resp map[string]any) {
	for _, k := range []string{"Item", "Attributes", "LastEvaluatedKey"} {
		plainMember(resp, k, toPlainAttrs)
	}
	plainMember(resp, "Items", eachOf(toPlainAttrs))
	plainMember(resp, "Responses", toPlainResponses)
	plainMember(resp, "UnprocessedKeys", eachOf(toPlainRequest))
	plainMember(resp, "UnprocessedItems", eachOf(eachOf(eachOf(toPlainRequest))))
	plainMember(resp, "Records", eachOf(toPlainRecord))
	plainMember(resp, "SearchResults", eachOf(toPlainRequest))
}

func plainMember(m map[string]any, k string, convert func(any) any) {
	if v, present := m[k]; present {
		m[k] = convert(v)
	}
}

// eachOf applies convert to each element of a list or each value of an
// object; anything else is left as it is.
func eachOf(convert func(any) any) func(any) any {
	return func(v any) any {
		switch x := v.(type) {
		case []any:
			for i := range x {
				x[i] = convert(x[i])
			}
		case map[string]any:
			for k := range x {
				x[k] = convert(x[k])
			}
		}
		return v
	}
}

// toPlainResponses: BatchGetItem's {table: [items]}, or the transact and
// PartiQL tools' [{Item}].
func toPlainResponses(v any) any {
	if _, isObject := v.(map[string]any); isObject {
		return eachOf(eachOf(toPlainAttrs))(v)
	}
	return eachOf(toPlainRequest)(v)
}

// toPlainRequest converts an item holder: {Item}, {Key} or {Keys: [...]}.
func toPlainRequest(v any) any {
	m, isObject := v.(map[string]any)
	if !isObject {
		return v
	}
	plainMember(m, "Item", toPlainAttrs)
	plainMember(m, "Key", toPlainAttrs)
	plainMember(m, "Keys", eachOf(toPlainAttrs))
	return m
}

// toPlainRecord converts a stream record's keys and images.
func toPlainRecord(v any) any {
	r, isObject := v.(map[string]any)
	if d, hasData := r["dynamodb"].(map[string]any); isObject && hasData {
		for _, k := range []string{"Keys", "NewImage", "OldImage"} {
			plainMember(d, k, toPlainAttrs)
		}
	}
	return v
}

// toPlainAttrs converts an object of attribute values.
func toPlainAttrs(v any) any {
	m, isObject := v.(map[string]any)
	if !isObject {
		return v
	}
	out := make(map[string]any, len(m))
	for k, x := range m {
		out[k] = toPlain(x)
	}
	return out
}

// toPlain is one attribute value as plain JSON; a value that is not a
// well-formed attribute value is left as it is.
func toPlain(v any) any {
	av, isObject := v.(map[string]any)
	if !isObject || len(av) != 1 {
		return v
	}
	for t, x := range av {
		if out, known := toPlainTyped(t, x); known {
			return out
		}
	}
	return v
}

func toPlainTyped(t string, x any) (any, bool) {
	switch t {
	case "S", "B", "BOOL", "SS", "BS":
		return x, true
	case "NULL":
		return nil, true
	case "N":
		return plainNumber(x)
	case "NS":
		return plainNumbers(x)
	case "L":
		return eachOf(toPlain)(x), true
	case "M":
		return toPlainAttrs(x), true
	}
	return nil, false
}

func plainNumber(x any) (any, bool) {
	s, isString := x.(string)
	if !isString || !isNumberText(s) {
		return nil, false
	}
	return json.Number(s), true
}

// isNumberText reports whether s is a JSON number and nothing else, as
// json.Number must be to be encoded.
func isNumberText(s string) bool {
	return s != "" && (s[0] == '-' || isDigit(s[0])) && isDigit(s[len(s)-1]) && json.Valid([]byte(s))
}

func isDigit(b byte) bool { return '0' <= b && b <= '9' }

func plainNumbers(x any) (any, bool) {
	list, isList := x.([]any)
	if !isList {
		return nil, false
	}
	out := make([]any, len(list))
	for i, n := range list {
		var ok bool
		if out[i], ok = plainNumber(n); !ok {
			return nil, false
		}
	}
	return out, true
}
