package globalcart

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/sortkeydb/sortkey"
	"github.com/sortkeydb/sortkey/sortkeytest"
)

const (
	east  = "us-east-1"
	west  = "us-west-2"
	table = "carts"
)

var ctx = context.Background()

// world is one sortkey serving two regions, on a virtual clock, with the
// table "carts" created in us-east-1 and replicated to us-west-2 with the
// default lag (one second). Nothing replicates until the test moves the
// clock.
type world struct {
	*sortkeytest.Server
	t *testing.T
}

func newWorld(t *testing.T) *world {
	t.Helper()
	start := time.Date(2026, 11, 27, 9, 0, 0, 0, time.UTC) // a Black Friday morning
	s := sortkeytest.NewWithOptions(t, &sortkey.Options{Regions: sortkey.RegionsSeparate, Clock: sortkey.NewVirtualClock(start)})
	if err := CreateGlobalTable(ctx, s.ClientIn(east), table, west); err != nil {
		t.Fatal(err)
	}
	return &world{Server: s, t: t}
}

func (w *world) cart(region string) *Cart { return New(w.ClientIn(region), table) }

func (w *world) naive(region string) *NaiveCart { return NewNaiveCart(w.ClientIn(region), table) }

// replicate moves the clock by the lag: before it returns, every write
// that has come due reaches the other region and its conflicts are
// resolved. wantOvertaken fails a test that left one waiting.
func (w *world) replicate() { w.Advance(sortkey.DefaultReplicationLag) }

// wantOvertaken checks sortkey's count of lost writes (replicated writes
// that arrived after a later write of their item and were dropped), and
// that no write is still waiting to replicate.
func (w *world) wantOvertaken(want int64) {
	w.t.Helper()
	st, err := w.DB.ReplicationStats()
	if err != nil {
		w.t.Fatal(err)
	}
	if st.Overtaken != want || st.Backlog != 0 {
		w.t.Fatalf("%d writes overtaken and %d waiting, want %d and none", st.Overtaken, st.Backlog, want)
	}
}

// products lists a cart's products, sorted: what the user sees, whatever
// the order the lines are stored in.
func (w *world) products(lines []Line, err error) []string {
	w.t.Helper()
	if err != nil {
		w.t.Fatal(err)
	}
	var out []string
	for _, l := range lines {
		out = append(out, l.Product)
	}
	slices.Sort(out)
	return out
}

// shows fails the test unless region's replica shows the cart with want.
func (w *world) shows(region string, got []string, want ...string) {
	w.t.Helper()
	if !slices.Equal(got, want) {
		w.t.Fatalf("%s shows %q, want %q", region, got, want)
	}
}

// add adds one of product to cart c1 in region.
func (w *world) add(region, product string) Line {
	w.t.Helper()
	line, err := w.cart(region).AddLine(ctx, "c1", product, 1)
	if err != nil {
		w.t.Fatalf("adding %s in %s: %v", product, region, err)
	}
	return line
}

// lines is cart c1's products as region's replica shows them.
func (w *world) lines(region string) []string {
	w.t.Helper()
	lines, err := w.cart(region).Lines(ctx, "c1")
	return w.products(lines, err)
}

// naiveLines is naive cart c1's products as region's replica shows them.
func (w *world) naiveLines(region string) []string {
	w.t.Helper()
	lines, err := w.naive(region).Lines(ctx, "c1")
	return w.products(lines, err)
}

// checkout gives cart c1 status in region.
func (w *world) checkout(region, status string) Write {
	w.t.Helper()
	wrote, err := w.cart(region).Checkout(ctx, "c1", status)
	if err != nil {
		w.t.Fatalf("checkout in %s: %v", region, err)
	}
	return wrote
}
