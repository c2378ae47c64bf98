package apierr

import (
	"errors"
	"testing"
)

func TestPrefixedOnlyOnce(t *testing.T) {
	bare := Validationf("x")
	once := Prefixed(bare).(*Error)
	if once.Message != OneValidationError+"x" || bare.Message != "x" {
		t.Fatalf("got %q, original %q", once.Message, bare.Message)
	}
	if twice := Prefixed(once).(*Error); twice.Message != once.Message {
		t.Fatalf("prefixed twice: %q", twice.Message)
	}
	other := New(ResourceNotFound, "y")
	if Prefixed(other) != error(other) || Prefixed(nil) != nil {
		t.Fatal("non-validation errors must pass through")
	}
	plain := errors.New("z")
	if Prefixed(plain) != plain {
		t.Fatal("plain errors must pass through")
	}
}
