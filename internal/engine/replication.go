package engine

import (
	"bytes"
	"encoding/binary"
	"errors"
	"slices"

	"github.com/sortkeydb/sortkey/internal/apierr"
	"github.com/sortkeydb/sortkey/internal/attr"
	"github.com/sortkeydb/sortkey/internal/protocol"
	"github.com/sortkeydb/sortkey/internal/storage"
)

// A replica of a global table (docs/GLOBAL-TABLES.md) is an ordinary
// table of this engine whose meta names the regions of its replication
// group. Each of its writes leaves two things in the same batch as the
// item: the item's stamp (when, and in which region, its last write
// happened; never an attribute) and, when the write was made here, one
// change per other region in an outbox that a replicator (package
// regions) drains. A change applied from another region replaces the
// item only when its stamp is later than the item's: last writer wins,
// whatever order changes arrive in. Tables that are not replicas pay one
// nil check per write.

// GlobalTableVersion is the global tables version sortkey implements.
const GlobalTableVersion = "2019.11.21"

// globalMeta is a replica's replication group.
type globalMeta struct {
	Regions     []string // every replica's region, this one's included, sorted
	Consistency string   // "EVENTUAL"
}

// Stamp orders writes of one item across regions: by time, then by
// region name, so that two regions never tie.
type Stamp struct {
	Nanos  int64
	Region string
}

// After reports whether s is a later write than o.
func (s Stamp) After(o Stamp) bool {
	return s.Nanos > o.Nanos || s.Nanos == o.Nanos && s.Region > o.Region
}

func (s Stamp) append(dst []byte) []byte {
	return append(binary.BigEndian.AppendUint64(dst, uint64(s.Nanos)), s.Region...)
}

func decodeStamp(v []byte) (Stamp, error) {
	if len(v) < 8 {
		return Stamp{}, errors.New("engine: a stored write stamp is cut short")
	}
	return Stamp{Nanos: int64(binary.BigEndian.Uint64(v)), Region: string(v[8:])}, nil
}

// readStamp is the stamp of the item at key, zero when it has none.
func (e *Engine) readStamp(t *table, key []byte) (Stamp, error) {
	v, ok, err := e.db.Get(storage.StampKey(t.meta.ID, key))
	if err != nil || !ok {
		return Stamp{}, err
	}
	return decodeStamp(v)
}

// addReplication adds a replica's write's stamp and, for a write made
// here, its changes for the other regions. Its stamp is the clock's time,
// or one past the item's stamp when that is later (a change from a region
// whose write was stamped ahead of this clock), so a write made here is
// always later than what it replaced.
func (e *Engine) addReplication(b *storage.Batch, t *table, w *write) error {
	if w.stamp != nil {
		b.Set(storage.StampKey(t.meta.ID, w.key.storage), w.stamp.append(nil))
		return nil
	}
	old, err := e.readStamp(t, w.key.storage)
	if err != nil {
		return err
	}
	now := e.now().UnixNano()
	s := Stamp{Nanos: max(now, old.Nanos+1), Region: e.region}
	b.Set(storage.StampKey(t.meta.ID, w.key.storage), s.append(nil))
	if t.strong() { // sent before the write is acknowledged (strong.go)
		return nil
	}
	change := encodeChange(w, s)
	for _, r := range t.meta.Global.Regions {
		if r != e.region {
			b.Set(outboxKey(t.meta.ID, r, now, w.key.storage), change)
		}
	}
	if e.replicated != nil {
		b.AfterApply(e.replicated)
	}
	return nil
}

// outboxKey orders a region's changes by the time they were written, so
// a replicator reads them oldest first and stops at the first one not yet
// due. That is the clock's time, not the stamp, which may be ahead of it
// (addReplication): a write is due its lag after it was made. A second
// write of an item at the same instant replaces the first's change,
// which it would overtake anyway.
func outboxKey(table uint64, region string, at int64, item []byte) []byte {
	k := binary.BigEndian.AppendUint64(storage.OutboxPrefix(table, region), uint64(at))
	return append(k, item[storage.IndexPrefixLen:]...)
}

