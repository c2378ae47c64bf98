package console

import "testing"

// A backfilling index says so beside its status: it refuses searches
// until the backfill ends, and the page should tell why before one fails.
func TestVectorIndexStateShowsTheBackfill(t *testing.T) {
	yes, no := true, false
	for _, c := range []struct {
		status   string
		backfill *bool
		want     string
	}{{"CREATING", &yes, "CREATING (backfilling)"}, {"ACTIVE", &no, "ACTIVE"}, {"ACTIVE", nil, "ACTIVE"}, {"DELETING", nil, "DELETING"}} {
		if got := (vectorIndexDoc{IndexStatus: c.status, Backfilling: c.backfill}).State(); got != c.want {
			t.Errorf("%s, backfilling %v: %q, want %q", c.status, c.backfill, got, c.want)
		}
	}
}
