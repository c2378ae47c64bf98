package faults

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"
)

// Doc is a rule file: the seed of every rule's random stream and the
// rules, tried in order for each call; the first that fires applies.
type Doc struct {
	Seed  uint64 `json:"seed"`
	Rules []Rule `json:"rules"`
}

// Rule is one fault rule as written. Unset members match anything; a rule
// with no trigger fires on every call it matches.
type Rule struct {
	// What it matches.
	Operation string `json:"operation,omitempty"`
	Table     string `json:"table,omitempty"`
	Index     string `json:"index,omitempty"`
	KeyPrefix string `json:"keyPrefix,omitempty"`
	Principal string `json:"principal,omitempty"`
	// When it fires.
	Probability *float64 `json:"probability,omitempty"`
	Every       *int64   `json:"every,omitempty"`
	After       int64    `json:"after,omitempty"`
	Count       *int64   `json:"count,omitempty"`
	Window      *Window  `json:"window,omitempty"`
	// What it does.
	Error       string   `json:"error,omitempty"`
	Conflict    []int    `json:"conflict,omitempty"`
	Unprocessed *float64 `json:"unprocessed,omitempty"`
	Latency     string   `json:"latency,omitempty"`
	Drop        bool     `json:"drop,omitempty"`
	Hold        string   `json:"hold,omitempty"`
}

// Window is when a rule may fire: from From (default: when the rules were
// set) until Until, or for For after its start.
type Window struct {
	From  string `json:"from,omitempty"`
	Until string `json:"until,omitempty"`
	For   string `json:"for,omitempty"`
}

// maxLatency bounds a latency fault, so that a typo cannot hold a
// connection for hours.
const maxLatency = 5 * time.Minute

// ParseError is a rule file refused: where, and why.
type ParseError struct {
	// Path is the member at fault, e.g. "rules[2].every"; "" for the
	// whole file.
	Path string
	Msg  string
}

func (e *ParseError) Error() string {
	if e.Path == "" {
		return msgPrefix + e.Msg
	}
	return msgPrefix + e.Path + ": " + e.Msg
}

func refuse(path, format string, args ...any) *ParseError {
	return &ParseError{Path: path, Msg: fmt.Sprintf(format, args...)}
}

// Parse reads a rule file, JSON or YAML, refusing unknown members and
// bad values. ops, when not nil, are the operation names a rule may
// name.
func Parse(doc []byte, ops []string) (*Doc, error) {
	doc, err := asJSON(doc)
	if err != nil {
		return nil, err
	}
	top, err := object(doc, "")
	if err != nil {
		return nil, err
	}
	d := &Doc{}
	for _, k := range sortedKeys(top) {
		if err := d.set(k, top[k], ops); err != nil {
			return nil, err
		}
	}
	return d, nil
}

// asJSON is doc as JSON: a YAML document is converted, so that one parser
// checks both.
func asJSON(doc []byte) ([]byte, error) {
	trimmed := bytes.TrimSpace(doc)
	if len(trimmed) > 0 && trimmed[0] == '{' {
		return trimmed, nil
	}
	var v any
	if err := yaml.Unmarshal(doc, &v); err != nil {
		return nil, refuse("", msgYAML, err)
	}
	out, err := json.Marshal(v)
	if err != nil {
		return nil, refuse("", msgNotObject)
	}
	return out, nil
}

// object decodes raw as a JSON object, its members kept raw.
func object(raw []byte, path string) (map[string]json.RawMessage, error) {
	var m map[string]json.RawMessage
	err := json.Unmarshal(raw, &m)
	var syntax *json.SyntaxError
	switch {
	case errors.As(err, &syntax):
		return nil, refuse(path, msgJSON, err)
	case (err != nil || m == nil) && path == "":
		return nil, refuse("", msgNotObject)
	case err != nil || m == nil:
		return nil, refuse(path, msgMustBe, "an object")
	}
	return m, nil
}

func sortedKeys(m map[string]json.RawMessage) []string { return slices.Sorted(maps.Keys(m)) }

func (d *Doc) set(k string, raw json.RawMessage, ops []string) error {
	switch k {
	case "seed":
		if json.Unmarshal(raw, &d.Seed) != nil {
			return refuse("seed", msgMustBe, msgSeed)
		}
	case "rules":
		var rules []json.RawMessage
		if json.Unmarshal(raw, &rules) != nil {
			return refuse("rules", msgMustBe, "a list of rules")
		}
		return d.setRules(rules, ops)
	default:
		return refuse("", msgUnknownMember, k)
	}
	return nil
}

func (d *Doc) setRules(rules []json.RawMessage, ops []string) error {
	d.Rules = make([]Rule, len(rules))
	for i, raw := range rules {
		path := fmt.Sprintf("rules[%d]", i)
		if err := d.Rules[i].parse(raw, path); err != nil {
			return err
		}
		if err := d.Rules[i].check(path, ops); err != nil {
			return err
		}
	}
	return nil
}

// member is how one member of a rule is read: where it goes, and what
// its value must be.
type member struct {
	ptr  func(r *Rule) any
	want string
}

var members = map[string]member{
	"operation":   {func(r *Rule) any { return &r.Operation }, "a string"},
	"table":       {func(r *Rule) any { return &r.Table }, "a string"},
	"index":       {func(r *Rule) any { return &r.Index }, "a string"},
	"keyPrefix":   {func(r *Rule) any { return &r.KeyPrefix }, "a string"},
	"principal":   {func(r *Rule) any { return &r.Principal }, "a string"},
	"probability": {func(r *Rule) any { return &r.Probability }, "a number"},
	"every":       {func(r *Rule) any { return &r.Every }, "a whole number"},
	"after":       {func(r *Rule) any { return &r.After }, "a whole number"},
	"count":       {func(r *Rule) any { return &r.Count }, "a whole number"},
	"error":       {func(r *Rule) any { return &r.Error }, "a string"},
	"conflict":    {func(r *Rule) any { return &r.Conflict }, "a list of whole numbers"},
	"unprocessed": {func(r *Rule) any { return &r.Unprocessed }, "a number"},
	"latency":     {func(r *Rule) any { return &r.Latency }, "a string"},
	"drop":        {func(r *Rule) any { return &r.Drop }, "true or false"},
	"hold":        {func(r *Rule) any { return &r.Hold }, "a string"},
}

func (r *Rule) parse(raw json.RawMessage, path string) error {
	m, err := object(raw, path)
	if err != nil {
		return err
	}
	for _, k := range sortedKeys(m) {
		if k == "window" {
			if err := r.parseWindow(m[k], path+".window"); err != nil {
				return err
			}
			continue
		}
		mem, ok := members[k]
		if !ok {
			return refuse(path, msgUnknownMember, k)
		}
		if json.Unmarshal(m[k], mem.ptr(r)) != nil {
			return refuse(path+"."+k, msgMustBe, mem.want)
		}
	}
	return nil
}

func (r *Rule) parseWindow(raw json.RawMessage, path string) error {
	m, err := object(raw, path)
	if err != nil {
		return err
	}
	r.Window = &Window{}
	fields := map[string]*string{"from": &r.Window.From, "until": &r.Window.Until, "for": &r.Window.For}
	for _, k := range sortedKeys(m) {
		p, ok := fields[k]
		if !ok {
			return refuse(path, msgUnknownMember, k)
		}
		if json.Unmarshal(m[k], p) != nil {
			return refuse(path+"."+k, msgMustBe, "a string")
		}
	}
	return nil
}

// errorNames lists the errors a rule may answer, for messages.
func errorNames() string {
	return strings.Join(slices.Sorted(maps.Keys(errorMessages)), ", ")
}
