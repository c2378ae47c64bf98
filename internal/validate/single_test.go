package validate

import (
	"errors"
	"testing"

	"github.com/sortkeydb/sortkey/internal/apierr"
)

// TestSingleOnlyOnce: the one-error prefix is added to a bare
// ValidationException once, never twice, without editing the original
// (a shared error value keeps its bare text for the callers that report
// it bare), and any other error passes through.
func TestSingleOnlyOnce(t *testing.T) {
	bare := apierr.Validationf("x")
	once := Single(bare).(*apierr.Error)
	if once.Message != prefixOne+"x" || bare.Message != "x" {
		t.Fatalf("got %q, original %q", once.Message, bare.Message)
	}
	if twice := Single(once).(*apierr.Error); twice.Message != once.Message {
		t.Fatalf("prefixed twice: %q", twice.Message)
	}
	other := apierr.New(apierr.ResourceNotFound, "y")
	if Single(other) != error(other) || Single(nil) != nil {
		t.Fatal("non-validation errors must pass through")
	}
	plain := errors.New("z")
	if Single(plain) != plain {
		t.Fatal("plain errors must pass through")
	}
}
