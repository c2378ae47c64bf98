package engine

import "slices"

// lockAll locks the stripes of several items for one multi-item write and
// returns the function that unlocks them. Each stripe is taken once, however
// many of the items share it, and stripes are taken in ascending order: two
// multi-item writers then never each hold a stripe the other waits for, and
// a single-item writer, holding one stripe, cannot close a cycle either.
func (l *lockTable) lockAll(hashes []uint64) (unlock func()) {
	idx := l.stripeIndexes(hashes)
	for _, i := range idx {
		l.stripes[i].Lock()
	}
	return func() {
		for _, i := range idx {
			l.stripes[i].Unlock()
		}
	}
}

// stripeIndexes is the sorted, distinct stripes of hashes, chosen as lock
// chooses them.
func (l *lockTable) stripeIndexes(hashes []uint64) []int {
	idx := make([]int, len(hashes))
	for i, h := range hashes {
		idx[i] = int(h % uint64(len(l.stripes)))
	}
	slices.Sort(idx)
	return slices.Compact(idx)
}

// lockEvery locks every stripe, in order, and returns the function that
// unlocks them: no item write can then be between its commit and what
// follows it under its lock (its graph change).
func (l *lockTable) lockEvery() (unlock func()) {
	for i := range l.stripes {
		l.stripes[i].Lock()
	}
	return func() {
		for i := range l.stripes {
			l.stripes[i].Unlock()
		}
	}
}
