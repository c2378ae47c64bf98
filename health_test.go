package sortkey_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/sortkeydb/sortkey"
)

// healthReport is GET /sortkey/health's answer.
type healthReport struct {
	Status  string
	Version string
	Checks  map[string]struct {
		Status, Error string
	}
}

func getHealth(t *testing.T, url string) (int, healthReport) {
	t.Helper()
	resp, err := http.Get(url + "/sortkey/health")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	var h healthReport
	if err := json.Unmarshal(body, &h); err != nil {
		t.Fatalf("GET /sortkey/health: %d %q: %v", resp.StatusCode, body, err)
	}
	return resp.StatusCode, h
}

// The health check reports the storage: 200 while it takes writes and
// reads, on disk and in memory, 503 naming the storage once the database
// is closed, while DynamoDB's health line still answers every other path.
func TestHealthReportsStorage(t *testing.T) {
	for name, opts := range map[string]*sortkey.Options{"on disk": {Health: true}, "in memory": {Health: true, InMemory: true}} {
		db, err := sortkey.Open(t.TempDir(), opts)
		if err != nil {
			t.Fatal(err)
		}
		hs := httptest.NewServer(db.Handler())
		defer hs.Close()
		code, h := getHealth(t, hs.URL)
		if code != 200 || h.Status != "ok" || h.Checks["storage"].Status != "ok" || h.Version == "" {
			t.Errorf("%s, open: %d %+v", name, code, h)
		}
		if err := db.Close(); err != nil {
			t.Fatal(err)
		}
		code, h = getHealth(t, hs.URL)
		if st := h.Checks["storage"]; code != 503 || h.Status != "unavailable" || st.Status != "failing" || st.Error != "storage is closed" {
			t.Errorf("%s, closed: %d %+v", name, code, h)
		}
		if got := healthLine(t, hs.URL+"/"); got != "healthy: "+hs.Listener.Addr().String()+" " {
			t.Errorf("%s, closed: GET / %q", name, got)
		}
	}
}

// Without Options.Health, /sortkey/health is not found, as any path but /
// is on DynamoDB's endpoint (facts 22.2).
func TestHealthOffByDefault(t *testing.T) {
	db, err := sortkey.Open("", &sortkey.Options{InMemory: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	hs := httptest.NewServer(db.Handler())
	defer hs.Close()
	resp, err := http.Get(hs.URL + "/sortkey/health")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNotFound {
		t.Fatalf("GET /sortkey/health with Health off: %s", resp.Status)
	}
}

func healthLine(t *testing.T, url string) string {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return string(b)
}
