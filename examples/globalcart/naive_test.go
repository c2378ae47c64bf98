package globalcart

import (
	"testing"
	"time"
)

// In one region the naive cart is correct: list_append is atomic, so two
// adds keep both lines, and the other region receives the cart whole.
func TestNaiveCartKeepsEveryAddInOneRegion(t *testing.T) {
	w := newWorld(t)
	c := w.naive(east)
	for _, p := range []string{"socks", "hat"} {
		if err := c.AddLine(ctx, "c1", p, 1); err != nil {
			t.Fatal(err)
		}
		// The shopper's next click. Two writes of one item at one instant
		// are stamped a nanosecond apart, and the second would come due
		// just after replicate.
		w.Advance(10 * time.Millisecond)
	}
	w.replicate()
	for _, r := range []string{east, west} {
		w.shows(r, w.naiveLines(r), "hat", "socks")
	}
	w.wantOvertaken(0)
}

// Across regions it loses an add. The shopper adds socks on a phone served
// by us-east-1; 10 ms later a laptop served by us-west-2 adds a hat. Both
// adds are acknowledged. After replication both regions hold us-west-2's
// item, the later write, and the socks are gone everywhere. sortkey counts
// the dropped write as overtaken; the application is told nothing.
func TestNaiveCartLosesAConcurrentAdd(t *testing.T) {
	w := newWorld(t)
	if err := w.naive(east).AddLine(ctx, "c1", "socks", 1); err != nil {
		t.Fatal(err)
	}
	w.Advance(10 * time.Millisecond)
	if err := w.naive(west).AddLine(ctx, "c1", "hat", 1); err != nil {
		t.Fatal(err)
	}
	w.shows(east, w.naiveLines(east), "socks") // what the phone showed
	w.replicate()
	for _, r := range []string{east, west} {
		w.shows(r, w.naiveLines(r), "hat")
	}
	w.wantOvertaken(1)
}
