package clock

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"
)

// Path is where the clock is served: GET reads it, POST moves it.
const Path = "/sortkey/clock"

// maxBody bounds a POST body; a move is a few dozen bytes.
const maxBody = 4 << 10

// The answers to a POST body that is not a move.
const (
	msgBadJSON     = `body must be a JSON object: {"advance": "2h"} or {"set": "2026-01-01T00:00:00Z"}`
	msgOneMove     = `give exactly one of "advance" and "set"`
	msgBadDuration = `"advance" must be a duration such as "90s", "15m" or "2h": %s`
	msgBadTime     = `"set" must be an RFC 3339 time such as "2026-01-01T00:00:00Z": %s`
	msgTooLarge    = "body is larger than 4 KiB"
)

// move is a decoded POST body: an advance, or a set when isSet.
type move struct {
	advance time.Duration
	set     time.Time
	isSet   bool
}

// parseMove decodes a POST body. Unknown fields, trailing data and a body
// naming both or neither move are refused, so a typo never passes for a
// move of zero.
func parseMove(body []byte) (move, error) {
	var in struct {
		Advance *string `json:"advance"`
		Set     *string `json:"set"`
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&in); err != nil {
		return move{}, errors.New(msgBadJSON)
	}
	if _, err := dec.Token(); err != io.EOF {
		return move{}, errors.New(msgBadJSON)
	}
	switch {
	case (in.Advance == nil) == (in.Set == nil):
		return move{}, errors.New(msgOneMove)
	case in.Set != nil:
		t, err := time.Parse(time.RFC3339, *in.Set)
		if err != nil {
			return move{}, fmt.Errorf(msgBadTime, *in.Set)
		}
		return move{set: t, isSet: true}, nil
	}
	d, err := time.ParseDuration(*in.Advance)
	if err != nil {
		return move{}, fmt.Errorf(msgBadDuration, *in.Advance)
	}
	return move{advance: d}, nil
}

// apply makes the move on v.
func (m move) apply(v *Virtual) (time.Time, error) {
	if m.isSet {
		return v.Set(m.set)
	}
	return v.Advance(m.advance)
}

// ServeHTTP answers GET with the time and POST with a move, both as
// {"now": "<RFC 3339>"}; a refused move is 400 {"error": "<why>"} and
// leaves the clock where it was.
func (v *Virtual) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		writeJSON(w, http.StatusOK, map[string]string{"now": v.Now().Format(time.RFC3339Nano)})
		return
	}
	now, err := v.post(w, r)
	if err != nil {
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": err.Error()})
		return
	}
	writeJSON(w, http.StatusOK, map[string]string{"now": now.Format(time.RFC3339Nano)})
}

func (v *Virtual) post(w http.ResponseWriter, r *http.Request) (time.Time, error) {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBody))
	var tooLarge *http.MaxBytesError
	if errors.As(err, &tooLarge) {
		return time.Time{}, errors.New(msgTooLarge)
	}
	if err != nil {
		return time.Time{}, err
	}
	m, err := parseMove(body)
	if err != nil {
		return time.Time{}, err
	}
	return m.apply(v)
}

func writeJSON(w http.ResponseWriter, status int, v map[string]string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// msgRealClock is what Path answers on a server on the real clock.
const msgRealClock = "this server runs on the real clock, which cannot be moved: start it with --clock virtual (sortkey.Options.Clock)"

// RealHandler answers Path on a server on the real clock: 404, and why,
// rather than the health check or an API error.
func RealHandler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		writeJSON(w, http.StatusNotFound, map[string]string{"error": msgRealClock})
	})
}
