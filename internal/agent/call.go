package agent

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
)

const targetPrefix = "DynamoDB_20120810."

// apiError is a refusal of the DynamoDB API, worded as DynamoDB words it.
type apiError struct{ typ, msg string }

func (e *apiError) Error() string { return e.typ + ": " + e.msg }

// call sends one request to the API handler h, in process, and returns
// the answer's JSON object or the API's refusal.
func call(h http.Handler, op string, req map[string]any) (map[string]any, error) {
	body, err := json.Marshal(req)
	if err != nil {
		return nil, err
	}
	r := httptest.NewRequest(http.MethodPost, "/", bytes.NewReader(body))
	r.Header.Set("X-Amz-Target", targetPrefix+op)
	r.Header.Set("Content-Type", "application/x-amz-json-1.0")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, r)
	var out map[string]any
	if err := json.Unmarshal(rec.Body.Bytes(), &out); err != nil {
		return nil, errors.New(strings.TrimSpace(rec.Body.String()))
	}
	if rec.Code != http.StatusOK {
		return nil, refusal(out)
	}
	return out, nil
}

// refusal is the apiError of an error answer: its type without the
// namespace, and its message (DynamoDB's framework spells some Message).
func refusal(out map[string]any) error {
	typ, _ := out["__type"].(string)
	msg, _ := out["message"].(string)
	if msg == "" {
		msg, _ = out["Message"].(string)
	}
	return &apiError{typ: typ[strings.LastIndexByte(typ, '#')+1:], msg: msg}
}
