package metrics

import (
	"testing"
	"time"

	"github.com/sortkeydb/sortkey/internal/protocol"
)

// fakeClock is a clock a test moves by hand.
type fakeClock struct{ t time.Time }

func (c *fakeClock) now() time.Time      { return c.t }
func (c *fakeClock) add(d time.Duration) { c.t = c.t.Add(d) }
func newClock() *fakeClock               { return &fakeClock{time.Unix(1_700_000_000, 0)} }
func opOf(l Live, name string) (OpLive, bool) {
	for _, o := range l.Ops {
		if o.Op == name {
			return o, true
		}
	}
	return OpLive{}, false
}

// Rates are calls over the last RateSeconds: 30 calls spread over three
// seconds read as 3 a second, and the same calls a minute later are gone.
func TestWindowRatesOverTheLastSeconds(t *testing.T) {
	clk := newClock()
	w := NewWindow(clk.now)
	for range 3 {
		for range 10 {
			w.Call("GetItem", "", time.Millisecond)
		}
		clk.add(time.Second)
	}
	got, ok := opOf(w.Live(), "GetItem")
	if !ok || got.PerSecond != 3 || got.Calls != 30 {
		t.Fatalf("after 30 calls in 3 s: %+v", got)
	}
	clk.add(RateSeconds * time.Second)
	got, _ = opOf(w.Live(), "GetItem")
	if got.PerSecond != 0 || got.Calls != 30 {
		t.Fatalf("%d s later the rate should be 0 and the minute still hold 30: %+v", RateSeconds, got)
	}
	clk.add(windowSeconds * time.Second)
	if l := w.Live(); len(l.Ops) != 0 {
		t.Fatalf("a minute later nothing is left: %+v", l)
	}
}

// A bucket reused a minute later starts empty: old calls do not leak into
// the new second.
func TestWindowReusesBucketsEmpty(t *testing.T) {
	clk := newClock()
	w := NewWindow(clk.now)
	w.Call("PutItem", "ValidationException", time.Millisecond)
	w.Consume("Orders", false, 5)
	clk.add(windowSeconds * time.Second) // the same bucket of the ring
	w.Call("PutItem", "", time.Millisecond)
	l := w.Live()
	if got, _ := opOf(l, "PutItem"); got.Calls != 1 || len(l.Errors) != 0 || len(l.Tables) != 0 {
		t.Fatalf("the old second leaked: %+v", l)
	}
}

func TestWindowErrorsAndCapacity(t *testing.T) {
	clk := newClock()
	w := NewWindow(clk.now)
	for range 20 {
		w.Call("GetItem", "ResourceNotFoundException", time.Millisecond)
	}
	w.Call("Query", "ValidationException", time.Millisecond)
	w.Consume("Orders", true, 15)
	w.Consume("Orders", false, 5)
	l := w.Live()
	want := []ErrorLive{{"ResourceNotFoundException", 2}, {"ValidationException", 0.1}}
	if len(l.Errors) != 2 || l.Errors[0] != want[0] || l.Errors[1] != want[1] {
		t.Errorf("errors %+v, want %+v", l.Errors, want)
	}
	if len(l.Tables) != 1 || l.Tables[0] != (TableLive{"Orders", 1.5, 0.5}) {
		t.Errorf("tables %+v", l.Tables)
	}
}

// p50 and p99 fall in the bins of the 50th and 99th of 100 calls: the
// bin's top is at most a fifth above the true value.
func TestWindowPercentiles(t *testing.T) {
	clk := newClock()
	w := NewWindow(clk.now)
	for i := range 100 {
		took := time.Millisecond
		if i == 99 {
			took = 2 * time.Second
		} else if i >= 98 {
			took = 100 * time.Millisecond
		}
		w.Call("Scan", "", took)
	}
	got, _ := opOf(w.Live(), "Scan")
	within := func(d, want time.Duration) bool { return d >= want && d <= want*6/5 }
	if !within(got.P50, time.Millisecond) || !within(got.P99, 100*time.Millisecond) {
		t.Fatalf("p50 %v (want ~1ms), p99 %v (want ~100ms)", got.P50, got.P99)
	}
}

func TestLatencyBinsCoverEveryDuration(t *testing.T) {
	for _, d := range []time.Duration{-1, 0, time.Nanosecond, time.Microsecond, time.Hour} {
		if b := latencyBin(d); b < 0 || b >= latencyBins {
			t.Errorf("%v: bin %d", d, b)
		}
	}
}

func TestCapacityKind(t *testing.T) {
	sel, upd := "  select * from T", "UPDATE T SET a=1"
	one := 1.0
	cases := []struct {
		op   string
		in   any
		c    protocol.ConsumedCapacity
		read bool
	}{
		{"GetItem", nil, protocol.ConsumedCapacity{}, true},
		{"PutItem", nil, protocol.ConsumedCapacity{}, false},
		{"ExecuteStatement", &protocol.ExecuteStatementInput{Statement: &sel}, protocol.ConsumedCapacity{}, true},
		{"ExecuteStatement", &protocol.ExecuteStatementInput{Statement: &upd}, protocol.ConsumedCapacity{}, false},
		{"ExecuteStatement", &protocol.ExecuteStatementInput{}, protocol.ConsumedCapacity{}, false},
		{"BatchExecuteStatement", &protocol.BatchExecuteStatementInput{Statements: []protocol.BatchStatementRequest{{Statement: &sel}}}, protocol.ConsumedCapacity{}, true},
		{"ExecuteTransaction", &protocol.ExecuteTransactionInput{}, protocol.ConsumedCapacity{ReadCapacityUnits: &one}, true},
		{"TransactWriteItems", nil, protocol.ConsumedCapacity{WriteCapacityUnits: &one}, false},
	}
	for _, c := range cases {
		if got := reads(c.op, c.in, &c.c); got != c.read {
			t.Errorf("%s %+v: read %v", c.op, c.in, got)
		}
	}
	for ref, want := range map[string]string{"Orders": "Orders", "arn:aws:dynamodb:us-east-1:000000000000:table/Orders": "Orders"} {
		if got := tableName(ref); got != want {
			t.Errorf("tableName(%q) = %q", ref, got)
		}
	}
}

// The labels read from a request's table reference and statement never
// panic, and an ARN never becomes a table label.
func FuzzCapacityLabels(f *testing.F) {
	f.Add("arn:aws:dynamodb:us-east-1:000000000000:table/Orders", "SELECT * FROM Orders")
	f.Add("Orders", "")
	f.Add("arn:", "selec")
	f.Fuzz(func(t *testing.T, ref, stmt string) {
		name := tableName(ref)
		if len(name) > len(ref) {
			t.Fatalf("tableName(%q) = %q", ref, name)
		}
		_ = reads("ExecuteStatement", &protocol.ExecuteStatementInput{Statement: &stmt}, &protocol.ConsumedCapacity{})
	})
}

// A clock before 1970 (an injected one) still counts.
func TestWindowBefore1970(t *testing.T) {
	w := NewWindow(func() time.Time { return time.Unix(-61, 0) })
	w.Call("GetItem", "", time.Millisecond)
	if got, _ := opOf(w.Live(), "GetItem"); got.Calls != 1 {
		t.Fatalf("%+v", got)
	}
}
