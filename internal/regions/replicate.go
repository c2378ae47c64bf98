package regions

import (
	"context"
	"errors"
	"log/slog"
	"time"

	"github.com/sortkeydb/sortkey/internal/apierr"
	"github.com/sortkeydb/sortkey/internal/engine"
)

// poll is how often the replicator looks for changes come due without
// being woken: the lag runs on the server's clock, which a virtual clock
// moves without telling anyone.
const poll = 20 * time.Millisecond

// sendChunk bounds the changes one scan of an outbox collects before
// they are marked sent.
const sendChunk = 512

func (s *Set) replicate() {
	tick := time.NewTicker(poll)
	defer tick.Stop()
	failing := false
	for {
		select {
		case <-s.stop:
			return
		case <-s.wake:
		case <-tick.C:
		}
		_, err := s.send(context.Background(), s.opts.Now().Add(-s.opts.Lag).UnixNano())
		if err != nil && !failing { // once per run of failures, not per poll
			slog.Warn("regions: replicating", "error", err)
		}
		failing = err != nil
	}
}

// send delivers every change stamped at or before upTo (Unix nanoseconds)
// between regions that are not cut off; n is how many it applied or
// found overtaken.
func (s *Set) send(ctx context.Context, upTo int64) (n int, err error) {
	s.sending.Lock()
	defer s.sending.Unlock()
	var errs []error
	for from, src := range s.opened() {
		if s.isCut(from) {
			continue
		}
		for _, to := range src.OwedRegions() {
			if s.isCut(to) || ctx.Err() != nil {
				continue
			}
			dst, err := s.Engine(to)
			if err == nil {
				var k int
				k, err = s.sendTo(src, from, dst, to, upTo)
				n += k
			}
			errs = append(errs, err)
		}
	}
	return n, errors.Join(append(errs, ctx.Err())...)
}

// sendTo applies src's changes for region to in dst, a chunk at a time.
func (s *Set) sendTo(src *engine.Engine, from string, dst *engine.Engine, to string, upTo int64) (int, error) {
	total := 0
	for {
		sent, err := s.sendChunk(src, from, dst, to, upTo)
		total += len(sent)
		if serr := src.Sent(sent); err == nil {
			err = serr
		}
		if err != nil || len(sent) < sendChunk {
			return total, err
		}
	}
}

func (s *Set) sendChunk(src *engine.Engine, from string, dst *engine.Engine, to string, upTo int64) ([]engine.ReplicaChange, error) {
	var sent []engine.ReplicaChange
	var applyErr error
	err := src.Pending(to, upTo, func(c engine.ReplicaChange) bool {
		applied, err := dst.Apply(c, from)
		switch {
		case apierr.Is(err, apierr.ResourceNotFound): // the replica left: nothing to deliver to
		case err != nil:
			applyErr = err
			return false
		case !applied:
			s.conflicts.Add(1)
		default:
			s.sent.Add(1)
		}
		sent = append(sent, c)
		return len(sent) < sendChunk
	})
	return sent, errors.Join(err, applyErr)
}

// Stats is the replicator's counts since the Set opened, and the changes
// waiting now.
type Stats struct {
	Applied   int64 // changes applied in their region
	Overtaken int64 // changes that arrived after a later write of their item, and were dropped
	Backlog   int64 // changes waiting to be sent, partitioned regions' included
}

// Stats reads the counts; Backlog scans every outbox.
func (s *Set) Stats() (Stats, error) {
	st := s.Counts()
	var errs []error
	for _, e := range s.opened() {
		n, err := e.Backlog()
		st.Backlog += int64(n)
		errs = append(errs, err)
	}
	return st, errors.Join(errs...)
}

// Counts is Stats without the Backlog, which takes a scan.
func (s *Set) Counts() Stats {
	return Stats{Applied: s.sent.Load(), Overtaken: s.conflicts.Load()}
}
