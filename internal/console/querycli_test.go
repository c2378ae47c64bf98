package console

import (
	"net/url"
	"os/exec"
	"testing"
)

// A quoted word reaches a program as it was, whatever it holds.
func TestShellQuoteRoundTrips(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"plain", "", "it's", `a "b" $HOME`, "`x` \\ ;|&", "PK = :pk\nAND x", "'"} {
		out, err := exec.Command("sh", "-c", "printf %s "+shellQuote(w)).Output()
		if err != nil || string(out) != w {
			t.Errorf("shellQuote(%q) = %s gives %q, %v", w, shellQuote(w), out, err)
		}
	}
}

// FuzzQueryForm: a query page's form comes from anyone's URL; it either
// describes a QueryInput or says why not, and never panics.
func FuzzQueryForm(f *testing.F) {
	f.Add(`{"#a": "b"}`, `{":v": {"S": "x"}}`, "10", "")
	f.Add(`[]`, `{":v": {}}`, "-1", "!!")
	f.Add(`{"#a": "b"} x`, `{":v": {"S": "x", "N": "1"}}`, "1001", "eyJQSyI6eyJTIjoiYSJ9fQ")
	f.Fuzz(func(t *testing.T, names, values, limit, start string) {
		q := url.Values{"key": {"PK = :v"}, "names": {names}, "values": {values}, "limit": {limit}, "start": {start}}
		in, err := readForm(q).input("T")
		if err != nil {
			return
		}
		if in.Limit < 1 || in.Limit > maxLimit {
			t.Fatalf("limit %d accepted", in.Limit)
		}
		for k, av := range in.ExpressionAttributeValues {
			if len(av) != 1 {
				t.Fatalf("value %s has %d types", k, len(av))
			}
		}
		_ = cliCommand("http://localhost:8000", in)
	})
}
