package main

import (
	"flag"
	"fmt"
	"time"

	"github.com/sortkeydb/sortkey"
)

// regionFlags are serve's flags of regions and global tables
// (docs/GLOBAL-TABLES.md).
type regionFlags struct {
	mode string
	lag  lagDuration
}

func regionFlagSet(fs *flag.FlagSet, f *regionFlags) {
	fs.StringVar(&f.mode, "regions", sortkey.RegionsShared, "shared: clients of every region see the same tables; separate: each region (of the request's SigV4 credential scope) has its own tables, and global tables replicate between them (docs/GLOBAL-TABLES.md)")
	f.lag = lagDuration(sortkey.DefaultReplicationLag)
	fs.Var(&f.lag, "replication-lag", "with --regions separate, how long a write to a global table's replica takes to reach the other regions, by the server's clock; 0 sends it at once")
}

// check refuses a --regions that is neither mode.
func (f regionFlags) check() error {
	if f.mode != sortkey.RegionsShared && f.mode != sortkey.RegionsSeparate {
		return fmt.Errorf("--regions %q: want %s or %s", f.mode, sortkey.RegionsShared, sortkey.RegionsSeparate)
	}
	return nil
}

// apply sets the regions' options into o: a lag of 0 is none, which
// Options spells negative.
func (f regionFlags) apply(o *sortkey.Options) {
	o.Regions, o.ReplicationLag = f.mode, time.Duration(f.lag)
	if f.lag == 0 {
		o.ReplicationLag = -1
	}
}