// encodeChange is the outbox value of w: its stamp's time, then a 'P' and
// the new item, or a 'D' and the key of the deleted one.
func encodeChange(w *write, s Stamp) []byte {
	v := binary.BigEndian.AppendUint64(make([]byte, 0, 9+len(w.enc)), uint64(s.Nanos))
	if w.new != nil {
		if w.enc != nil {
			return append(append(v, 'P'), w.enc...)
		}
		return attr.AppendItem(append(v, 'P'), w.new)
	}
	return attr.AppendItem(append(v, 'D'), w.t.keyOf(w.old))
}

// keyOf is the key attributes of item it. A delete's old item is always
// decoded (only replace, a put, leaves it sized).
func (t *table) keyOf(it attr.Item) attr.Item {
	k := attr.Item{t.key.hash.name: it[t.key.hash.name]}
	if t.key.rng.name != "" {
		k[t.key.rng.name] = it[t.key.rng.name]
	}
	return k
}

// ReplicaChange is a write one replica owes another region.
type ReplicaChange struct {
	Table  string
	Stamp  Stamp
	Item   attr.Item // the item written, or the key of the item deleted
	Delete bool
	key    []byte // the outbox key, which Sent deletes
}

// Pending calls fn with each change owed to region written at or before
// upTo (in Unix nanoseconds), table by table, oldest first, until fn
// returns false.
func (e *Engine) Pending(region string, upTo int64, fn func(ReplicaChange) bool) error {
	for _, t := range e.replicas() {
		more, err := e.pendingOf(t, region, upTo, fn)
		if err != nil || !more {
			return err
		}
	}
	return nil
}

// replicas lists the tables that are replicas of a global table.
func (e *Engine) replicas() []*table {
	e.mu.RLock()
	defer e.mu.RUnlock()
	var ts []*table
	for _, t := range e.tables {
		if t.meta.Global != nil {
			ts = append(ts, t)
		}
	}
	return ts
}

func (e *Engine) pendingOf(t *table, region string, upTo int64, fn func(ReplicaChange) bool) (more bool, err error) {
	lo := storage.OutboxPrefix(t.meta.ID, region)
	more = true
	err = e.db.Scan(lo, storage.PrefixEnd(lo), func(key, val []byte) bool {
		at := key[len(lo):]
		c, ok := decodeChange(t.meta.Desc.TableName, val)
		if !ok || len(at) < 8 || int64(binary.BigEndian.Uint64(at)) > upTo {
			return false
		}
		c.key = bytes.Clone(key)
		more = fn(c)
		return more
	})
	return more, err
}

// decodeChange reads an outbox entry's value. One that cannot be read
// ends the scan (ok false): this engine wrote it, so it is never expected.
func decodeChange(table string, val []byte) (ReplicaChange, bool) {
	if len(val) < 9 {
		return ReplicaChange{}, false
	}
	it, err := attr.DecodeItem(val[9:])
	if err != nil {
		return ReplicaChange{}, false
	}
	return ReplicaChange{Table: table, Stamp: Stamp{Nanos: int64(binary.BigEndian.Uint64(val))}, Item: it, Delete: val[8] == 'D'}, true
}

// Sent forgets changes that reached their region.
func (e *Engine) Sent(cs []ReplicaChange) error {
	b := e.db.NewBatch()
	for _, c := range cs {
		b.Delete(c.key)
	}
	return b.CommitNoSync()
}

