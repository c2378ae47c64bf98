package apierr

import (
	"errors"
	"strings"
)

// OneValidationError is the text DynamoDB glues before many validation
// messages: in 2026 the service began prefixing, one operation and message
// family at a time, messages that were bare before, without changing the
// rest of their text.
const OneValidationError = "1 validation error detected: "

// Prefixed returns err with OneValidationError in front of its message
// when it is a ValidationException that does not start with it already;
// any other error, and nil, come back unchanged. It copies rather than
// edits, so a shared error value keeps its bare text for the callers that
// report it bare.
func Prefixed(err error) error {
	if err == nil {
		return nil // the hot path: errors.As would put e on the heap
	}
	var e *Error
	if !errors.As(err, &e) || e.Code != Validation || strings.HasPrefix(e.Message, OneValidationError) {
		return err
	}
	c := *e
	c.Message = OneValidationError + e.Message
	return &c
}
