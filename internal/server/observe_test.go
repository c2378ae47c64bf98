package server

import (
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sortkeydb/sortkey/internal/design"
	"github.com/sortkeydb/sortkey/internal/design/coverage"
	"github.com/sortkeydb/sortkey/internal/engine"
	"github.com/sortkeydb/sortkey/internal/protocol"
)

// seen is an Observer that keeps the last call.
type seen struct {
	op    string
	units *float64
	calls int
}

func (s *seen) Observe(op string, in, out any, err error, took time.Duration) {
	s.op, s.calls = op, s.calls+1
	if o, ok := out.(*protocol.GetItemOutput); ok && o.ConsumedCapacity != nil {
		s.units = o.ConsumedCapacity.CapacityUnits
	}
}

func (s *seen) ServeReport(w http.ResponseWriter, _ *http.Request) { fmt.Fprint(w, "report") }

func observedHandler(t *testing.T) *Handler {
	e, err := engine.Open(engine.Options{InMemory: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	h := New(e, nil)
	if rec := do(h, "CreateTable", []byte(benchTable)); rec.Code != 200 {
		t.Fatal(rec.Body)
	}
	return h
}

// The observer sees the capacity of every call; the client sees it only
// when it asked, as without an observer.
func TestObserverSeesCapacityTheClientDidNotAskFor(t *testing.T) {
	h := observedHandler(t)
	obs := &seen{}
	h.SetObserver(obs)
	do(h, "PutItem", benchItem(1))
	for _, c := range []struct{ ask, answer string }{{"", ""}, {`,"ReturnConsumedCapacity":"NONE"`, ""},
		{`,"ReturnConsumedCapacity":"TOTAL"`, `"ConsumedCapacity":{"TableName":"Bench","CapacityUnits":0.5}`}} {
		obs.units = nil
		rec := do(h, "GetItem", []byte(`{"TableName":"Bench","Key":{"pk":{"S":"user#1"},"sk":{"N":"1"}}`+c.ask+`}`))
		body := rec.Body.String()
		if rec.Code != 200 || obs.op != "GetItem" || obs.units == nil || *obs.units != 0.5 {
			t.Errorf("%q: observer saw %s with units %v; answer %s", c.ask, obs.op, obs.units, body)
		}
		if strings.Contains(body, "ConsumedCapacity") != (c.answer != "") || !strings.Contains(body, c.answer) {
			t.Errorf("%q: the client got %s", c.ask, body)
		}
	}
}

func TestObserverServesItsReport(t *testing.T) {
	h := observedHandler(t)
	h.SetObserver(&seen{})
	for path, want := range map[string]string{DesignReportPath: "report", "/": "healthy: "} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path, nil))
		if !strings.HasPrefix(rec.Body.String(), want) {
			t.Errorf("GET %s: %q", path, rec.Body)
		}
	}
}

// With access control on, the report holds what only signed callers may
// see: it is served to this machine's clients alone.
func TestReportStaysLocalWithAccessControl(t *testing.T) {
	h := observedHandler(t)
	h.SetObserver(&seen{})
	h.guard = refuseAll{}
	for addr, want := range map[string]int{"127.0.0.1:5000": http.StatusOK, "[::1]:5000": http.StatusOK, "192.0.2.7:5000": http.StatusNotFound} {
		req := httptest.NewRequest(http.MethodGet, DesignReportPath, nil)
		req.RemoteAddr = addr
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != want {
			t.Errorf("GET from %s: %d, want %d", addr, rec.Code, want)
		}
	}
}

// refuseAll is a Guard that authenticates no one.
type refuseAll struct{}

func (refuseAll) Authenticate(*http.Request, []byte) (Caller, error) {
	return nil, errors.New("refused")
}

const benchDesign = `version: 1
name: Bench
tables:
  - {name: Bench, partitionKey: {name: pk, type: S}, sortKey: {name: sk, type: N}}
entities:
  - name: User
    table: Bench
    attributes: [{name: pk, type: S}, {name: sk, type: N}]
    keys:
      Bench: {pk: "user#{userId}", sk: "{n}"}
patterns:
  - {number: 1, name: Get a user, returns: [User], operation: GetItem, table: Bench, key: {pk: "user#{userId}", sk: "{n}"}}
`

// BenchmarkGetItemCoverage is BenchmarkGetItem with and without design
// coverage, so that what coverage costs a call is the difference.
func BenchmarkGetItemCoverage(b *testing.B) {
	d, err := design.Parse([]byte(benchDesign), "bench.yaml")
	if err != nil {
		b.Fatal(err)
	}
	for _, on := range []bool{false, true} {
		b.Run(fmt.Sprintf("design=%v", on), func(b *testing.B) {
			h := benchHandler(b, false)
			var rec *coverage.Recorder
			if on {
				rec = coverage.New(d)
				h.SetObserver(rec)
			}
			for i := int64(0); i < 1000; i++ {
				do(h, "PutItem", benchItem(i))
			}
			bodies := make([][]byte, 1000)
			for i := range bodies {
				bodies[i] = fmt.Appendf(nil, `{"TableName":"Bench","Key":{"pk":{"S":"user#%d"},"sk":{"N":"%d"}}}`, i, i)
			}
			var n atomic.Int64
			b.ReportAllocs()
			b.ResetTimer()
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					if r := do(h, "GetItem", bodies[n.Add(1)%1000]); r.Code != 200 {
						b.Fatal(r.Body)
					}
				}
			})
			if rec != nil && rec.Report().Patterns[0].Calls < int64(b.N) {
				b.Fatalf("pattern 1 counted %d of %d calls", rec.Report().Patterns[0].Calls, b.N)
			}
		})
	}
}