// Apply makes a change from region from in this replica, unless the item
// already holds a later write (then applied is false: the change lost).
// It is written with the change's stamp, into this replica's stream and
// indexes, and owes no other region anything: every region sends its own
// writes to every other.
func (e *Engine) Apply(c ReplicaChange, from string) (applied bool, err error) {
	t := e.lookup(c.Table)
	if t == nil || t.meta.Global == nil {
		return false, apierr.New(apierr.ResourceNotFound, msgNotFound)
	}
	k, err := t.keyFromItem(c.Item)
	if err != nil {
		return false, err
	}
	if err := e.holds.refuseHeld(k.storage); err != nil {
		return false, err
	}
	c.Stamp.Region = from
	unlock := e.locks.lock(k.hash)
	defer unlock()
	return e.applyChange(t, k, c)
}

func (e *Engine) applyChange(t *table, k itemKey, c ReplicaChange) (bool, error) {
	cur, err := e.readStamp(t, k.storage)
	if err != nil || !c.Stamp.After(cur) {
		return c.Stamp == cur, err // the same change twice is applied
	}
	old, mark, err := e.readForWrite(k)
	if err != nil {
		return false, err
	}
	next := c.Item
	if c.Delete {
		next = nil
	}
	if old == nil && next == nil { // a delete of what is not here: keep its stamp
		b := e.db.NewBatch()
		b.Set(storage.StampKey(t.meta.ID, k.storage), c.Stamp.append(nil))
		return true, b.Commit()
	}
	return true, durable(e.applyBatch([]write{{t: t, key: k, old: old, new: next, read: mark, stamp: &c.Stamp}}, nil))
}

// Copy is every item of a replica with its stamp, for a new replica's
// first fill; fn returning false stops it.
func (e *Engine) Copy(table string, fn func(ReplicaChange) bool) error {
	t := e.lookup(table)
	if t == nil {
		return apierr.New(apierr.ResourceNotFound, msgNotFound)
	}
	p := storage.ItemPrefix(t.meta.ID, 0)
	var ferr error
	err := e.db.Scan(p, storage.PrefixEnd(p), func(key, val []byte) bool {
		it, err := attr.DecodeItem(val)
		if err != nil {
			ferr = err
			return false
		}
		s, err := e.readStamp(t, key)
		if err != nil {
			ferr = err
			return false
		}
		if s.Nanos == 0 { // written before the table had replicas
			s = Stamp{Nanos: 1, Region: e.region}
		}
		return fn(ReplicaChange{Table: table, Stamp: s, Item: it})
	})
	return errors.Join(err, ferr)
}

// ReplicaRegions is the replication group of the named table, this
// region included, or nil when it is not a replica.
func (e *Engine) ReplicaRegions(table string) []string {
	t := e.lookup(e.nameOf(table))
	if t == nil || t.meta.Global == nil {
		return nil
	}
	return slices.Clone(t.meta.Global.Regions)
}

// SetReplicas makes the named table a replica of the group regions (this
// region among them), or, with regions of this region alone, a table of
// its own again. A replica's stream is on, NEW_AND_OLD_IMAGES, as global
// tables require; a stream of another view type is refused.
func (e *Engine) SetReplicas(table string, regions []string, consistency string) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	t, err := e.lockedTable(table)
	if err != nil {
		return err
	}
	meta := ownedMeta(t.meta)
	dropped := e.replicaRegionsGone(&meta, regions)
	if len(regions) <= 1 {
		meta.Global = nil
	} else if err := e.makeReplica(&meta, regions, consistency); err != nil {
		return err
	}
	if err := e.publish(t, meta, 0); err != nil {
		return err
	}
	return e.dropOutboxes(meta.ID, dropped)
}

func (e *Engine) makeReplica(meta *tableMeta, regions []string, consistency string) error {
	if s := meta.Desc.StreamSpecification; s != nil && deref(s.StreamViewType) != "NEW_AND_OLD_IMAGES" {
		return apierr.Validationf("Table %s has a stream of view type %s: a replica's stream must be NEW_AND_OLD_IMAGES", meta.Desc.TableName, deref(s.StreamViewType))
	}
	if meta.Desc.StreamSpecification == nil {
		setStream(&meta.Desc, &protocol.StreamSpecification{StreamEnabled: new(true), StreamViewType: new("NEW_AND_OLD_IMAGES")}, e.now())
		e.syncStreams(meta)
	}
	meta.Global = &globalMeta{Regions: slices.Sorted(slices.Values(regions)), Consistency: consistency}
	return nil
}

