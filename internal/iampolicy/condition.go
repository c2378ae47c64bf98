package iampolicy

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math"
	"net/netip"
	"strconv"
	"strings"
	"time"
)

// condEntry is one operator applied to one context key.
type condEntry struct {
	op       opInfo
	set      setOp
	ifExists bool
	key      string // lowercased
	vals     []condValue
}

// condValue is one policy value, compiled for its operator's family.
type condValue struct {
	pat  pattern // string families, Bool
	arn  arnPattern
	num  float64
	date time.Time
	ip   netip.Prefix
	bin  string // canonical base64
	null bool
}

// compileConditions turns the Condition element into AND-ed entries.
func compileConditions(raw json.RawMessage, vars bool) ([]condEntry, error) {
	var block map[string]map[string]json.RawMessage
	if err := json.Unmarshal(raw, &block); err != nil {
		return nil, &Error{msgConditionShape}
	}
	var out []condEntry
	for name, keys := range block {
		op, set, ifExists, ok := parseOperator(name)
		if !ok {
			return nil, &Error{fmt.Sprintf(msgUnknownOperator, name)}
		}
		for key, rawVals := range keys {
			e, err := compileEntry(op, name, key, rawVals, vars)
			if err != nil {
				return nil, err
			}
			e.set, e.ifExists = set, ifExists
			out = append(out, e)
		}
	}
	return out, nil
}

func compileEntry(op opInfo, name, key string, raw json.RawMessage, vars bool) (condEntry, error) {
	e := condEntry{op: op, key: strings.ToLower(key)}
	if !strings.Contains(key, ":") {
		return e, &Error{msgVendor}
	}
	strs, ok := conditionStrings(raw)
	if !ok || len(strs) == 0 {
		return e, &Error{fmt.Sprintf(msgConditionValues, name, key)}
	}
	for _, s := range strs {
		v, ok := compileValue(op.fam, s, vars)
		if !ok {
			return e, &Error{fmt.Sprintf(msgConditionValue, s, name)}
		}
		e.vals = append(e.vals, v)
	}
	return e, nil
}

// conditionStrings accepts a string, number or boolean, or a list of them,
// and yields their text as IAM does ("Bool": {"aws:SecureTransport": false}).
func conditionStrings(raw json.RawMessage) ([]string, bool) {
	var list []json.RawMessage
	if err := json.Unmarshal(raw, &list); err != nil {
		list = []json.RawMessage{raw}
	}
	out := make([]string, 0, len(list))
	for _, item := range list {
		s, ok := scalarText(item)
		if !ok {
			return nil, false
		}
		out = append(out, s)
	}
	return out, true
}

func scalarText(raw json.RawMessage) (string, bool) {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s, true
	}
	var n json.Number
	if json.Unmarshal(raw, &n) == nil {
		return n.String(), true
	}
	var b bool
	if json.Unmarshal(raw, &b) == nil {
		return strconv.FormatBool(b), true
	}
	return "", false
}

// compileValue parses one policy value once. Policy variables are allowed
// where IAM allows them: string, ARN and Bool operators.
func compileValue(fam family, s string, vars bool) (condValue, bool) {
	var v condValue
	switch fam {
	case famString, famStringIgnoreCase:
		v.pat = compilePattern(s, false, vars)
	case famStringLike:
		v.pat = compilePattern(s, true, vars)
	case famARN:
		v.arn = compileARN(s, vars)
	case famBool:
		v.pat = compilePattern(s, false, vars)
		return v, isBool(s) || v.pat.hasVar()
	case famNull:
		v.null = strings.EqualFold(s, "true")
		return v, isBool(s)
	case famNumeric:
		n, ok := parseNumber(s)
		v.num = n
		return v, ok
	case famDate:
		d, ok := parseDate(s)
		v.date = d
		return v, ok
	case famBinary:
		b, err := base64.StdEncoding.DecodeString(s)
		v.bin = base64.StdEncoding.EncodeToString(b)
		return v, err == nil
	case famIP:
		p, ok := parseCIDR(s)
		v.ip = p
		return v, ok
	}
	return v, true
}

func (p *pattern) hasVar() bool {
	for _, t := range p.toks {
		if t.kind == tVar {
			return true
		}
	}
	return false
}

func isBool(s string) bool {
	return strings.EqualFold(s, "true") || strings.EqualFold(s, "false")
}

func parseNumber(s string) (float64, bool) {
	n, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	return n, err == nil && !math.IsNaN(n) && !math.IsInf(n, 0)
}

