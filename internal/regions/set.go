package regions

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/sortkeydb/sortkey/internal/apierr"
	"github.com/sortkeydb/sortkey/internal/engine"
)

// Options configure a Set.
type Options struct {
	// Default is the region of requests that name none (unsigned).
	Default string
	// Open opens the engine of a region, calling replicated after each
	// write that leaves changes for other regions (engine.Options.Replicated)
	// and asking strong for the writes of strongly consistent replicas
	// (engine.Options.Strong).
	Open func(region string, replicated func(), strong engine.StrongReplication) (*engine.Engine, error)
	// Lag is how long a change waits before it is sent, by Now.
	Lag time.Duration
	// Now is the server's clock; nil means time.Now.
	Now func() time.Time
	// Known lists the regions whose stores exist, opened at New so that
	// what they owe other regions is sent after a restart; nil knows
	// none. Regions their replicas name are opened too, transitively.
	Known func() []string
}

// Set is the engines of every region a request has named.
type Set struct {
	opts Options

	mu      sync.Mutex
	engines map[string]*engine.Engine
	cut     map[string]bool // partitioned regions

	sending   sync.Mutex // one send at a time: a change is applied once
	holds     itemHolds  // strongly consistent replicas' items being written (strong.go)
	wake      chan struct{}
	stop      chan struct{}
	done      sync.WaitGroup
	conflicts atomic.Int64 // changes that arrived after a later write
	sent      atomic.Int64 // changes applied in their region
}

// regionName is what a region may be called: AWS's names, and the short
// ones ("local") that clients of local DynamoDBs often use. It becomes a
// directory or schema name, so nothing else is taken.
var regionName = regexp.MustCompile(`^[a-z][a-z0-9-]{0,30}[a-z0-9]$`)

// New opens the default region's engine and starts the replicator.
func New(opts Options) (*Set, error) {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	s := &Set{opts: opts, engines: map[string]*engine.Engine{}, cut: map[string]bool{},
		wake: make(chan struct{}, 1), stop: make(chan struct{})}
	if err := s.openKnown(); err != nil {
		return nil, errors.Join(err, s.closeEngines())
	}
	s.done.Go(s.replicate)
	return s, nil
}

// openKnown opens the default region, the known ones, and every region a
// replica of an open one names.
func (s *Set) openKnown() error {
	todo := []string{s.opts.Default}
	if s.opts.Known != nil {
		todo = append(todo, s.opts.Known()...)
	}
	seen := map[string]bool{}
	for len(todo) > 0 {
		r := todo[0]
		todo = todo[1:]
		if seen[r] || !regionName.MatchString(r) {
			continue
		}
		seen[r] = true
		e, err := s.Engine(r)
		if err != nil {
			return err
		}
		todo = append(todo, e.OwedRegions()...)
	}
	return nil
}

// Default is the engine of the default region.
func (s *Set) Default() *engine.Engine {
	e, _ := s.Engine(s.opts.Default)
	return e
}

// Engine is region's engine, opened at its first use; "" is the default
// region.
func (s *Set) Engine(region string) (*engine.Engine, error) {
	region = s.name(region)
	s.mu.Lock()
	defer s.mu.Unlock()
	if e := s.engines[region]; e != nil {
		return e, nil
	}
	if !regionName.MatchString(region) {
		return nil, apierr.New(apierr.UnrecognizedClient, "The region %q named by the request's credential scope is not a region name", region)
	}
	e, err := s.opts.Open(region, s.poke, s)
	if err != nil {
		return nil, fmt.Errorf("regions: opening region %s: %w", region, err)
	}
	s.engines[region] = e
	return e, nil
}

// name is region, or the default region's name for "".
func (s *Set) name(region string) string {
	if region == "" {
		return s.opts.Default
	}
	return region
}

// opened is every open region's engine, by region.
func (s *Set) opened() map[string]*engine.Engine {
	s.mu.Lock()
	defer s.mu.Unlock()
	return maps.Clone(s.engines)
}

// Regions lists the open regions.
func (s *Set) Regions() []string { return slices.Sorted(maps.Keys(s.opened())) }

// poke wakes the replicator without waiting.
func (s *Set) poke() {
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// Partition cuts region off from the others (cut true) or lets it rejoin.
// Cut off, its writes still succeed and wait to be sent; changes from
// the others wait for it too.
func (s *Set) Partition(region string, cut bool) {
	s.mu.Lock()
	if cut {
		s.cut[region] = true
	} else {
		delete(s.cut, region)
	}
	s.mu.Unlock()
	s.poke()
}

// Partitioned lists the regions cut off.
func (s *Set) Partitioned() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Sorted(maps.Keys(s.cut))
}

func (s *Set) isCut(region string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.cut[region]
}

// Close stops the replicator and closes every engine.
func (s *Set) Close() error {
	close(s.stop)
	s.done.Wait()
	return s.closeEngines()
}

func (s *Set) closeEngines() error {
	var errs []error
	for _, e := range s.opened() {
		errs = append(errs, e.Close())
	}
	return errors.Join(errs...)
}

// Flush sends now every change that is due (Lag old by the clock),
// except to or from a partitioned region, rather than at the replicator's
// next poll: what a test calls after moving a virtual clock.
func (s *Set) Flush(ctx context.Context) error {
	_, err := s.send(ctx, s.opts.Now().Add(-s.opts.Lag).UnixNano())
	return err
}

// TimeMoved catches every region's engine up with a move of a virtual
// clock (engine.TimeMoved), then sends the changes the move made due.
func (s *Set) TimeMoved(ctx context.Context) error {
	var errs []error
	for _, e := range s.opened() {
		errs = append(errs, e.TimeMoved())
	}
	return errors.Join(append(errs, s.Flush(ctx))...)
}
