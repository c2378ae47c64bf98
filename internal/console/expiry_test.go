package console

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"
	"time"
)

// FuzzExpiry: a TTL value is whatever a client stored; reading it never
// panics, and a value it accepts is a finite number whose entry says
// whether it is past, pending or ignored.
func FuzzExpiry(f *testing.F) {
	for _, s := range []string{"1700000000", "-1", "1e400", "NaN", "1.5", "", "99999999999999999999"} {
		f.Add(s)
	}
	now := time.Date(2030, 6, 1, 12, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, s string) {
		raw, _ := json.Marshal(s)
		e, ok := expiry(item{"id": {"S": json.RawMessage(`"x"`)}, "exp": {"N": raw}}, "exp", []string{"id"}, now)
		if !ok {
			return
		}
		if _, err := strconv.ParseFloat(s, 64); err != nil {
			t.Fatalf("accepted %q, not a number", s)
		}
		if e.Left == "" || (e.Expired && !strings.HasPrefix(e.Left, "expired")) || len(e.Key) != 1 {
			t.Fatalf("%q: entry %+v", s, e)
		}
	})
}
