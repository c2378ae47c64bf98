package faults

import (
	"encoding/json"
	"io"
	"net/http"

	"github.com/sortkeydb/sortkey/internal/server"
)

// Path is where the admin API serves the rules.
const Path = server.AdminPrefix + "faults"

// maxRuleFile bounds a PUT body: rule files are small.
const maxRuleFile = 1 << 20

// Status is the rules in force, each with how many calls it matched and
// how many it fired on: what GET /sortkey/faults answers.
type Status struct {
	Seed  uint64       `json:"seed"`
	Rules []RuleStatus `json:"rules"`
	// Holding is how many transactions hold rules keep in flight now.
	Holding int `json:"holding"`
}

// RuleStatus is one rule in force and its counts.
type RuleStatus struct {
	Rule
	Matched int64 `json:"matched"`
	Fired   int64 `json:"fired"`
}

// Status reports the rules in force and their counts.
func (i *Injector) Status() Status {
	i.mu.Lock()
	defer i.mu.Unlock()
	st := Status{Rules: make([]RuleStatus, len(i.rules))}
	if i.doc != nil {
		st.Seed = i.doc.Seed
	}
	for n, s := range i.rules {
		st.Rules[n] = RuleStatus{Rule: s.r, Matched: s.matched, Fired: s.fired}
	}
	st.Holding = i.Held()
	return st
}

// Mount serves the admin API on h: PUT replaces the rules (400 with the
// parse error for a bad file), GET shows them with their counts, DELETE
// removes them, and POST .../release lets held transactions run on.
func (i *Injector) Mount(h *server.Handler) {
	h.Mount("PUT "+Path, http.HandlerFunc(i.put))
	h.Mount("GET "+Path, http.HandlerFunc(i.get))
	h.Mount("DELETE "+Path, http.HandlerFunc(i.remove))
	h.Mount("POST "+Path+"/release", http.HandlerFunc(i.release))
}

// released is what POST /sortkey/faults/release answers.
type released struct {
	Released int `json:"released"`
}

func (i *Injector) release(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, http.StatusOK, released{i.Release()})
}

func (i *Injector) put(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(io.LimitReader(r.Body, maxRuleFile+1))
	switch {
	case err != nil:
		writeJSON(w, http.StatusBadRequest, problem{err.Error()})
	case len(body) > maxRuleFile:
		writeJSON(w, http.StatusRequestEntityTooLarge, problem{msgPrefix + msgTooLarge})
	default:
		if err := i.Set(body); err != nil {
			writeJSON(w, http.StatusBadRequest, problem{err.Error()})
			return
		}
		i.get(w, r)
	}
}

func (i *Injector) get(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, http.StatusOK, i.Status())
}

func (i *Injector) remove(w http.ResponseWriter, _ *http.Request) {
	i.Clear()
	w.WriteHeader(http.StatusNoContent)
}

// problem is the admin API's error body.
type problem struct {
	Message string `json:"message"`
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	b, _ := json.MarshalIndent(v, "", "  ")
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(append(b, '\n'))
}
