package awscli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

const (
	msgFormatOperation = "%s: not a DynamoDB data operation (one of %s)"
	msgFormatRequest   = "%s: the request does not encode as JSON: %v"
	msgFormatParam     = "%s has no parameter %s"
	msgFormatType      = "%s: %s takes %s, not %s"
)

// leading are the parameters written first, in this order, so that a
// command reads as its request does: what it reads, then how.
var leading = []string{"TableName", "IndexName", "Key", "KeyConditionExpression", "FilterExpression",
	"ProjectionExpression", "ExpressionAttributeNames", "ExpressionAttributeValues"}

// kindNames say what each kind takes, for errors.
var kindNames = map[kind]string{text: "a string", number: "a whole number", flag: "true or false",
	jsonArg: "a JSON object or list", names: "a list of strings"}

// Format is the `aws dynamodb ...` command line that sends request for
// operation: Parse's inverse. ReturnConsumedCapacity is left out, as a
// tool that runs the command asks for capacity itself.
func Format(operation string, request map[string]any) (string, error) {
	if _, ok := parameters[operation]; !ok {
		return "", fmt.Errorf(msgFormatOperation, operation, strings.Join(operationNames(), ", "))
	}
	req, err := normalize(operation, request)
	if err != nil {
		return "", err
	}
	words := []string{"aws", "dynamodb", kebab(operation)}
	for _, param := range ordered(req) {
		if param == "ReturnConsumedCapacity" {
			continue
		}
		if !slices.Contains(parameters[operation], param) {
			return "", fmt.Errorf(msgFormatParam, operation, param)
		}
		option, err := formatOption(operation, param, req[param])
		if err != nil {
			return "", err
		}
		words = append(words, option)
	}
	return strings.Join(words, " "), nil
}

func operationNames() []string {
	var ops []string
	for op := range parameters {
		ops = append(ops, op)
	}
	slices.Sort(ops)
	return ops
}

// normalize re-decodes the request as Parse decodes JSON: every number a
// json.Number, every structure a map or list, whatever Go types it had.
func normalize(operation string, request map[string]any) (map[string]any, error) {
	b, err := encode(request)
	if err != nil {
		return nil, fmt.Errorf(msgFormatRequest, operation, err)
	}
	var out map[string]any
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	return out, dec.Decode(&out)
}

// encode is v as compact JSON, with <, > and & as written: a key
// condition's `>` stays readable.
func encode(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// ordered are the request's parameters: the leading ones first, the
// others by name.
func ordered(req map[string]any) []string {
	var out []string
	for _, p := range leading {
		if _, ok := req[p]; ok {
			out = append(out, p)
		}
	}
	var rest []string
	for p := range req {
		if !slices.Contains(leading, p) {
			rest = append(rest, p)
		}
	}
	slices.Sort(rest)
	return append(out, rest...)
}

// formatOption is one parameter as the CLI takes it.
func formatOption(operation, param string, v any) (string, error) {
	k, name := kinds[param], kebab(param)
	if k == flag {
		on, ok := v.(bool)
		if !ok {
			return "", typeError(operation, param, k, v)
		}
		return map[bool]string{true: "--" + name, false: "--no-" + name}[on], nil
	}
	value, ok := formatValue(k, v)
	if !ok {
		return "", typeError(operation, param, k, v)
	}
	if strings.HasPrefix(value, "-") {
		// Parse would read a value beginning with -- as the next option.
		return shellQuote("--" + name + "=" + value), nil
	}
	return "--" + name + " " + shellQuote(value), nil
}

// formatValue is a value of kind k as the option's one word, unquoted.
func formatValue(k kind, v any) (string, bool) {
	switch k {
	case text:
		s, ok := v.(string)
		return s, ok
	case number:
		n, ok := v.(json.Number)
		whole, err := strconv.Atoi(string(n))
		if !ok || err != nil {
			return "", false
		}
		return strconv.Itoa(whole), true
	case names:
		if !allStrings(v) {
			return "", false
		}
	}
	return structureText(v)
}

func allStrings(v any) bool {
	list, ok := v.([]any)
	for _, e := range list {
		if _, isString := e.(string); !isString {
			return false
		}
	}
	return ok
}

// structureText is a map's or list's JSON.
func structureText(v any) (string, bool) {
	switch v.(type) {
	case map[string]any, []any:
		b, err := encode(v)
		return string(b), err == nil
	}
	return "", false
}

func typeError(operation, param string, k kind, v any) error {
	got := "null"
	if v != nil {
		b, _ := encode(v)
		got = string(b)
	}
	return fmt.Errorf(msgFormatType, operation, param, kindNames[k], got)
}

// safeWord are the bytes a word needs no quotes for.
const safeWord = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.,:/@+="

// shellQuote is s as one shell word: bare when nothing in it is special,
// else in single quotes, each single quote in it closed, escaped and
// opened again.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, safeWord) == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
