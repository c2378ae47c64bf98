package design

import (
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
)

func TestOverlaps(t *testing.T) {
	cases := []struct {
		a, b Template
		want bool
	}{
		{"U#{userId}", "U#{userId}#O", false},
		{"O#{orderId}", "O#{orderId}#{line}", false},
		{"U#{userId}#O", "U#{userId}#R", false},
		{"U#{userId}#O", "U#{id}#O", true},
		{"{handle}", "U", true},
		{"U", "U", true},
		{"U", "O", false},
		{"A#{x}", "{y}#B", true},
		{"Group#{groupId}", "Group#{groupId}#Container#{containerId}", false},
		{"USER#{email}", "USER#{id}", true},
		{"", "", true},
		{"", "{x}", false},
		{"U#{bad", "U#{bad", false},
	}
	for _, c := range cases {
		if got := Overlaps(c.a, c.b); got != c.want {
			t.Errorf("Overlaps(%q, %q) = %v", c.a, c.b, got)
		}
		if got := Overlaps(c.b, c.a); got != c.want {
			t.Errorf("Overlaps(%q, %q) = %v", c.b, c.a, got)
		}
	}
	if !overlaps("O#", true, "O#{orderId}#{line}") || overlaps("P#", true, "O#{orderId}") || !overlaps("O#{orderId}", true, "O#{orderId}#{line}") {
		t.Error("begins_with prefixes")
	}
}

// TestOverlapsAgreesWithEnumeration holds the search against every string
// of up to eight characters, with placeholders read as the approximation
// says (one or more characters other than the separators).
func TestOverlapsAgreesWithEnumeration(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	words := enumerate("ab#-", 8)
	for range 200 {
		a, b := randomTemplate(r), randomTemplate(r)
		pa, _ := a.Parts()
		pb, _ := b.Parts()
		sep := separators(pa, pb)
		ra, rb := regexpOf(pa, sep), regexpOf(pb, sep)
		brute := false
		for _, w := range words {
			if ra.MatchString(w) && rb.MatchString(w) {
				brute = true
				break
			}
		}
		if got := Overlaps(a, b); got != brute {
			t.Errorf("Overlaps(%q, %q) = %v, enumeration says %v", a, b, got, brute)
		}
	}
}

func randomTemplate(r *rand.Rand) Template {
	var b strings.Builder
	lastVar := false
	for n := r.IntN(4); n >= 0; n-- {
		if !lastVar && r.IntN(3) == 0 {
			b.WriteString("{v}")
			lastVar = true
			continue
		}
		b.WriteByte("ab#-"[r.IntN(4)])
		lastVar = false
	}
	return Template(b.String())
}

func regexpOf(parts []Part, sep *[256]bool) *regexp.Regexp {
	class := "[^"
	for c := range 256 {
		if sep[c] {
			class += regexp.QuoteMeta(string(rune(c)))
		}
	}
	class += "]+"
	if class == "[^]+" {
		class = ".+"
	}
	var b strings.Builder
	b.WriteString("^")
	for _, p := range parts {
		if p.Var != "" {
			b.WriteString(class)
		} else {
			b.WriteString(regexp.QuoteMeta(p.Literal))
		}
	}
	return regexp.MustCompile(b.String() + "$")
}

func enumerate(alphabet string, max int) []string {
	out := []string{""}
	level := []string{""}
	for range max {
		var next []string
		for _, w := range level {
			for i := range len(alphabet) {
				next = append(next, w+alphabet[i:i+1])
			}
		}
		out = append(out, next...)
		level = next
	}
	return out
}

func TestSameShape(t *testing.T) {
	cases := []struct {
		a, b Template
		want bool
	}{
		{"U#{userId}#O", "U#{id}#O", true},
		{"U#{userId}#O", "U#{id}#R", false},
		{"U#{a}", "U#{a", false},
		{"U", "U", true},
		{"U", "UU", false},
	}
	for _, c := range cases {
		if got := sameShape(c.a, c.b); got != c.want {
			t.Errorf("sameShape(%q, %q) = %v", c.a, c.b, got)
		}
	}
	if Overlaps("U#{a{b}", "U#{c{d}") {
		t.Error("templates that do not parse overlap")
	}
}
