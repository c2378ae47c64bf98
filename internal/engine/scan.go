package engine

import (
	"context"
	"encoding/binary"
	"math/bits"

	"github.com/sortkeydb/sortkey/internal/protocol"
	"github.com/sortkeydb/sortkey/internal/validate"
)

// Scan reads a whole table or index in storage order: partitions in the
// order of their keys' hashes, each partition in sort-key order.
func (e *Engine) Scan(_ context.Context, in *protocol.ScanInput) (*protocol.ReadOutput, error) {
	if err := validate.Scan(in); err != nil {
		return nil, err
	}
	r, err := parseRead(&in.ReadOptions, nil, nil, in.ScanFilter)
	if err != nil {
		return nil, err
	}
	p, err := e.plan(&in.ReadOptions, r)
	if err != nil {
		return nil, err
	}
	if in.TotalSegments != nil {
		p.segment(uint64(*in.Segment), uint64(*in.TotalSegments))
	}
	if err := p.startAfter(in.ExclusiveStartKey, nil); err != nil {
		return nil, err
	}
	return e.run(p)
}

// segment narrows the plan to one of n equal ranges of partition-key hash.
// Keys start with the hash, so segments are disjoint key ranges that
// together cover the table.
func (p *readPlan) segment(s, n uint64) {
	p.start.segment, p.start.segments = s, n
	prefix := p.lo
	p.lo = hashBound(prefix, s, n)
	if s+1 < n {
		p.hi = hashBound(prefix, s+1, n)
	}
}

// hashBound is the first key of segment s: prefix | floor(s * 2^64 / n).
func hashBound(prefix []byte, s, n uint64) []byte {
	q, _ := bits.Div64(s, 0, n)
	return binary.BigEndian.AppendUint64(clone(prefix), q)
}
