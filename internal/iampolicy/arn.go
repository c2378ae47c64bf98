package iampolicy

import "strings"

// arnParts is the number of colon-separated ARN components:
// arn:partition:service:region:account:resource (the resource may hold colons).
const arnParts = 6

// arnPattern matches ARNs component by component, as IAM compares them; a
// wildcard in the resource component may span "/" but no wildcard crosses
// a component boundary. A pattern with fewer components (or "*") is matched
// whole.
type arnPattern struct {
	whole  pattern
	parts  [arnParts]pattern
	split  bool
	hasVar bool
}

func compileARN(s string, vars bool) arnPattern {
	a := arnPattern{whole: compilePattern(s, true, vars)}
	a.hasVar = a.whole.hasVar()
	comps, ok := splitARNPattern(s)
	if !ok {
		return a
	}
	a.split = true
	for i, c := range comps {
		a.parts[i] = compilePattern(c, true, vars)
	}
	return a
}

// splitARNPattern splits at the first five colons outside ${...}, since a
// variable such as ${aws:username} holds a colon of its own.
func splitARNPattern(s string) ([arnParts]string, bool) {
	var out [arnParts]string
	n, start, depth := 0, 0, 0
	for i := 0; i < len(s) && n < arnParts-1; i++ {
		switch {
		case strings.HasPrefix(s[i:], "${"):
			depth++
		case s[i] == '}' && depth > 0:
			depth--
		case s[i] == ':' && depth == 0:
			out[n] = s[start:i]
			n++
			start = i + 1
		}
	}
	out[n] = s[start:]
	return out, n == arnParts-1
}

// splitARN splits a request ARN without allocating.
func splitARN(s string) ([arnParts]string, bool) {
	var out [arnParts]string
	for i := 0; i < arnParts-1; i++ {
		c := strings.IndexByte(s, ':')
		if c < 0 {
			return out, false
		}
		out[i], s = s[:c], s[c+1:]
	}
	out[arnParts-1] = s
	return out, true
}

// match reports whether the ARN (whole, and split when splitOK) matches;
// ok is false when a policy variable could not be resolved.
func (a *arnPattern) match(r *Request, s string, parts *[arnParts]string, splitOK bool) (matched, ok bool) {
	var buf [maxStackToks]rtok
	if !a.split {
		toks, ok := a.whole.resolve(r, &buf)
		return ok && glob(toks, s, false), ok
	}
	if !splitOK {
		return false, a.resolvable(r)
	}
	for i := range a.parts {
		toks, ok := a.parts[i].resolve(r, &buf)
		if !ok {
			return false, false
		}
		if !glob(toks, parts[i], false) {
			return false, a.resolvable(r)
		}
	}
	return true, true
}

// resolvable reports whether every variable of the pattern resolves; a
// mismatch found early must still report an unresolvable variable.
func (a *arnPattern) resolvable(r *Request) bool {
	if !a.hasVar {
		return true
	}
	var buf [maxStackToks]rtok
	for i := range a.parts {
		if _, ok := a.parts[i].resolve(r, &buf); !ok {
			return false
		}
	}
	return true
}

// validResource reports whether s is "*" or looks like an ARN (IAM's check).
func validResource(s string) bool {
	return s == "*" || strings.HasPrefix(s, "arn:")
}
