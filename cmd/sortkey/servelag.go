package main

import (
	"errors"
	"flag"
	"time"

	"github.com/sortkeydb/sortkey"
)

// errNegativeLag refuses a negative --index-lag or --stale-reads.
var errNegativeLag = errors.New("must not be negative")

// lagFlags are serve's flags of index lag and stale reads
// (docs/TESTING-FAILURES.md#index-lag-and-stale-reads).
type lagFlags struct {
	index, stale lagDuration
}

func lagFlagSet(fs *flag.FlagSet, f *lagFlags) {
	fs.Var(&f.index, "index-lag", "how long a write takes to reach global secondary indexes, by the server's clock (e.g. 2s); 0 shows it at once")
	fs.Var(&f.stale, "stale-reads", "how long eventually consistent reads may still see what a write replaced (e.g. 1s); strongly consistent reads and transactions never do")
}

// apply sets the lags into o.
func (f lagFlags) apply(o *sortkey.Options) {
	o.IndexLag, o.StaleReadWindow = time.Duration(f.index), time.Duration(f.stale)
}

// lagDuration is a duration flag that refuses negative values as it parses.
type lagDuration time.Duration

func (d *lagDuration) String() string { return time.Duration(*d).String() }

func (d *lagDuration) Set(s string) error {
	v, err := time.ParseDuration(s)
	if err == nil && v < 0 {
		err = errNegativeLag
	}
	if err == nil {
		*d = lagDuration(v)
	}
	return err
}
