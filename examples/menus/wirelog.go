package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/sortkeydb/sortkey/examples/internal/runner"
)

// Request is what the wire log keeps of one request beyond what
// runner.Recorder does: a transaction's actions (a transaction names its
// tables in them) and a Query's direction and limit.
type Request struct {
	Op      string
	Actions []Action
	Forward bool  // ScanIndexForward, true unless sent as false
	Limit   int32 // 0 when not sent
}

// Action is one action of a TransactWriteItems request.
type Action struct {
	Kind      string // Put, Update, Delete or ConditionCheck
	Table     string
	PK, SK    string
	Condition string
	Update    string
}

// wireLog records every request passing through it, in order.
type wireLog struct {
	next http.RoundTripper
	mu   sync.Mutex
	reqs []Request
}

// withWireLog is env's client with its requests also passing a wireLog.
func withWireLog(env *runner.Env) (*dynamodb.Client, *wireLog) {
	log := &wireLog{next: env.Recorder}
	client := dynamodb.New(env.Client.Options(), func(o *dynamodb.Options) {
		o.HTTPClient = &http.Client{Transport: log}
	})
	return client, log
}

// RoundTrip records the request, then sends it on.
func (l *wireLog) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Body != nil {
		body, err := io.ReadAll(req.Body)
		if err != nil {
			return nil, err
		}
		req.Body = io.NopCloser(bytes.NewReader(body))
		_, op, _ := strings.Cut(req.Header.Get("X-Amz-Target"), ".")
		l.record(op, body)
	}
	return l.next.RoundTrip(req)
}

// wireRequest is the part of a request body the log keeps.
type wireRequest struct {
	TransactItems    []map[string]wireAction
	ScanIndexForward *bool
	Limit            int32
}

// wireAction is one transaction action; a Put names its key in Item.
type wireAction struct {
	TableName, ConditionExpression, UpdateExpression string
	Key, Item                                        map[string]map[string]any
}

func (l *wireLog) record(op string, body []byte) {
	var in wireRequest
	_ = json.Unmarshal(body, &in)
	r := Request{Op: op, Forward: in.ScanIndexForward == nil || *in.ScanIndexForward, Limit: in.Limit}
	for _, item := range in.TransactItems {
		for kind, a := range item {
			r.Actions = append(r.Actions, a.action(kind))
		}
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.reqs = append(l.reqs, r)
}

func (a wireAction) action(kind string) Action {
	key := a.Key
	if key == nil {
		key = a.Item
	}
	return Action{Kind: kind, Table: a.TableName, PK: stringOf(key["PK"]), SK: stringOf(key["SK"]),
		Condition: a.ConditionExpression, Update: a.UpdateExpression}
}

// stringOf is a wire attribute value's string, or "" if it is not one.
func stringOf(av map[string]any) string {
	s, _ := av["S"].(string)
	return s
}

// Take returns the requests recorded since the last Take.
func (l *wireLog) Take() []Request {
	l.mu.Lock()
	defer l.mu.Unlock()
	reqs := l.reqs
	l.reqs = nil
	return reqs
}

// detailed adds to the recorder's calls what the log saw: a Query's
// direction and limit, a transaction's table and its actions.
func detailed(calls []runner.Call, reqs []Request) []runner.Call {
	var out []runner.Call
	for i, c := range calls {
		if i >= len(reqs) || reqs[i].Op != c.Op {
			return append(out, calls[i:]...) // not seen by the log: print as recorded
		}
		out = append(out, reqs[i].annotate(c)...)
	}
	return out
}

func (r Request) annotate(c runner.Call) []runner.Call {
	if !r.Forward {
		c.KeyCondition += ", ScanIndexForward=false"
	}
	if r.Limit > 0 {
		c.KeyCondition += fmt.Sprintf(", Limit=%d", r.Limit)
	}
	if len(r.Actions) > 0 {
		c.Table = r.Actions[0].Table
	}
	out := []runner.Call{c}
	for _, a := range r.Actions {
		out = append(out, runner.Call{Op: "  " + a.Kind, Table: a.Table, KeyCondition: a.String()})
	}
	return out
}

func (a Action) String() string {
	s := a.PK + " / " + a.SK
	if a.Condition != "" {
		s += ", if " + a.Condition
	}
	if a.Update != "" {
		s += ", " + a.Update
	}
	return s
}
