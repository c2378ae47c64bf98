package protocol

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"sync"

	"github.com/sortkeydb/sortkey/internal/apierr"
	"github.com/sortkeydb/sortkey/internal/attr"
)

// The messages of the SerializationExceptions Decode words itself.
// DynamoDB's for malformed JSON is none at all (observed on AWS): the
// error body is its __type alone.
const (
	malformedMessage = ""
	// invalidUTF8Message is sortkey's wording: DynamoDB refuses a body
	// that is not valid UTF-8 with a SerializationException, but does not
	// document the message.
	invalidUTF8Message = "Invalid UTF-8 in request body"
)

// Decode parses a request body into v. Malformed JSON and members of the
// wrong JSON type are SerializationExceptions, as DynamoDB's framework
// reports them before any parameter is validated; an empty body is an empty
// request, so that its missing members are reported by validation.
//
// A body that is not valid text (see validText) is refused whole, before
// it is decoded: decoding would turn each bad byte or lone surrogate into
// U+FFFD, as encoding/json does, and distinct keys would become one item.
//
// A body that is the JSON literal null is no object, and refused as any
// other scalar is (DynamoDB refuses it, observed on AWS; its answer is not
// known).
func Decode(body []byte, v any) error {
	switch trimmed := bytes.TrimSpace(body); {
	case len(trimmed) == 0:
		return nil
	case string(trimmed) == "null":
		return apierr.New(apierr.Serialization, msgUnexpectedValue)
	}
	if !validText(body) {
		return apierr.New(apierr.Serialization, invalidUTF8Message)
	}
	return decode(body, v)
}

// decode is Decode of a body that is valid text: by the scanner when it
// covers v and the body, otherwise by encoding/json.
func decode(body []byte, v any) error {
	if decodeFast(body, v) {
		return nil
	}
	return decodeJSON(body, v)
}

// decodeJSON is Decode by encoding/json, for the bodies the fast path
// leaves to it.
func decodeJSON(body []byte, v any) error {
	err := json.Unmarshal(body, v)
	if err == nil {
		return nil
	}
	var syntaxErr *json.SyntaxError
	if !errors.As(err, &syntaxErr) {
		err = firstError(body, v, err)
	}
	return serializationError(err, reflect.TypeOf(v).Elem())
}

// serializationError words an error decoding a request of type root as
// DynamoDB does.
func serializationError(err error, root reflect.Type) error {
	var typeErr *json.UnmarshalTypeError
	if errors.As(err, &typeErr) {
		return apierr.New(apierr.Serialization, "%s", wrongKindMessage(typeErr, root))
	}
	return apierr.New(apierr.Serialization, malformedMessage)
}

// firstError decodes body again by reflection alone to find the error
// encoding/json reports for it. The AttributeValue decoders end the decode
// at their first error, while reflection carries on past a type error and
// reports the first one in the body, which may come before them.
func firstError(body []byte, v any, err error) error {
	t := reflect.TypeOf(v).Elem()
	plain := reflect.New(plainType(t)).Interface()
	if perr := json.Unmarshal(body, plain); perr != nil {
		return perr
	}
	return err
}

var plainTypes sync.Map // reflect.Type to its plainType

// plainType is t with attr.Value and attr.Item replaced by their plain,
// reflection-decoded twins, wherever they appear in it.
func plainType(t reflect.Type) reflect.Type {
	if p, ok := plainTypes.Load(t); ok {
		return p.(reflect.Type)
	}
	p := buildPlainType(t)
	plainTypes.Store(t, p)
	return p
}

var (
	valueType      = reflect.TypeFor[attr.Value]()
	itemType       = reflect.TypeFor[attr.Item]()
	plainValueType = reflect.TypeFor[attr.PlainValue]()
)

func buildPlainType(t reflect.Type) reflect.Type {
	switch {
	case t == valueType:
		return plainValueType
	case t == itemType:
		return reflect.MapOf(t.Key(), plainValueType)
	}
	switch t.Kind() {
	case reflect.Pointer:
		return reflect.PointerTo(plainType(t.Elem()))
	case reflect.Slice:
		return reflect.SliceOf(plainType(t.Elem()))
	case reflect.Map:
		return reflect.MapOf(t.Key(), plainType(t.Elem()))
	case reflect.Struct:
		return plainStruct(t)
	}
	return t
}

// plainStruct keeps names, tags and embedding, all that encoding/json
// reads, so that errors name the same members.
func plainStruct(t reflect.Type) reflect.Type {
	fields := make([]reflect.StructField, t.NumField())
	changed := false
	for i := range fields {
		f := t.Field(i)
		fields[i] = reflect.StructField{Name: f.Name, PkgPath: f.PkgPath, Type: plainType(f.Type), Tag: f.Tag, Anonymous: f.Anonymous}
		changed = changed || fields[i].Type != f.Type
	}
	if !changed {
		return t
	}
	return reflect.StructOf(fields)
}
