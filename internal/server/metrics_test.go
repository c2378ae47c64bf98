package server

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// With access control on, /metrics names tables and indexes only to this
// machine's clients; without it, to anyone, as the API itself.
func TestMetricsStayLocalWithAccessControl(t *testing.T) {
	h := observedHandler(t)
	h.SetMetrics(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.Write([]byte("# metrics")) }))
	for _, guarded := range []bool{false, true} {
		if guarded {
			h.guard = refuseAll{}
		}
		for addr, local := range map[string]bool{"127.0.0.1:5000": true, "[::1]:5000": true, "192.0.2.7:5000": false} {
			req := httptest.NewRequest(http.MethodGet, MetricsPath, nil)
			req.RemoteAddr = addr
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			served := rec.Code == http.StatusOK && rec.Body.String() == "# metrics"
			if served != (local || !guarded) {
				t.Errorf("guard %v, GET /metrics from %s: %d %q", guarded, addr, rec.Code, rec.Body)
			}
		}
	}
}

// Every observer sees each call once, with the capacity broken down by
// index, though the client asked none.
func TestEveryObserverSeesEachCallOnce(t *testing.T) {
	h := observedHandler(t)
	report, other := &seen{}, &seen{}
	h.SetObserver(report)
	h.AddObserver(other)
	rec := do(h, "GetItem", []byte(`{"TableName":"Bench","Key":{"pk":{"S":"user#1"},"sk":{"N":"1"}}}`))
	if rec.Code != 200 || strings.Contains(rec.Body.String(), "ConsumedCapacity") {
		t.Fatalf("GetItem: %d %s", rec.Code, rec.Body)
	}
	for _, s := range []*seen{report, other} {
		if s.calls != 1 || s.op != "GetItem" || s.units == nil || *s.units != 0.5 {
			t.Errorf("observer saw %d calls of %s, units %v", s.calls, s.op, s.units)
		}
	}
}
