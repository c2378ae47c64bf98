package apierr

import (
	"errors"
	"go/ast"
	"go/parser"
	"go/token"
	"strings"
	"testing"
)

// TestTableComplete fails when a Code constant has no entry in table, so a
// new code cannot reach a client with an empty namespace.
func TestTableComplete(t *testing.T) {
	f, err := parser.ParseFile(token.NewFileSet(), "apierr.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	ast.Inspect(f, func(node ast.Node) bool {
		spec, ok := node.(*ast.ValueSpec)
		if !ok || spec.Type == nil || types(spec) != "Code" {
			return true
		}
		for _, name := range spec.Names {
			n++
			code := Code(strings.Trim(spec.Values[0].(*ast.BasicLit).Value, `"`))
			if _, ok := table[code]; !ok {
				t.Errorf("code %s (%s) has no table entry", name.Name, code)
			}
		}
		return true
	})
	if n != len(table) {
		t.Errorf("%d codes declared, %d in table", n, len(table))
	}
}

func types(spec *ast.ValueSpec) string {
	if id, ok := spec.Type.(*ast.Ident); ok {
		return id.Name
	}
	return ""
}

func TestWireType(t *testing.T) {
	cases := map[Code]string{
		ResourceNotFound: "com.amazonaws.dynamodb.v20120810#ResourceNotFoundException",
		Validation:       "com.amazon.coral.validate#ValidationException",
		UnknownOperation: "com.amazon.coral.service#UnknownOperationException",
		Serialization:    "com.amazon.coral.service#SerializationException",
	}
	for c, want := range cases {
		if got := New(c, "m").Type(); got != want {
			t.Errorf("%s: type %q, want %q", c, got, want)
		}
	}
}

func TestWrapHidesInternalDetail(t *testing.T) {
	e := Wrap(errors.New("pebble: /secret/path/000001.log: corrupt"))
	if e.Code != InternalServerError || e.Status() != 500 || strings.Contains(e.Message, "secret") {
		t.Fatalf("internal error leaked or misclassified: %+v", e)
	}
	v := Validationf("bad %s", "thing")
	if Wrap(v) != v {
		t.Fatal("Wrap changed an *Error")
	}
}

// TestSerializationExceptionUsesCapitalMessageKey: coral's framework
// words SerializationException (and AccessDeniedException) under
// "Message", every other error under "message".
func TestSerializationExceptionUsesCapitalMessageKey(t *testing.T) {
	cases := map[Code]string{Serialization: "Message", AccessDenied: "Message", Validation: "message",
		UnknownOperation: "message", ResourceNotFound: "message", Code("NoSuchCode"): "message"}
	for c, want := range cases {
		if got := New(c, "m").MessageKey(); got != want {
			t.Errorf("%s: key %q, want %q", c, got, want)
		}
	}
}