// replicaRegionsGone are the regions meta's group has and regions lacks.
func (e *Engine) replicaRegionsGone(meta *tableMeta, regions []string) []string {
	if meta.Global == nil {
		return nil
	}
	var gone []string
	for _, r := range meta.Global.Regions {
		if !slices.Contains(regions, r) {
			gone = append(gone, r)
		}
	}
	return gone
}

// dropOutboxes forgets what a replica still owed regions that left.
func (e *Engine) dropOutboxes(id uint64, regions []string) error {
	if len(regions) == 0 {
		return nil
	}
	b := e.db.NewBatch()
	for _, r := range regions {
		p := storage.OutboxPrefix(id, r)
		b.DeleteRange(p, storage.PrefixEnd(p))
	}
	return b.Commit()
}

// describeReplicas adds a replica's global table members to d: the
// version, and the other regions' replicas.
func (e *Engine) describeReplicas(d *protocol.TableDescription, g *globalMeta) {
	d.GlobalTableVersion, d.MultiRegionConsistency = GlobalTableVersion, g.Consistency
	d.Replicas = nil
	for _, r := range g.Regions {
		if r != e.region {
			arn := "arn:aws:dynamodb:" + r + ":" + e.account + ":table/" + d.TableName
			d.Replicas = append(d.Replicas, protocol.ReplicaDescription{RegionName: r, ReplicaStatus: "ACTIVE", ReplicaArn: arn})
		}
	}
}

// ReplicaRequest is the CreateTable request of a new replica of the named
// table in another region: its keys, indexes, billing and encryption, and
// the stream a replica has. TTL is the caller's to copy (TimeToLive).
func (e *Engine) ReplicaRequest(table string) (*protocol.CreateTableInput, error) {
	t, err := e.controlTable(table)
	if err != nil {
		return nil, err
	}
	in, err := restoreRequest(&t.meta, t.meta.Desc.TableName, &protocol.RestoreOverrides{})
	if err != nil {
		return nil, err
	}
	in.StreamSpecification = &protocol.StreamSpecification{StreamEnabled: new(true), StreamViewType: new("NEW_AND_OLD_IMAGES")}
	if c := t.meta.Desc.TableClassSummary; c != nil {
		in.TableClass = &c.TableClass
	}
	return in, nil
}

// OwedRegions is every other region of this engine's replicas' groups:
// where its changes go.
func (e *Engine) OwedRegions() []string {
	var out []string
	for _, t := range e.replicas() {
		for _, r := range t.meta.Global.Regions {
			if r != e.region && !slices.Contains(out, r) {
				out = append(out, r)
			}
		}
	}
	return out
}

// Backlog counts the changes this engine's replicas still owe other
// regions.
func (e *Engine) Backlog() (int, error) {
	n := 0
	for _, t := range e.replicas() {
		lo, hi := storage.OutboxRange(t.meta.ID)
		if err := e.db.Scan(lo, hi, func(_, _ []byte) bool { n++; return true }); err != nil {
			return n, err
		}
	}
	return n, nil
}

// keepReplicaStream refuses to disable a replica's stream, which global
// tables require.
func keepReplicaStream(m *tableMeta, spec *protocol.StreamSpecification) error {
	if m.Global == nil || spec == nil || spec.StreamEnabled == nil || *spec.StreamEnabled {
		return nil
	}
	return apierr.Validationf("Table %s is a replica of a global table: its stream cannot be disabled while it has replicas", m.Desc.TableName)
}
