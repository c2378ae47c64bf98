package conformance_test

import (
	"errors"
	"testing"
	"time"

	"github.com/sortkeydb/sortkey"
)

// The index-lag and stale-read tests are transcripts now
// (conformance/testdata/lag/); this one calls sortkey.Open itself.

func TestNegativeLagIsRefused(t *testing.T) {
	for _, o := range []sortkey.Options{{InMemory: true, IndexLag: -time.Second}, {InMemory: true, StaleReadWindow: -time.Second}} {
		if db, err := sortkey.Open("", &o); !errors.Is(err, sortkey.ErrNegativeLag) {
			if db != nil {
				db.Close()
			}
			t.Fatalf("Open(%+v) = %v, want ErrNegativeLag", o, err)
		}
	}
}
