package design

import (
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// The JSON Schema in docs/ is written by hand; these tests hold it to
// model.go and to the example designs.

func loadSchema(t *testing.T) map[string]any {
	t.Helper()
	data, err := os.ReadFile("../../docs/design.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	var s map[string]any
	if err := json.Unmarshal(data, &s); err != nil {
		t.Fatal(err)
	}
	return s
}

// TestSchemaMatchesModel: every struct of the model has a definition of
// its name whose properties are exactly its json members, each described.
func TestSchemaMatchesModel(t *testing.T) {
	defs := loadSchema(t)["$defs"].(map[string]any)
	seen := map[reflect.Type]bool{}
	var walk func(reflect.Type)
	walk = func(rt reflect.Type) {
		for rt.Kind() == reflect.Pointer || rt.Kind() == reflect.Slice || rt.Kind() == reflect.Map {
			rt = rt.Elem()
		}
		if rt.Kind() != reflect.Struct || seen[rt] || rt == reflect.TypeFor[Pos]() {
			return
		}
		seen[rt] = true
		def, ok := defs[rt.Name()].(map[string]any)
		if !ok {
			t.Errorf("the schema has no $defs/%s", rt.Name())
			return
		}
		if rt.Name() == "Condition" { // a template, or the object form
			def = def["oneOf"].([]any)[1].(map[string]any)
		}
		props, _ := def["properties"].(map[string]any)
		var tags []string
		for f := range rt.Fields() {
			tag, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			if tag == "-" || tag == "" {
				continue
			}
			tags = append(tags, tag)
			if p, ok := props[tag].(map[string]any); !ok || p["description"] == nil {
				t.Errorf("$defs/%s lacks a described property %q", rt.Name(), tag)
			}
			walk(f.Type)
		}
		for name := range props {
			if !slices.Contains(tags, name) {
				t.Errorf("$defs/%s has property %q, which %s does not", rt.Name(), name, rt.Name())
			}
		}
		if def["additionalProperties"] != false {
			t.Errorf("$defs/%s allows unknown members, which the parser refuses", rt.Name())
		}
	}
	walk(reflect.TypeFor[Design]())
	if len(seen) < 10 {
		t.Errorf("walked only %d types", len(seen))
	}
}

func TestSchemaAcceptsTheExamples(t *testing.T) {
	schema := loadSchema(t)
	for _, file := range []string{"testdata/market.yaml", "testdata/market-seed.yaml", "testdata/library.yaml"} {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		var root yaml.Node
		if err := yaml.Unmarshal(data, &root); err != nil {
			t.Fatal(err)
		}
		if err := validate(schema, schema, root.Content[0]); err != nil {
			t.Errorf("%s: %v", file, err)
		}
	}
}

// TestSchemaRefuses shows the small validator below does judge.
func TestSchemaRefuses(t *testing.T) {
	schema := loadSchema(t)
	for file, changes := range map[string]map[string]string{
		"testdata/market.yaml": {
			"sortKey: {name: sk, type: S}\n    ttl": "sortkey: {name: sk, type: S}\n    ttl",
			"operation: GetItem":                    "operation: Get",
			"{type: KEYS_ONLY}":                     "{type: KEYS}",
			"returns: [User]":                       "returns: User",
			"version: 1":                            "version: 2",
		},
		"testdata/library.yaml": {
			"distanceFunction: COSINE":     "distanceFunction: L1",
			"dimensions: 3":                "dimensions: 0",
			"topK: 10":                     "topK: 101",
			"hash: {name: shelf, type: S}": "hash: {name: shelf, type: L}",
			"vectorAttribute: emb":         "vector: emb",
		},
	} {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for old, new := range changes {
			var root yaml.Node
			if err := yaml.Unmarshal([]byte(strings.Replace(string(data), old, new, 1)), &root); err != nil {
				t.Fatal(err)
			}
			if err := validate(schema, schema, root.Content[0]); err == nil {
				t.Errorf("%s: the schema accepts %q", file, new)
			}
		}
	}
}

// validate is a small JSON Schema validator: the keywords the design
// schema uses ($ref, oneOf, type, const, enum, properties, required,
// additionalProperties, items, minItems, maxItems, minimum, maximum), over a
// YAML node.
func validate(root, s map[string]any, n *yaml.Node) error {
	if ref, ok := s["$ref"].(string); ok {
		def := root["$defs"].(map[string]any)[strings.TrimPrefix(ref, "#/$defs/")].(map[string]any)
		if err := validate(root, def, n); err != nil {
			return err
		}
	}
	if alts, ok := s["oneOf"].([]any); ok {
		passed := 0
		for _, a := range alts {
			if validate(root, a.(map[string]any), n) == nil {
				passed++
			}
		}
		if passed != 1 {
			return fmt.Errorf("line %d: matches %d of oneOf", n.Line, passed)
		}
	}
	if err := validateScalar(s, n); err != nil {
		return err
	}
	switch n.Kind {
	case yaml.MappingNode:
		return validateObject(root, s, n)
	case yaml.SequenceNode:
		if min, ok := s["minItems"].(float64); ok && len(n.Content) < int(min) {
			return fmt.Errorf("line %d: fewer than %v items", n.Line, min)
		}
		if max, ok := s["maxItems"].(float64); ok && len(n.Content) > int(max) {
			return fmt.Errorf("line %d: more than %v items", n.Line, max)
		}
		if items, ok := s["items"].(map[string]any); ok {
			for _, c := range n.Content {
				if err := validate(root, items, c); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

func validateObject(root, s map[string]any, n *yaml.Node) error {
	props, _ := s["properties"].(map[string]any)
	for _, r := range asList(s["required"]) {
		if member(n, r.(string)) == nil {
			return fmt.Errorf("line %d: %s is required", n.Line, r)
		}
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		key, val := n.Content[i].Value, n.Content[i+1]
		sub, ok := props[key].(map[string]any)
		if !ok {
			sub, ok = s["additionalProperties"].(map[string]any)
		}
		if !ok && s["additionalProperties"] == false {
			return fmt.Errorf("line %d: unknown member %s", n.Content[i].Line, key)
		}
		if ok {
			if err := validate(root, sub, val); err != nil {
				return err
			}
		}
	}
	return nil
}

func asList(v any) []any { l, _ := v.([]any); return l }

// validateScalar checks type, const, enum, minimum and maximum.
func validateScalar(s map[string]any, n *yaml.Node) error {
	var types []any
	switch t := s["type"].(type) {
	case string:
		types = []any{t}
	case []any:
		types = t
	}
	if len(types) > 0 && !slices.ContainsFunc(types, func(t any) bool { return hasType(n, t.(string)) }) {
		return fmt.Errorf("line %d: %q is not of type %v", n.Line, n.Value, types)
	}
	if c, ok := s["const"]; ok && n.Value != fmt.Sprint(c) {
		return fmt.Errorf("line %d: %q is not %v", n.Line, n.Value, c)
	}
	if enum := asList(s["enum"]); enum != nil && !slices.ContainsFunc(enum, func(e any) bool { return n.Kind == yaml.ScalarNode && n.Value == e }) {
		return fmt.Errorf("line %d: %q is not one of %v", n.Line, n.Value, enum)
	}
	if min, ok := s["minimum"].(float64); ok {
		if v, err := strconv.ParseFloat(n.Value, 64); err != nil || v < min {
			return fmt.Errorf("line %d: %q is below %v", n.Line, n.Value, min)
		}
	}
	if max, ok := s["maximum"].(float64); ok {
		if v, err := strconv.ParseFloat(n.Value, 64); err != nil || v > max {
			return fmt.Errorf("line %d: %q is above %v", n.Line, n.Value, max)
		}
	}
	return nil
}

func hasType(n *yaml.Node, t string) bool {
	switch t {
	case "object":
		return n.Kind == yaml.MappingNode
	case "array":
		return n.Kind == yaml.SequenceNode
	case "boolean":
		return n.Kind == yaml.ScalarNode && n.Tag == "!!bool"
	case "integer":
		return n.Kind == yaml.ScalarNode && n.Tag == "!!int"
	case "number":
		return n.Kind == yaml.ScalarNode && (n.Tag == "!!int" || n.Tag == "!!float")
	case "string":
		return n.Kind == yaml.ScalarNode && n.Tag == "!!str"
	}
	return false
}
