package sortkey

import (
	"context"
	"encoding/json"
	"time"

	"github.com/sortkeydb/sortkey/internal/faults"
	"github.com/sortkeydb/sortkey/internal/server"
)

// injectFaults gives h the DB's fault rules, Options.Faults to begin
// with, and the admin API when asked for. With no rule set the server
// asks nothing more of a call than whether a rule is set.
func (db *DB) injectFaults(h *server.Handler, opts *Options, now func() time.Time) error {
	db.faults = faults.New(faults.Config{Ops: h.Operations(), Now: now, Keys: db.eng})
	if err := db.faults.Set(opts.Faults); err != nil {
		return err
	}
	h.SetInjector(db.faults)
	if opts.Admin {
		db.faults.Mount(h)
		if opts.AdminRemote {
			h.AllowRemoteAdmin()
		}
	}
	return nil
}

// SetFaults replaces the fault rules with doc, a rule file's JSON or YAML
// (docs/TESTING-FAILURES.md); an empty doc removes them. Every rule starts
// afresh: its counts at 0, its random stream at the seed. A bad doc is
// refused with an error naming the rule and member, and changes nothing.
func (db *DB) SetFaults(doc []byte) error { return db.faults.Set(doc) }

// AwaitHeld waits until fault rules' hold keeps at least n transactions
// in flight, or ctx ends: a test's signal that a transaction holds its
// items and a conflicting request may be sent.
func (db *DB) AwaitHeld(ctx context.Context, n int) error { return db.faults.AwaitHeld(ctx, n) }

// ReleaseHeld lets every transaction a hold rule keeps in flight run on,
// and returns how many there were. Setting the rules releases them too.
func (db *DB) ReleaseHeld() int { return db.faults.Release() }

// Faults is the fault rules in force, each with how many calls it matched
// and fired on, as JSON: what GET /sortkey/faults answers.
func (db *DB) Faults() []byte {
	b, _ := json.Marshal(db.faults.Status())
	return b
}