// dateLayouts are the ISO 8601 forms IAM documents; epoch seconds are
// handled separately.
var dateLayouts = []string{
	time.RFC3339Nano,
	"2006-01-02T15:04Z07:00",
	"2006-01-02T15:04:05",
	"2006-01-02",
}

func parseDate(s string) (time.Time, bool) {
	if s != "" && strings.Trim(s, "0123456789") == "" {
		n, err := strconv.ParseInt(s, 10, 64)
		return time.Unix(n, 0), err == nil
	}
	for _, layout := range dateLayouts {
		if t, err := time.Parse(layout, s); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}

// parseCIDR accepts a CIDR block or a bare address (a /32 or /128).
func parseCIDR(s string) (netip.Prefix, bool) {
	if p, err := netip.ParsePrefix(s); err == nil {
		return p.Masked(), true
	}
	a, err := netip.ParseAddr(s)
	if err != nil {
		return netip.Prefix{}, false
	}
	return netip.PrefixFrom(a, a.BitLen()), true
}

// eval applies the entry to the request, following the IAM rules for
// absent keys, set operators and negated operators.
func (e *condEntry) eval(r *Request) bool {
	vals, present := r.lookup(e.key)
	if e.op.fam == famNull {
		return e.evalNull(present && vals.len() > 0)
	}
	if !present || vals.len() == 0 {
		return e.absent()
	}
	switch e.set {
	case setAll:
		return e.forAll(r, vals)
	case setAny:
		return e.forAny(r, vals)
	}
	for i := 0; i < vals.len(); i++ {
		m, ok := e.matchAny(r, vals.at(i))
		if !ok {
			return false
		}
		if m {
			return !e.op.negated
		}
	}
	return e.op.negated
}

// absent: IfExists and ForAllValues hold vacuously, ForAnyValue needs a
// value, and a negated operator holds because nothing matches.
func (e *condEntry) absent() bool {
	switch {
	case e.ifExists, e.set == setAll:
		return true
	case e.set == setAny:
		return false
	}
	return e.op.negated
}

func (e *condEntry) evalNull(present bool) bool {
	for _, v := range e.vals {
		if v.null != present {
			return true
		}
	}
	return false
}

func (e *condEntry) forAll(r *Request, vals ctxValues) bool {
	for i := 0; i < vals.len(); i++ {
		m, ok := e.matchAny(r, vals.at(i))
		if !ok || m == e.op.negated {
			return false
		}
	}
	return true
}

func (e *condEntry) forAny(r *Request, vals ctxValues) bool {
	for i := 0; i < vals.len(); i++ {
		m, ok := e.matchAny(r, vals.at(i))
		if !ok {
			return false
		}
		if m != e.op.negated {
			return true
		}
	}
	return false
}

// matchAny reports whether cv matches any policy value (the OR of values);
// ok is false when a policy variable cannot be resolved.
func (e *condEntry) matchAny(r *Request, cv string) (matched, ok bool) {
	for i := range e.vals {
		m, ok := e.match(r, &e.vals[i], cv)
		if !ok {
			return false, false
		}
		if m {
			return true, true
		}
	}
	return false, true
}

func (e *condEntry) match(r *Request, v *condValue, cv string) (bool, bool) {
	var buf [maxStackToks]rtok
	switch e.op.fam {
	case famString, famStringIgnoreCase, famBool:
		toks, ok := v.pat.resolve(r, &buf)
		return ok && equalToks(toks, cv, e.op.fam != famString), ok
	case famStringLike:
		toks, ok := v.pat.resolve(r, &buf)
		return ok && glob(toks, cv, false), ok
	case famARN:
		parts, split := splitARN(cv)
		return v.arn.match(r, cv, &parts, split)
	}
	return e.matchTyped(v, cv), true
}

// matchTyped compares the families that take no policy variables.
func (e *condEntry) matchTyped(v *condValue, cv string) bool {
	switch e.op.fam {
	case famNumeric:
		n, ok := parseNumber(cv)
		return ok && ordered(e.op.cmp, compareFloat(n, v.num))
	case famDate:
		d, ok := parseDate(cv)
		return ok && ordered(e.op.cmp, d.Compare(v.date))
	case famBinary:
		return cv == v.bin
	case famIP:
		a, err := netip.ParseAddr(cv)
		return err == nil && v.ip.Contains(a.Unmap())
	}
	return false
}

func compareFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
