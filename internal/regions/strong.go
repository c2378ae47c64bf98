package regions

import (
	"slices"
	"sync"

	"github.com/sortkeydb/sortkey/internal/apierr"
	"github.com/sortkeydb/sortkey/internal/engine"
)

// msgReplicatedConflict is DynamoDB's text of ReplicatedWriteConflictException.
const msgReplicatedConflict = "One or more items in this request are being modified by a request in another Region."

// itemHolds are the items of strongly consistent replicas being written,
// by table and key: which region holds each, and how many writers of it
// hold or wait.
type itemHolds struct {
	mu sync.Mutex
	by map[string]*itemHold
}

type itemHold struct {
	region string
	n      int
	mu     sync.Mutex
}

// Hold holds the item for a writer of region (engine.StrongReplication):
// a writer of another region holding it is refused, one of the same
// region waits its turn.
func (s *Set) Hold(table string, item []byte, region string) (func(), error) {
	key := table + "\x00" + string(item)
	h := &s.holds
	h.mu.Lock()
	if h.by == nil {
		h.by = map[string]*itemHold{}
	}
	x := h.by[key]
	if x == nil {
		x = &itemHold{}
		h.by[key] = x
	}
	if x.n > 0 && x.region != region {
		h.mu.Unlock()
		return nil, apierr.New(apierr.ReplicatedWriteConflict, msgReplicatedConflict)
	}
	x.n, x.region = x.n+1, region
	h.mu.Unlock()
	x.mu.Lock()
	return func() { h.release(key, x) }, nil
}

func (h *itemHolds) release(key string, x *itemHold) {
	x.mu.Unlock()
	h.mu.Lock()
	if x.n--; x.n == 0 {
		delete(h.by, key)
	}
	h.mu.Unlock()
}

// Send applies a strongly consistent write of region from in every other
// replica of its table (engine.StrongReplication), partitioned or not:
// sortkey's regions share one process, so a write reaches them all.
func (s *Set) Send(c engine.ReplicaChange, from string) error {
	src, err := s.Engine(from)
	if err != nil {
		return err
	}
	for _, r := range src.ReplicaRegions(c.Table) {
		if r == from {
			continue
		}
		dst, err := s.Engine(r)
		if err == nil {
			_, err = dst.Apply(c, from)
		}
		if err != nil {
			return err
		}
	}
	s.sent.Add(int64(len(src.ReplicaRegions(c.Table)) - 1))
	return nil
}

// strongSets are the region sets a strongly consistent global table's
// replicas must all belong to, as DynamoDB offers it.
var strongSets = [][]string{
	{"us-east-1", "us-east-2", "us-west-2"},
	{"eu-west-1", "eu-west-2", "eu-west-3", "eu-central-1"},
	{"ap-northeast-1", "ap-northeast-2", "ap-northeast-3"},
}

// sameStrongSet reports whether every region of g is in one region set.
func sameStrongSet(g []string) bool {
	for _, set := range strongSets {
		if !slices.ContainsFunc(g, func(r string) bool { return !slices.Contains(set, r) }) {
			return true
		}
	}
	return false
}
