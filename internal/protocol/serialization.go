package protocol

import (
	"encoding/json"
	"reflect"
	"strings"
)

// DynamoDB's framework (coral) reports a JSON value of the wrong kind
// with these texts, observed on AWS: a structure or a list where neither
// is expected, a list where a map is, a scalar where a member or a map
// value or list element should be a structure, map or list, and a scalar
// of one kind where another is expected. coral names the token it read
// (NUMBER_VALUE, ...) and the Java type it wanted.
const (
	msgUnexpectedObject = "Start of structure or map found where not expected."
	msgUnexpectedArray  = "Start of list found where not expected"
	msgUnexpectedField  = "Unexpected field type"
	msgUnexpectedValue  = "Unexpected value type in payload"
	msgNotCollection    = "Unrecognized collection type "
	msgCannotConvert    = " cannot be converted to "
)

// tokenNames are coral's names for the JSON scalars encoding/json calls
// number, string and bool.
var tokenNames = map[string]string{"number": "NUMBER_VALUE", "string": "STRING_VALUE", "bool": "BOOLEAN_VALUE"}

// javaPackage is where coral's DynamoDB model types live; it names the
// element type of a map in msgNotCollection.
const javaPackage = "com.amazonaws.dynamodb.v20120810."

// wrongKindMessage words a type mismatch in a request of type root as
// coral does: by the kind of JSON value found and what was expected
// where it was found.
func wrongKindMessage(e *json.UnmarshalTypeError, root reflect.Type) string {
	want := e.Type
	switch kind, _, _ := strings.Cut(e.Value, " "); {
	case kind == "object" || want == nil:
		return msgUnexpectedObject
	case kind == "array" && want.Kind() == reflect.Map:
		return msgNotCollection + javaType(want, memberType(root, e.Field))
	case kind == "array":
		return msgUnexpectedArray
	case isContainer(want) && isMember(want, memberType(root, e.Field)):
		return msgUnexpectedField
	case isContainer(want):
		return msgUnexpectedValue
	default:
		return tokenNames[kind] + msgCannotConvert + javaNumber(javaScalar(want), e.Field)
	}
}

// isContainer reports whether t is read from a JSON object or array; a
// []byte is a blob, read from a string.
func isContainer(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Struct, reflect.Map:
		return true
	case reflect.Slice:
		return t.Elem().Kind() != reflect.Uint8
	}
	return false
}

// isMember reports whether the mismatch is at the member itself, rather
// than at one of its map values or list elements: the member found is of
// the kind that was expected.
func isMember(want, member reflect.Type) bool {
	return member != nil && member.Kind() == want.Kind()
}

// memberType is the type, pointers removed, of the member at path (the
// member names encoding/json reports, dot-separated) in root. Map values
// and list elements on the way are passed through; nil if not found.
func memberType(root reflect.Type, path string) reflect.Type {
	t := root
	for name := range strings.SplitSeq(path, ".") {
		t = structField(structOf(t), name)
		if t == nil {
			return nil
		}
	}
	return deref(t)
}

// structOf is the struct that t holds, through pointers, maps and lists.
func structOf(t reflect.Type) reflect.Type {
	for t.Kind() == reflect.Pointer || t.Kind() == reflect.Map || t.Kind() == reflect.Slice {
		t = t.Elem()
	}
	return t
}

// structField is the type of t's field that encoding/json names name: by
// its tag, or by its Go name (untagged and embedded fields).
func structField(t reflect.Type, name string) reflect.Type {
	if t.Kind() != reflect.Struct {
		return nil
	}
	for i := range t.NumField() {
		f := t.Field(i)
		tag, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if tag == name || (tag == "" && f.Name == name) {
			return f.Type
		}
	}
	return nil
}

func deref(t reflect.Type) reflect.Type {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t
}

// javaScalar names the Java type coral converts a scalar member to.
func javaScalar(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Bool:
		return "Boolean"
	case reflect.Int64, reflect.Uint64:
		return "Long"
	case reflect.Int, reflect.Int32, reflect.Uint32, reflect.Int16, reflect.Uint16:
		return "Integer"
	case reflect.Uint8, reflect.Int8:
		return "Byte"
	case reflect.Float32, reflect.Float64:
		return "Double"
	case reflect.Slice:
		return "ByteBuffer"
	}
	return "String"
}

// longMembers are the integer members DynamoDB's model types as Long;
// the others (Limit, Segment, ...) are Integer, whatever Go type holds them.
var longMembers = map[string]bool{"ReadCapacityUnits": true, "WriteCapacityUnits": true,
	"MaxReadRequestUnits": true, "MaxWriteRequestUnits": true, "ReadUnitsPerSecond": true, "WriteUnitsPerSecond": true}

// javaNumber corrects an integer's Java type by the member at path.
func javaNumber(java, path string) string {
	if java != "Integer" && java != "Long" {
		return java
	}
	if longMembers[path[strings.LastIndex(path, ".")+1:]] {
		return "Long"
	}
	return "Integer"
}

// javaType names a member's type as coral's model does. member is the
// request's own type where known: encoding/json reports the plain twin,
// whose structs have lost their names.
func javaType(t, member reflect.Type) string {
	if member != nil && member.Kind() == t.Kind() {
		t = member
	}
	t = deref(t)
	switch {
	case t == valueType || t == plainValueType:
		return javaPackage + "AttributeValue"
	case t.Kind() == reflect.Map:
		return "java.util.Map<java.lang.String, " + javaType(t.Elem(), nil) + ">"
	case t.Kind() == reflect.Slice && !isContainer(t):
		return "java.nio.ByteBuffer"
	case t.Kind() == reflect.Slice:
		return "java.util.List<" + javaType(t.Elem(), nil) + ">"
	case t.Kind() == reflect.Struct:
		return javaPackage + t.Name()
	}
	return "java.lang." + javaScalar(t)
}
