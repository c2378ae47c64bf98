package protocol

import (
	"bytes"
	"encoding/json"
	"errors"

	"github.com/sortkeydb/sortkey/internal/apierr"
)

// Decode parses a request body into v. Malformed JSON and members of the
// wrong JSON type are SerializationExceptions, as DynamoDB's framework
// reports them before any parameter is validated; an empty body is an empty
// request, so that its missing members are reported by validation.
func Decode(body []byte, v any) error {
	if len(bytes.TrimSpace(body)) == 0 {
		return nil
	}
	err := json.Unmarshal(body, v)
	if err == nil {
		return nil
	}
	var typeErr *json.UnmarshalTypeError
	if errors.As(err, &typeErr) {
		return apierr.New(apierr.Serialization, "%s", typeMessage(typeErr))
	}
	return apierr.New(apierr.Serialization, "Malformed JSON: the request body could not be parsed")
}

// typeMessage words a type mismatch the way DynamoDB's JSON framework does
// for the two shapes it names; scalars get a plain description.
func typeMessage(e *json.UnmarshalTypeError) string {
	switch e.Value {
	case "object":
		return "Start of structure or map found where not expected."
	case "array":
		return "Start of list found where not expected"
	}
	if e.Field != "" {
		return "Unexpected " + e.Value + " value for member " + e.Field
	}
	return "Unexpected " + e.Value + " value"
}
