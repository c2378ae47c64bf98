package faults

import (
	"maps"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/sortkeydb/sortkey/internal/apierr"
	"github.com/sortkeydb/sortkey/internal/protocol"
	"github.com/sortkeydb/sortkey/internal/server"
)

func sortedTables[V any](m map[string]V) []string { return slices.Sorted(maps.Keys(m)) }

// DynamoDB's limits on a batch's items. A batch past them, or empty, is
// left whole for the engine to refuse: holding items back must not make
// an invalid request valid.
const (
	maxBatchWrites = 25
	maxBatchKeys   = 100
)

// slot is one item of a batch: its table as the request named it, and its
// place in that table's list.
type slot struct {
	table string
	i     int
}

// choose picks, with rng, round(frac × eligible) of the eligible slots
// (at least one), and reports whether that is the whole batch of total
// items. Only frac 1 takes a whole batch: a smaller fraction leaves one
// item processed, so that a resending loop always moves on.
func choose(rng *rand.Rand, frac float64, eligible []slot, total int) (map[slot]bool, bool) {
	k := min(max(1, int(math.Round(frac*float64(len(eligible))))), len(eligible))
	if k == total && frac < 1 {
		k--
	}
	held := make(map[slot]bool, k)
	for _, j := range rng.Perm(len(eligible))[:k] {
		held[eligible[j]] = true
	}
	return held, k == total
}

// allHeld is DynamoDB's answer when none of a batch's items can be
// processed: the batch fails as a whole rather than coming back empty.
func allHeld() *server.Fault {
	return &server.Fault{Err: apierr.New(apierr.ProvisionedThroughputExceeded, "%s", errorMessages[string(apierr.ProvisionedThroughputExceeded)])}
}

// holdWrites takes the chosen writes out of in and returns the fault
// that gives them back as UnprocessedItems. Whole requests are held, so
// no item is ever half written.
func holdWrites(in *protocol.BatchWriteItemInput, rng *rand.Rand, frac float64, wants func(ref) bool) *server.Fault {
	eligible, total := writeSlots(in.RequestItems, wants)
	if len(eligible) == 0 || total > maxBatchWrites {
		return &server.Fault{}
	}
	held, all := choose(rng, frac, eligible, total)
	if all {
		return allHeld()
	}
	kept := splitWrites(in.RequestItems, held)
	return &server.Fault{Restore: func(out any) { restoreWrites(out.(*protocol.BatchWriteItemOutput), kept) }}
}

// writeSlots lists the writes wants takes, in a fixed order (tables
// sorted), and counts every write.
func writeSlots(items map[string][]protocol.WriteRequest, wants func(ref) bool) (eligible []slot, total int) {
	for _, t := range sortedTables(items) {
		for i, w := range items[t] {
			total++
			if wants(ref{table: t, item: writeItem(w)}) {
				eligible = append(eligible, slot{t, i})
			}
		}
	}
	return eligible, total
}

// restoreWrites adds the held writes to the engine's own unprocessed
// ones.
func restoreWrites(o *protocol.BatchWriteItemOutput, held map[string][]protocol.WriteRequest) {
	if o.UnprocessedItems == nil {
		o.UnprocessedItems = map[string][]protocol.WriteRequest{}
	}
	for t, ws := range held {
		o.UnprocessedItems[t] = append(o.UnprocessedItems[t], ws...)
	}
}

// splitWrites removes the held writes from items, in place, and returns
// them by table.
func splitWrites(items map[string][]protocol.WriteRequest, held map[slot]bool) map[string][]protocol.WriteRequest {
	out := map[string][]protocol.WriteRequest{}
	for t, ws := range items {
		var keep []protocol.WriteRequest
		for i, w := range ws {
			if held[slot{t, i}] {
				out[t] = append(out[t], w)
			} else {
				keep = append(keep, w)
			}
		}
		if keep == nil {
			delete(items, t)
		} else {
			items[t] = keep
		}
	}
	return out
}

// holdKeys is holdWrites for BatchGetItem: the held keys come back as
// UnprocessedKeys with their table's projection and consistency.
func holdKeys(in *protocol.BatchGetItemInput, rng *rand.Rand, frac float64, wants func(ref) bool) *server.Fault {
	eligible, total := keySlots(in.RequestItems, wants)
	if len(eligible) == 0 || total > maxBatchKeys {
		return &server.Fault{}
	}
	held, all := choose(rng, frac, eligible, total)
	if all {
		return allHeld()
	}
	kept := splitKeys(in.RequestItems, held)
	return &server.Fault{Restore: func(out any) { restoreKeys(out.(*protocol.BatchGetItemOutput), kept) }}
}

func keySlots(items map[string]protocol.KeysAndAttributes, wants func(ref) bool) (eligible []slot, total int) {
	for _, t := range sortedTables(items) {
		for i, k := range items[t].Keys {
			total++
			if wants(ref{table: t, item: k}) {
				eligible = append(eligible, slot{t, i})
			}
		}
	}
	return eligible, total
}

func restoreKeys(o *protocol.BatchGetItemOutput, held map[string]protocol.KeysAndAttributes) {
	if o.UnprocessedKeys == nil {
		o.UnprocessedKeys = map[string]protocol.KeysAndAttributes{}
	}
	for t, ka := range held {
		if prev, ok := o.UnprocessedKeys[t]; ok {
			ka.Keys = append(prev.Keys, ka.Keys...)
		}
		o.UnprocessedKeys[t] = ka
	}
}

func splitKeys(items map[string]protocol.KeysAndAttributes, held map[slot]bool) map[string]protocol.KeysAndAttributes {
	out := map[string]protocol.KeysAndAttributes{}
	for t, ka := range items {
		keep, hold := ka, ka
		keep.Keys, hold.Keys = nil, nil
		for i, k := range ka.Keys {
			if held[slot{t, i}] {
				hold.Keys = append(hold.Keys, k)
			} else {
				keep.Keys = append(keep.Keys, k)
			}
		}
		if hold.Keys != nil {
			out[t] = hold
		}
		if keep.Keys == nil {
			delete(items, t)
		} else {
			items[t] = keep
		}
	}
	return out
}
