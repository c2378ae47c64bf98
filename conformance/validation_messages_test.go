package conformance_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/sortkeydb/sortkey/sortkeytest"
)

const (
	validation = "ValidationException"
	oneError   = "1 validation error detected: "
)

// rawCall sends body to op over HTTP, for requests the SDK refuses to
// send (it checks required members itself), and returns the error's type
// and message.
func rawCall(t *testing.T, srv *sortkeytest.Server, op, body string) (code, msg string) {
	t.Helper()
	r := postRaw(t, srv.URL, "DynamoDB_20120810."+op, body)
	if r.status != http.StatusBadRequest || r.Type == "" {
		t.Fatalf("%s: status %d, body %s", op, r.status, r.body)
	}
	return r.Type[strings.LastIndexByte(r.Type, '#')+1:], r.Message
}
