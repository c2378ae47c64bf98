package design

import "strings"

// Whether two key templates can produce a common value, decided exactly
// for an approximation of what a placeholder stands for.
//
// The approximation: a placeholder is a non-empty value that contains
// none of the separators, where the separators are the punctuation
// characters written right next to a placeholder in either template (the
// "#" of "U#{userId}#O"). Designs delimit ids with such characters and
// the ids themselves (ULIDs, UUIDs, numbers) do not contain them; were a
// placeholder any string at all, "O#{orderId}" and "O#{orderId}#{line}"
// would always overlap (orderId = "x#1") and no single-table design could
// pass. A design whose values do contain their own separators (free text
// in a key) can collide where Check says it cannot.

// elem is one character position of a template: a literal byte, one
// placeholder byte, any further placeholder bytes, or any bytes at all
// (what follows a begins_with prefix).
type elem struct {
	kind byte // 'l' literal, 'v' one placeholder byte, 'V' zero or more, '*' anything
	c    byte
}

func (e elem) repeats() bool { return e.kind == 'V' || e.kind == '*' }

// elems spells out a template's parts; open adds "anything" at the end,
// for a begins_with prefix.
func elems(parts []Part, open bool) []elem {
	var out []elem
	for _, p := range parts {
		if p.Var != "" {
			out = append(out, elem{kind: 'v'}, elem{kind: 'V'})
			continue
		}
		for i := 0; i < len(p.Literal); i++ {
			out = append(out, elem{kind: 'l', c: p.Literal[i]})
		}
	}
	if open {
		out = append(out, elem{kind: '*'})
	}
	return out
}

// separators are the punctuation bytes next to a placeholder in any of
// the templates.
func separators(ts ...[]Part) *[256]bool {
	var sep [256]bool
	mark := func(b byte) {
		if !isAlnum(b) && b < 0x80 {
			sep[b] = true
		}
	}
	for _, parts := range ts {
		for i, p := range parts {
			if p.Literal == "" {
				continue
			}
			if i > 0 && parts[i-1].Var != "" {
				mark(p.Literal[0])
			}
			if i+1 < len(parts) && parts[i+1].Var != "" {
				mark(p.Literal[len(p.Literal)-1])
			}
		}
	}
	return &sep
}

func isAlnum(b byte) bool {
	return b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z'
}

// compatible reports whether one byte can be both x and y.
func compatible(x, y elem, sep *[256]bool) bool {
	switch {
	case x.kind == '*' || y.kind == '*':
		return true
	case x.kind == 'l' && y.kind == 'l':
		return x.c == y.c
	case x.kind == 'l':
		return !sep[x.c]
	case y.kind == 'l':
		return !sep[y.c]
	}
	return true
}

// maxOverlapStates bounds the search; key values are at most 2 KB, so real
// templates stay far below it.
const maxOverlapStates = 1 << 22

// intersect reports whether some string is spelt by both a and b: a
// search over pairs of positions, each step reading one byte both allow
// or skipping a repeat.
func intersect(a, b []elem, sep *[256]bool) bool {
	if (len(a)+1)*(len(b)+1) > maxOverlapStates {
		return true // too long to decide cheaply: assume the worst
	}
	seen := make([]bool, (len(a)+1)*(len(b)+1))
	stack := [][2]int{{0, 0}}
	for len(stack) > 0 {
		i, j := stack[len(stack)-1][0], stack[len(stack)-1][1]
		stack = stack[:len(stack)-1]
		if k := i*(len(b)+1) + j; seen[k] {
			continue
		} else {
			seen[k] = true
		}
		if i == len(a) && j == len(b) {
			return true
		}
		if i < len(a) && a[i].repeats() {
			stack = append(stack, [2]int{i + 1, j})
		}
		if j < len(b) && b[j].repeats() {
			stack = append(stack, [2]int{i, j + 1})
		}
		if i < len(a) && j < len(b) && compatible(a[i], b[j], sep) {
			ni, nj := i, j
			if !a[i].repeats() {
				ni++
			}
			if !b[j].repeats() {
				nj++
			}
			stack = append(stack, [2]int{ni, nj})
		}
	}
	return false
}

// Overlaps reports whether templates a and b can produce the same value
// (under the approximation above); a template that does not parse
// overlaps nothing, Check reports it on its own.
func Overlaps(a, b Template) bool { return overlaps(a, false, b) }

// overlaps is Overlaps where a may be a begins_with prefix (open).
func overlaps(a Template, open bool, b Template) bool {
	if !literalsAgree(a, open, b) {
		return false // the usual case, decided without the search
	}
	pa, err1 := a.Parts()
	pb, err2 := b.Parts()
	if err1 != nil || err2 != nil {
		return false
	}
	if !open && sameShape(a, b) {
		return true // the other usual case: one template, its variables named apart
	}
	return intersect(elems(pa, open), elems(pb, false), separators(pa, pb))
}

// literalsAgree is a quick necessary condition: every value of a
// template begins with its literal prefix and ends with its literal
// suffix, so two templates whose prefixes (or suffixes) differ within
// their common length share no value.
func literalsAgree(a Template, open bool, b Template) bool {
	pa, pb := a.Prefix(), b.Prefix()
	if n := min(len(pa), len(pb)); pa[:n] != pb[:n] {
		return false
	}
	if open {
		return true
	}
	sa, sb := suffix(a), suffix(b)
	n := min(len(sa), len(sb))
	return sa[len(sa)-n:] == sb[len(sb)-n:]
}

// suffix is the literal text after t's last placeholder.
func suffix(t Template) string {
	s := string(t)
	if i := strings.LastIndexByte(s, '}'); i >= 0 {
		return s[i+1:]
	}
	return s
}

// sameShape reports whether a and b differ at most in their placeholders'
// names.
func sameShape(a, b Template) bool {
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		if a[i] != b[j] {
			return false
		}
		if a[i] == '{' {
			ka, kb := strings.IndexByte(string(a[i:]), '}'), strings.IndexByte(string(b[j:]), '}')
			if ka < 0 || kb < 0 {
				return false
			}
			i, j = i+ka, j+kb
		}
		i, j = i+1, j+1
	}
	return i == len(a) && j == len(b)
}
