package inproc

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"strings"
)

// DynamoDB is the X-Amz-Target prefix of DynamoDB's operations.
const DynamoDB = "DynamoDB_20120810."

// Client calls an API handler in process with JSON in and out, for
// sortkey's own front ends (the console, the agent interface): they meet
// the handler, validation and error texts a client over HTTP meets.
type Client struct {
	API    http.Handler
	Target string // the X-Amz-Target prefix: DynamoDB's when empty
}

// APIError is an error the API answered: its type (the part of __type
// after '#'), message and HTTP status.
type APIError struct {
	Type    string
	Message string
	Status  int
}

func (e *APIError) Error() string { return e.Type + ": " + e.Message }

// Call POSTs op with in as its JSON body and decodes the answer into out;
// an answer other than 200 is an *APIError.
func (c Client) Call(ctx context.Context, op string, in, out any) error {
	body, err := json.Marshal(in)
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, "/", bytes.NewReader(body))
	if err != nil {
		return err
	}
	target := c.Target
	if target == "" {
		target = DynamoDB
	}
	req.Header.Set("X-Amz-Target", target+op)
	req.Header.Set("Content-Type", "application/x-amz-json-1.0")
	req.RemoteAddr = "127.0.0.1:0" // this process, as aws:SourceIp sees it
	rec := &recorder{header: http.Header{}, status: http.StatusOK}
	c.API.ServeHTTP(rec, req)
	if rec.status != http.StatusOK {
		return decodeError(rec)
	}
	return json.Unmarshal(rec.body.Bytes(), out)
}

func decodeError(rec *recorder) error {
	var e struct {
		Type    string `json:"__type"`
		Message string `json:"message"`
		Upper   string `json:"Message"`
	}
	_ = json.Unmarshal(rec.body.Bytes(), &e)
	msg := e.Message
	if msg == "" {
		msg = e.Upper
	}
	return &APIError{Type: e.Type[strings.LastIndexByte(e.Type, '#')+1:], Message: msg, Status: rec.status}
}

// recorder is the ResponseWriter an in-process call answers into.
type recorder struct {
	header http.Header
	body   bytes.Buffer
	status int
}

func (r *recorder) Header() http.Header { return r.header }

func (r *recorder) Write(p []byte) (int, error) { return r.body.Write(p) }

func (r *recorder) WriteHeader(status int) { r.status = status }
