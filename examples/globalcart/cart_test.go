package globalcart

import (
	"testing"
	"time"
)

// The same two adds as TestNaiveCartLosesAConcurrentAdd, each its own
// item: both regions end with both lines, and nothing was overtaken.
func TestConcurrentAddsConvergeToTheUnion(t *testing.T) {
	w := newWorld(t)
	w.add(east, "socks")
	w.Advance(10 * time.Millisecond)
	w.add(west, "hat")
	w.replicate()
	for _, r := range []string{east, west} {
		w.shows(r, w.lines(r), "hat", "socks")
	}
	w.wantOvertaken(0)
}

// A line added in us-east-1 is not in us-west-2 until the lag has passed,
// even to a strongly consistent read: a page served by another region
// right after the add must not count on it.
func TestAddIsNotReadInTheOtherRegionBeforeTheLag(t *testing.T) {
	w := newWorld(t)
	w.add(east, "socks")
	w.shows(east, w.lines(east), "socks")
	w.shows(west, w.lines(west))
	w.Advance(500 * time.Millisecond)
	w.shows(west, w.lines(west))
	w.Advance(500 * time.Millisecond)
	w.shows(west, w.lines(west), "socks")
}

// While us-west-2 is cut off, both regions keep taking adds and each shows
// its own (stale, not wrong). When the partition heals and the clock
// moves, each region receives the other's add.
func TestAddDuringAPartitionArrivesAfterItHeals(t *testing.T) {
	w := newWorld(t)
	if err := w.DB.PartitionRegion(west, true); err != nil {
		t.Fatal(err)
	}
	w.add(west, "umbrella")
	w.add(east, "scarf")
	w.Advance(time.Minute)
	w.shows(east, w.lines(east), "scarf")
	w.shows(west, w.lines(west), "umbrella")
	if err := w.DB.PartitionRegion(west, false); err != nil {
		t.Fatal(err)
	}
	w.replicate()
	for _, r := range []string{east, west} {
		w.shows(r, w.lines(r), "scarf", "umbrella")
	}
	w.wantOvertaken(0)
}

// A removal in one region and an add in the other at once both survive:
// they touch different items.
func TestRemoveAndAddAtOnceBothSurvive(t *testing.T) {
	w := newWorld(t)
	socks := w.add(east, "socks")
	w.add(east, "hat")
	w.replicate()
	if err := w.cart(west).RemoveLine(ctx, "c1", socks.ID); err != nil {
		t.Fatal(err)
	}
	w.add(east, "gloves")
	w.replicate()
	for _, r := range []string{east, west} {
		w.shows(r, w.lines(r), "gloves", "hat")
	}
	w.wantOvertaken(0)
}
