package jobs

import (
	"encoding/json"
	"sync"
	"time"
)

// TokenWindow is how long a ClientToken makes a request idempotent, as
// the API Reference gives it for both operations.
const TokenWindow = 8 * time.Hour

// Job is one job and its description D, kept current as it runs.
type Job[D any] struct {
	Start  time.Time
	token  string // "" for none
	params []byte // the request's canonical form, for ClientToken reuse

	mu   sync.Mutex
	desc D
}

// New is a job started at start by request (a plain wire struct) with
// ClientToken token (nil: none).
func New[D any](desc D, token *string, request any, start time.Time) *Job[D] {
	j := &Job[D]{Start: start, params: canonical(request), desc: desc}
	if token != nil {
		j.token = *token
	}
	return j
}

// Describe is a copy of the description as it is now.
func (j *Job[D]) Describe() *D {
	j.mu.Lock()
	defer j.mu.Unlock()
	d := j.desc
	return &d
}

// Update changes the description.
func (j *Job[D]) Update(f func(d *D)) {
	j.mu.Lock()
	defer j.mu.Unlock()
	f(&j.desc)
}

// Reuse is the job of list an earlier request with the same ClientToken
// started within TokenWindow of now, if any; conflict reports that it
// asked for something else than request.
func Reuse[D any](list []*Job[D], token *string, request any, now time.Time) (j *Job[D], conflict bool) {
	if token == nil {
		return nil, false
	}
	params := canonical(request)
	for _, j := range list {
		if j.token != *token || now.Sub(j.Start) > TokenWindow {
			continue
		}
		return j, string(j.params) != string(params)
	}
	return nil, false
}

func canonical(request any) []byte {
	b, _ := json.Marshal(request) // wire structs of strings, numbers and pointers cannot fail
	return b
}

// Epoch is t as the API's timestamps are, epoch seconds to the millisecond.
func Epoch(t time.Time) *float64 {
	f := float64(t.UnixMilli()) / 1000
	return &f
}
