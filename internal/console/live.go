package console

import (
	"net/http"
	"strconv"
	"time"

	"github.com/sortkeydb/sortkey/internal/metrics"
)

func init() {
	routes = append(routes, func(c *Console) {
		c.mux.HandleFunc("GET /console/live", c.livePage)
		c.mux.HandleFunc("GET /console/live.json", c.liveJSON)
		c.mux.HandleFunc("GET /console/static/live.js", serveLiveJS)
	})
}

// SetLive shows the server's live numbers at /console/live: live is
// called per page view and per poll of its JSON endpoint. The console is
// handed the getter, so it never reaches into the metrics or the engine.
func (c *Console) SetLive(live func() metrics.Live) { c.live = live }

// liveView is the live page's numbers as the page and live.js show them:
// formatted once, here, so that both show the same text.
type liveView struct {
	Off    bool        `json:"-"`
	Window int         `json:"window"`
	Ops    []liveOp    `json:"ops"`
	Errors []liveError `json:"errors"`
	Tables []liveTable `json:"tables"`
}

type liveOp struct {
	Op        string `json:"op"`
	PerSecond string `json:"perSecond"`
	Calls     string `json:"calls"`
	P50       string `json:"p50"`
	P99       string `json:"p99"`
}

type liveError struct {
	Code      string `json:"code"`
	PerSecond string `json:"perSecond"`
}

type liveTable struct {
	Table string `json:"table"`
	RCU   string `json:"rcu"`
	WCU   string `json:"wcu"`
}

func (c *Console) liveData() liveView {
	if c.live == nil {
		return liveView{Off: true}
	}
	l := c.live()
	v := liveView{Window: metrics.RateSeconds, Ops: []liveOp{}, Errors: []liveError{}, Tables: []liveTable{}}
	for _, o := range l.Ops {
		v.Ops = append(v.Ops, liveOp{Op: o.Op, PerSecond: rate(o.PerSecond), Calls: strconv.FormatInt(o.Calls, 10),
			P50: millis(o.P50), P99: millis(o.P99)})
	}
	for _, e := range l.Errors {
		v.Errors = append(v.Errors, liveError{Code: e.Code, PerSecond: rate(e.PerSecond)})
	}
	for _, t := range l.Tables {
		v.Tables = append(v.Tables, liveTable{Table: t.Table, RCU: rate(t.RCU), WCU: rate(t.WCU)})
	}
	return v
}

func rate(f float64) string { return strconv.FormatFloat(f, 'f', 1, 64) }

// millis shows a latency in milliseconds, to the µs below one.
func millis(d time.Duration) string {
	ms := float64(d) / float64(time.Millisecond)
	if ms < 1 {
		return strconv.FormatFloat(ms, 'f', 3, 64)
	}
	return strconv.FormatFloat(ms, 'f', 1, 64)
}

func (c *Console) livePage(w http.ResponseWriter, r *http.Request) {
	page(w, http.StatusOK, "live", c.liveData())
}

// liveJSON answers the numbers for live.js; 404 when metrics are off.
func (c *Console) liveJSON(w http.ResponseWriter, r *http.Request) {
	v := c.liveData()
	if v.Off {
		jsonAnswer(w, http.StatusNotFound, map[string]string{"error": msgLiveOff})
		return
	}
	jsonAnswer(w, http.StatusOK, v)
}

const msgLiveOff = "metrics are off: start the server without --metrics=false (or open the DB with Options.Metrics) to see live numbers"

func serveLiveJS(w http.ResponseWriter, r *http.Request) {
	b, _ := assets.ReadFile("assets/live.js")
	w.Header().Set("Content-Type", "text/javascript; charset=utf-8")
	_, _ = w.Write(b)
}
