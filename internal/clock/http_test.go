package clock

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func serve(t *testing.T, v *Virtual, method, body string) (int, map[string]string) {
	t.Helper()
	w := httptest.NewRecorder()
	v.ServeHTTP(w, httptest.NewRequest(method, Path, strings.NewReader(body)))
	var out map[string]string
	if err := json.Unmarshal(w.Body.Bytes(), &out); err != nil {
		t.Fatalf("%s %q: answer %q is not JSON", method, body, w.Body.String())
	}
	if ct := w.Header().Get("Content-Type"); ct != "application/json" {
		t.Errorf("Content-Type %q", ct)
	}
	return w.Code, out
}

func TestHTTPReadsAndMovesTheClock(t *testing.T) {
	v := NewVirtual(start)
	if code, out := serve(t, v, http.MethodGet, ""); code != 200 || out["now"] != "2026-03-02T09:00:00Z" {
		t.Fatalf("GET: %d %v", code, out)
	}
	if code, out := serve(t, v, http.MethodPost, `{"advance": "2h"}`); code != 200 || out["now"] != "2026-03-02T11:00:00Z" {
		t.Fatalf("advance: %d %v", code, out)
	}
	if code, out := serve(t, v, http.MethodPost, `{"set": "2027-01-01T00:00:00Z"}`); code != 200 || out["now"] != "2027-01-01T00:00:00Z" {
		t.Fatalf("set: %d %v", code, out)
	}
}

func TestHTTPRefusesBadMovesAndKeepsTheTime(t *testing.T) {
	v := NewVirtual(start)
	for body, want := range map[string]string{
		``:                              "JSON object",
		`[]`:                            "JSON object",
		`{"advance": "2h"} {}`:          "JSON object",
		`{"advance": "2h", "extra": 1}`: "JSON object",
		`{"advance": 7200}`:             "JSON object",
		`{}`:                            "exactly one",
		`{"advance": "1h", "set": "2027-01-01T00:00:00Z"}`: "exactly one",
		`{"advance": "2 hours"}`:                           `"advance" must be a duration`,
		`{"advance": "-1h"}`:                               "never goes back",
		`{"set": "tomorrow"}`:                              `"set" must be an RFC 3339 time`,
		`{"set": "2025-01-01T00:00:00Z"}`:                  "never goes back",
		`{"set": "` + strings.Repeat("9", 5000) + `"}`:     "larger than 4 KiB",
	} {
		code, out := serve(t, v, http.MethodPost, body)
		if code != 400 || !strings.Contains(out["error"], want) {
			t.Errorf("%.40q: %d %v, want 400 with %q", body, code, out, want)
		}
	}
	if !v.Now().Equal(start) {
		t.Fatalf("refused moves changed the time to %v", v.Now())
	}
}

func FuzzParseMove(f *testing.F) {
	for _, s := range []string{`{"advance":"2h"}`, `{"set":"2026-01-01T00:00:00Z"}`, `{}`, `{"advance":"1h","set":"x"}`, `null`, `{"advance":"-5m"}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		m, err := parseMove(body)
		if err != nil {
			return
		}
		if m.isSet && m.advance != 0 {
			t.Fatalf("%q decoded to both moves: %+v", body, m)
		}
		v := NewVirtual(start)
		before := v.Now()
		if _, err := m.apply(v); err != nil && !v.Now().Equal(before) {
			t.Fatalf("%q: a refused move changed the time", body)
		}
		if v.Now().Before(before) {
			t.Fatalf("%q moved time back", body)
		}
	})
}
