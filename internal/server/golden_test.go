package server

import (
	"bytes"
	"encoding/json"
	"flag"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/sortkeydb/sortkey/internal/engine"
)

var update = flag.Bool("update", false, "rewrite the .golden files from the current responses")

// A golden case is testdata/<Operation>/<case>.json: setup requests, then
// the request whose response is compared with <case>.golden. Times and
// random ids are replaced by fixed placeholders before comparing.
type goldenCase struct {
	Setup   []call `json:"setup"`
	Request call   `json:"request"`
}

type call struct {
	Target string          `json:"target"`
	Body   json.RawMessage `json:"body"`
}

func TestGolden(t *testing.T) {
	files, err := filepath.Glob("testdata/*/*.json")
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden cases: %v", err)
	}
	for _, f := range files {
		t.Run(f, func(t *testing.T) { runGolden(t, f) })
	}
}

func runGolden(t *testing.T, file string) {
	raw, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var gc goldenCase
	if err := json.Unmarshal(raw, &gc); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	h := newTestHandler(t)
	for _, c := range gc.Setup {
		if rec := do(h, c.Target, c.Body); rec.Code != 200 {
			t.Fatalf("setup %s: %d %s", c.Target, rec.Code, rec.Body)
		}
	}
	rec := do(h, gc.Request.Target, gc.Request.Body)
	got := render(t, rec)
	golden := file[:len(file)-len(".json")] + ".golden"
	if *update {
		if err := os.WriteFile(golden, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test ./internal/server -run TestGolden -update)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("response differs from %s:\n got:\n%s\nwant:\n%s", golden, got, want)
	}
}

// fixedNow is the clock of golden tests, so that timestamps are stable.
var fixedNow = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

func newTestHandler(t testing.TB) *Handler {
	e, err := engine.Open(engine.Options{InMemory: true, Now: func() time.Time { return fixedNow }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	return New(e, nil)
}

func do(h http.Handler, target string, body []byte) *httptest.ResponseRecorder {
	req := httptest.NewRequest(http.MethodPost, "/", bytes.NewReader(body))
	req.Header.Set("Content-Type", contentType)
	if target != "" && !strings.Contains(target, ".") {
		target = targetPrefix + target // a bare name is a DynamoDB operation
	}
	if target != "" {
		req.Header.Set("X-Amz-Target", target)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

var tableID = regexp.MustCompile(`"TableId":"[0-9a-f-]{36}"`)

// render is the status line and the indented body, with the random table
// id replaced.
func render(t *testing.T, rec *httptest.ResponseRecorder) []byte {
	body := tableID.ReplaceAll(rec.Body.Bytes(), []byte(`"TableId":"<uuid>"`))
	var out bytes.Buffer
	out.WriteString(http.StatusText(rec.Code) + "\n")
	if err := json.Indent(&out, body, "", "  "); err != nil {
		t.Fatalf("response is not JSON: %q", body)
	}
	out.WriteString("\n")
	return out.Bytes()
}
