package agent

import (
	"fmt"
	"maps"
	"slices"
)

const (
	msgNotItem     = "%s: want an object of attributes, such as {\"pk\": {\"S\": \"a\"}}, not %s"
	msgEmptyItem   = "%s: an item has at least one attribute"
	msgNotValue    = "%s: want one attribute value in DynamoDB JSON, such as {\"S\": \"a\"} or {\"N\": \"1\"}, not %s"
	msgUnknownType = "%s: %q is not a DynamoDB type (S, N, B, BOOL, NULL, M, L, SS, NS or BS)"
	msgValueType   = "%s: %s takes %s, not %s"
)

// valueTypes are what each DynamoDB JSON type holds, as its error says.
var valueTypes = map[string]string{
	"S": "a string", "N": `a number in a string, such as "12.5"`, "B": "base64 in a string",
	"BOOL": "true or false", "NULL": "true", "M": "an object of attribute values",
	"L": "a list of attribute values", "SS": "a list of strings", "NS": "a list of numbers in strings",
	"BS": "a list of base64 strings",
}

// checkItem wants v to be an item (a key, an Item) in DynamoDB JSON.
func checkItem(path string, v any) error {
	item, ok := v.(map[string]any)
	if !ok {
		return fmt.Errorf(msgNotItem, path, compactJSON(v))
	}
	if len(item) == 0 {
		return fmt.Errorf(msgEmptyItem, path)
	}
	return checkMap(path, item)
}

func checkMap(path string, m map[string]any) error {
	for _, name := range slices.Sorted(maps.Keys(m)) {
		if err := checkValue(path+"."+name, m[name]); err != nil {
			return err
		}
	}
	return nil
}

// checkValue wants v to be one attribute value: one type and what that
// type holds. Python's True (written by some generators) is not JSON and
// never reaches here; "True" in a string does, and is refused.
func checkValue(path string, v any) error {
	av, ok := v.(map[string]any)
	if !ok || len(av) != 1 {
		return fmt.Errorf(msgNotValue, path, compactJSON(v))
	}
	for typ, x := range av {
		want, known := valueTypes[typ]
		if !known {
			return fmt.Errorf(msgUnknownType, path, typ)
		}
		if !holds(typ, x) {
			return fmt.Errorf(msgValueType, path, typ, want, compactJSON(x))
		}
		return nested(path, typ, x)
	}
	return nil
}

// holds reports whether x has the JSON shape typ takes.
func holds(typ string, x any) bool {
	switch typ {
	case "S", "N", "B":
		_, ok := x.(string)
		return ok
	case "BOOL":
		_, ok := x.(bool)
		return ok
	case "NULL":
		return x == true
	case "M":
		_, ok := x.(map[string]any)
		return ok
	case "L":
		_, ok := x.([]any)
		return ok
	}
	return stringList(x)
}

func stringList(x any) bool {
	list, ok := x.([]any)
	for _, e := range list {
		if _, isString := e.(string); !isString {
			return false
		}
	}
	return ok
}

// nested checks the values inside an M or an L.
func nested(path, typ string, x any) error {
	switch typ {
	case "M":
		return checkMap(path, x.(map[string]any))
	case "L":
		for i, e := range x.([]any) {
			if err := checkValue(fmt.Sprintf("%s[%d]", path, i), e); err != nil {
				return err
			}
		}
	}
	return nil
}
