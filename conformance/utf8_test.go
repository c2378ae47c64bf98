package conformance_test

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
)

// rawReply is what a client sees of the answer to a raw request.
type rawReply struct {
	status  int
	body    []byte
	Type    string `json:"__type"`
	Message string `json:"message"` // also takes coral's "Message": encoding/json matches keys without case
}

// postRaw sends body byte for byte to the target over HTTP: the SDKs never
// send invalid UTF-8 or lone surrogate escapes, so these tests cannot use
// them.
func postRaw(t *testing.T, url, target, body string) rawReply {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("X-Amz-Target", target)
	req.Header.Set("Content-Type", "application/x-amz-json-1.0")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	r := rawReply{status: resp.StatusCode}
	if r.body, err = io.ReadAll(resp.Body); err != nil {
		t.Fatal(err)
	}
	_ = json.Unmarshal(r.body, &r) // only error bodies have the members
	return r
}
