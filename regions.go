package sortkey

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/sortkeydb/sortkey/internal/engine"
	"github.com/sortkeydb/sortkey/internal/regions"
	"github.com/sortkeydb/sortkey/internal/server"
	"github.com/sortkeydb/sortkey/internal/storage/pgstore"
)

// The values of Options.Regions.
const (
	RegionsShared   = "shared"
	RegionsSeparate = "separate"
)

// DefaultReplicationLag is how long a write to a replica of a global table
// takes to reach the other regions unless Options.ReplicationLag says
// otherwise: about what DynamoDB's global tables usually take.
const DefaultReplicationLag = time.Second

// openEngines opens the default region's engine, and with separate
// regions the Set that opens the others.
func (db *DB) openEngines(eo engine.Options, opts *Options) error {
	switch opts.Regions {
	case "", RegionsShared:
		eng, err := engine.Open(eo)
		db.eng = eng
		return err
	case RegionsSeparate:
	default:
		return fmt.Errorf("Options.Regions %q is neither %q nor %q", opts.Regions, RegionsShared, RegionsSeparate)
	}
	lag := opts.ReplicationLag
	switch {
	case lag == 0:
		lag = DefaultReplicationLag
	case lag < 0:
		lag = 0
	}
	def := cmp.Or(eo.Region, "us-east-1")
	set, err := regions.New(regions.Options{Default: def, Lag: lag, Now: eo.Now, Known: knownRegions(eo),
		Open: func(region string, replicated func(), strong engine.StrongReplication) (*engine.Engine, error) {
			o := regionOptions(eo, def, region, replicated)
			o.Strong = strong
			return engine.Open(o)
		}})
	if err != nil {
		return err
	}
	db.regions, db.eng = set, set.Default()
	return nil
}

// knownRegions lists the regions with a store beside the default
// region's: on disk, the directories under regions/. A PostgreSQL
// store's regions are found from the replicas that name them.
func knownRegions(eo engine.Options) func() []string {
	if eo.Dir == "" || eo.InMemory || eo.Store != "" {
		return nil
	}
	return func() []string {
		entries, _ := os.ReadDir(filepath.Join(eo.Dir, "regions"))
		var out []string
		for _, e := range entries {
			if e.IsDir() {
				out = append(out, e.Name())
			}
		}
		return out
	}
}

// regionOptions are the engine options of region: the default region's
// store is the one the options name, every other region's lies beside it,
// in regions/<region> under the data directory or in the PostgreSQL
// schema <schema>_<region>.
func regionOptions(eo engine.Options, def, region string, replicated func()) engine.Options {
	eo.Region, eo.Replicated = region, replicated
	if region == def {
		return eo
	}
	eo.StartClock = nil // the default region's store keeps the virtual clock
	if eo.Dir != "" {
		eo.Dir = filepath.Join(eo.Dir, "regions", region)
	}
	if eo.Store != "" {
		eo.Store = regionSchema(eo.Store, region)
	}
	return eo
}

// regionSchema is the store URL u with its schema suffixed by region.
// A URL that does not parse is left to the store to refuse.
func regionSchema(u, region string) string {
	parsed, err := url.Parse(u)
	if err != nil {
		return u
	}
	q := parsed.Query()
	q.Set("schema", cmp.Or(q.Get("schema"), pgstore.DefaultSchema)+"_"+strings.ReplaceAll(region, "-", "_"))
	parsed.RawQuery = q.Encode()
	return parsed.String()
}

// closeEngines closes every region's engine.
func (db *DB) closeEngines() error {
	if db.regions != nil {
		return db.regions.Close()
	}
	if db.eng == nil {
		return nil
	}
	return db.eng.Close()
}

// PartitionRegion cuts region off from the other regions (cut true), or
// lets it rejoin: cut off, its writes succeed and wait, and so do the
// other regions' writes for it; on rejoining both are sent. Only with
// Options.Regions RegionsSeparate.
func (db *DB) PartitionRegion(region string, cut bool) error {
	if db.regions == nil {
		return errNotSeparate
	}
	db.regions.Partition(region, cut)
	return nil
}

var errNotSeparate = errors.New("regions are shared: start with Options.Regions separate (sortkey serve --regions separate)")

// FlushReplication sends, now, every write that global tables' replicas
// owe other regions and whose lag has passed by the database's clock,
// except to and from partitioned regions, rather than at the replicator's
// next look (every 20 ms): a test moves a virtual clock past the lag and
// calls it instead of waiting.
func (db *DB) FlushReplication(ctx context.Context) error {
	if db.regions == nil {
		return errNotSeparate
	}
	return db.regions.Flush(ctx)
}

// ReplicationStats counts what the replicator did since Open, and what it
// has still to send.
type ReplicationStats = regions.Stats

// ReplicationStats reads the replicator's counts.
func (db *DB) ReplicationStats() (ReplicationStats, error) {
	if db.regions == nil {
		return ReplicationStats{}, errNotSeparate
	}
	return db.regions.Stats()
}

// RegionsPath is the admin endpoint of separate regions (Options.Admin):
// GET answers the open regions, the partitioned ones and the replicator's
// counts; PUT RegionsPath+"{region}/partition" cuts a region off and
// DELETE of it lets the region rejoin; POST RegionsPath+"flush" sends
// what is due now.
const RegionsPath = "/sortkey/regions/"

// mountRegions serves RegionsPath when regions are separate and the admin
// API is on.
func (db *DB) mountRegions(h *server.Handler, opts *Options) {
	if db.regions == nil || !opts.Admin {
		return
	}
	h.Mount("GET "+RegionsPath, http.HandlerFunc(db.serveRegions))
	h.Mount("PUT "+RegionsPath+"{region}/partition", db.partitionHandler(true))
	h.Mount("DELETE "+RegionsPath+"{region}/partition", db.partitionHandler(false))
	h.Mount("POST "+RegionsPath+"flush", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := db.regions.Flush(r.Context()); err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		db.serveRegions(w, r)
	}))
}

// regionsReport is what GET RegionsPath answers.
type regionsReport struct {
	Regions     []string `json:"regions"`
	Partitioned []string `json:"partitioned"`
	ReplicationStats
}

func (db *DB) serveRegions(w http.ResponseWriter, _ *http.Request) {
	st, err := db.regions.Stats()
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(regionsReport{Regions: db.regions.Regions(), Partitioned: db.regions.Partitioned(), ReplicationStats: st})
}

func (db *DB) partitionHandler(cut bool) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		region := r.PathValue("region")
		if _, err := db.regions.Engine(region); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		db.regions.Partition(region, cut)
		db.serveRegions(w, r)
	})
}

// replicationMetrics adds the replicator's counts to the metrics, when
// both are on (docs/METRICS.md).
func (db *DB) replicationMetrics() {
	if db.metrics == nil || db.regions == nil {
		return
	}
	count := func(f func(regions.Stats) int64) func() float64 {
		return func() float64 { return float64(f(db.regions.Counts())) }
	}
	db.metrics.Registry().MustRegister(
		prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "sortkey_replication_applied_total",
			Help: "Writes to global tables' replicas applied in another region."}, count(func(s regions.Stats) int64 { return s.Applied })),
		prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "sortkey_replication_overtaken_total",
			Help: "Writes to global tables' replicas that reached another region after a later write of their item, and were dropped there (last writer wins)."},
			count(func(s regions.Stats) int64 { return s.Overtaken })),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "sortkey_replication_backlog",
			Help: "Writes to global tables' replicas still to be sent to another region (waiting for the lag, or for a partitioned region)."},
			func() float64 { st, _ := db.regions.Stats(); return float64(st.Backlog) }))
}
