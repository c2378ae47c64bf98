package engine

import (
	"context"
	"encoding/binary"
	"time"

	"github.com/sortkeydb/sortkey/internal/apierr"
	"github.com/sortkeydb/sortkey/internal/attr"
	"github.com/sortkeydb/sortkey/internal/backup"
	"github.com/sortkeydb/sortkey/internal/protocol"
	"github.com/sortkeydb/sortkey/internal/storage"
	"github.com/sortkeydb/sortkey/internal/validate"
)

// The answers of point-in-time recovery that DynamoDB's documentation
// does not give; docs/COMPATIBILITY.md lists them as unconfirmed.
const (
	msgPITROff         = "Point in time recovery is not enabled for table '%s'"
	msgRestoreTimeOut  = "Restore time %s is outside the restorable window [%s, %s]"
	msgExportTimeOut   = "Export time %s is outside the restorable window [%s, %s]"
	defaultPeriodDays  = 35
	restoreTimeDisplay = time.RFC3339Nano
)

// pitrMeta is a table's point-in-time recovery setting. While it is on,
// every change to the table writes a history record (see
// internal/backup/history.go) in its batch.
type pitrMeta struct {
	Enabled bool  `json:"enabled"`
	Since   int64 `json:"since"`  // Unix microseconds it was enabled
	Period  int64 `json:"period"` // RecoveryPeriodInDays
}

// pitrOn reports whether t keeps history: one pointer test on the write
// path of a table without it.
func (t *table) pitrOn() bool { return t.meta.PITR != nil && t.meta.PITR.Enabled }

// addHistory records in b the item's version before w. The number is
// taken under the item's lock, so an item's records are in commit order.
func (e *Engine) addHistory(b *storage.Batch, t *table, w *write) {
	var old []byte
	if w.old != nil {
		old = attr.AppendItem(nil, w.old)
	}
	b.Set(storage.HistoryKey(t.meta.ID, e.nextHistory(t)), backup.AppendRecord(nil, e.now(), w.key.storage, old))
}

// nextHistory numbers a history record: in one sequence for the process,
// or, on a shared store, in the table's own, which applyBatch holds
// (lockHistories) and guards, as a stream's.
func (e *Engine) nextHistory(t *table) uint64 {
	if !e.db.Shared() {
		return e.historySeq.Add(1)
	}
	h := &t.alive.hist
	h.seq++
	return h.seq
}

// lockHistories locks and guards the history numbering of the tables in
// held whose history is on, on a shared store, and returns what it
// locked, which the caller unlocks once the batch is applied.
func (e *Engine) lockHistories(held []*lifecycle, b *storage.Batch) ([]*streamSeq, error) {
	var locked []*streamSeq
	for _, l := range held {
		t := l.current.Load()
		if !t.pitrOn() {
			continue
		}
		lo, hi := storage.HistoryRange(t.meta.ID)
		h, err := e.lockLast(&l.hist, lo, hi, storage.HistoryFloorKey(t.meta.ID))
		if err != nil {
			unlockSeqs(locked)
			return nil, err
		}
		locked = append(locked, h)
		var last []byte
		if h.seq > 0 {
			last = storage.HistoryKey(t.meta.ID, h.seq)
		}
		b.GuardLast(lo, hi, last)
	}
	return locked, nil
}

// seedHistory makes the history numbering continue after the largest
// number any table's records hold.
func (e *Engine) seedHistory() error {
	for _, t := range e.tables {
		lo, hi := storage.HistoryRange(t.meta.ID)
		err := e.db.ScanReverse(lo, hi, func(k, _ []byte) bool {
			if n := storage.RecordSeq(k); n > e.historySeq.Load() {
				e.historySeq.Store(n)
			}
			return false
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// window is how far back t can be restored: its RecoveryPeriodInDays,
// capped by the server's window.
func (e *Engine) window(p *pitrMeta) time.Duration {
	return min(time.Duration(p.Period)*backup.Day, e.pitrWindow)
}

// UpdateContinuousBackups turns point-in-time recovery on or off. Turning
// it off drops the table's history, as DynamoDB does.
func (e *Engine) UpdateContinuousBackups(_ context.Context, in *protocol.UpdateContinuousBackupsInput) (*protocol.ContinuousBackupsOutput, error) {
	if err := validate.UpdateContinuousBackups(in); err != nil {
		return nil, err
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	t, err := e.lockedTable(*in.TableName)
	if err != nil {
		return nil, apierr.New(apierr.TableNotFound, msgTableMissing, e.nameOf(*in.TableName))
	}
	meta := t.meta
	meta.PITR = nextPITR(t.meta.PITR, in.PointInTimeRecoverySpecification, e.now())
	if !meta.PITR.Enabled {
		if err := e.dropHistory(t.meta.ID); err != nil {
			return nil, err
		}
	}
	if err := e.publish(t, meta, 0); err != nil {
		return nil, err
	}
	return &protocol.ContinuousBackupsOutput{ContinuousBackupsDescription: e.continuous(meta.PITR)}, nil
}

func nextPITR(cur *pitrMeta, spec *protocol.PointInTimeRecoverySpecification, now time.Time) *pitrMeta {
	next := &pitrMeta{Enabled: *spec.PointInTimeRecoveryEnabled, Since: now.UnixMicro(), Period: defaultPeriodDays}
	if spec.RecoveryPeriodInDays != nil {
		next.Period = *spec.RecoveryPeriodInDays
	}
	if next.Enabled && cur != nil && cur.Enabled {
		next.Since = cur.Since
	}
	return next
}

func (e *Engine) dropHistory(id uint64) error {
	b := e.db.NewBatch()
	b.DeleteRange(storage.HistoryRange(id))
	return b.Commit()
}

// DescribeContinuousBackups reports the table's recovery setting and, when
// it is on, the window it can be restored to.
func (e *Engine) DescribeContinuousBackups(_ context.Context, in *protocol.DescribeContinuousBackupsInput) (*protocol.ContinuousBackupsOutput, error) {
	if err := validate.TableName(in.TableName, "tableName"); err != nil {
		return nil, err
	}
	t := e.lookup(e.nameOf(*in.TableName))
	if t == nil {
		return nil, apierr.New(apierr.TableNotFound, msgTableMissing, e.nameOf(*in.TableName))
	}
	return &protocol.ContinuousBackupsOutput{ContinuousBackupsDescription: e.continuous(t.meta.PITR)}, nil
}

func (e *Engine) continuous(p *pitrMeta) *protocol.ContinuousBackupsDescription {
	d := &protocol.PointInTimeRecoveryDescription{PointInTimeRecoveryStatus: "DISABLED"}
	if p != nil && p.Enabled {
		now := e.now()
		early, late := epoch(backup.Earliest(time.UnixMicro(p.Since), now, e.window(p))), epoch(now)
		d.PointInTimeRecoveryStatus, d.RecoveryPeriodInDays = "ENABLED", p.Period
		d.EarliestRestorableDateTime, d.LatestRestorableDateTime = &early, &late
	}
	return &protocol.ContinuousBackupsDescription{ContinuousBackupsStatus: "ENABLED", PointInTimeRecoveryDescription: d}
}

// RestoreTableToPointInTime creates a new table holding the source's
// items as they were at the moment asked for, under the source's current
// definition (or the overrides).
func (e *Engine) RestoreTableToPointInTime(_ context.Context, in *protocol.RestoreTableToPointInTimeInput) (*protocol.RestoreTableOutput, error) {
	if err := validate.RestoreTableToPointInTime(in); err != nil {
		return nil, err
	}
	t, at, err := e.pitrSource(in)
	if err != nil {
		return nil, err
	}
	create, err := restoreRequest(&t.meta, *in.TargetTableName, &in.RestoreOverrides)
	if err != nil {
		return nil, err
	}
	snap, err := e.db.NewSnapshot()
	if err != nil {
		return nil, err
	}
	defer snap.Close()
	undo, err := undoAfter(snap, t.meta.ID, at)
	if err != nil {
		return nil, err
	}
	sum := &protocol.RestoreSummary{SourceTableArn: t.meta.Desc.TableArn, RestoreDateTime: epoch(at)}
	return e.restore(create, sum, func(fn func(v []byte) error) error { return itemsAt(snap, t.meta.ID, undo, fn) })
}

// pitrSource finds the source table and the moment, refusing a table
// without recovery and a moment outside its window.
func (e *Engine) pitrSource(in *protocol.RestoreTableToPointInTimeInput) (*table, time.Time, error) {
	ref := in.SourceTableArn
	if in.SourceTableName != nil {
		ref = in.SourceTableName
	}
	at := timeOf(in.RestoreDateTime)
	if in.UseLatestRestorableTime != nil && *in.UseLatestRestorableTime {
		at = nil
	}
	return e.pitrTable(*ref, at, apierr.InvalidRestoreTime, msgRestoreTimeOut)
}

// pitrTable finds the table ref names and the moment (nil: now), refusing
// a table without recovery and, with code and msg, a moment outside its
// window.
func (e *Engine) pitrTable(ref string, at *time.Time, code apierr.Code, msg string) (*table, time.Time, error) {
	name := e.nameOf(ref)
	t := e.lookup(name)
	if t == nil {
		return nil, time.Time{}, apierr.New(apierr.TableNotFound, msgTableMissing, ref)
	}
	if !t.pitrOn() {
		return nil, time.Time{}, apierr.New(apierr.PITRUnavailable, msgPITROff, name)
	}
	now, p := e.now(), t.meta.PITR
	when := now
	if at != nil {
		when = *at
	}
	if !backup.Within(when, time.UnixMicro(p.Since), now, e.window(p)) {
		early := backup.Earliest(time.UnixMicro(p.Since), now, e.window(p))
		return nil, time.Time{}, apierr.New(code, msg,
			when.UTC().Format(restoreTimeDisplay), early.UTC().Format(restoreTimeDisplay), now.UTC().Format(restoreTimeDisplay))
	}
	return t, when, nil
}

// undoAfter collects the versions, at moment at, of the items changed
// after it, from the history in snap.
func undoAfter(snap *storage.Snapshot, id uint64, at time.Time) (*backup.Undo, error) {
	u := backup.NewUndo()
	lo, hi := storage.HistoryRange(id)
	var bad error
	err := snap.Scan(lo, hi, func(_, v []byte) bool {
		r, err := backup.DecodeRecord(v)
		if bad = err; err == nil && r.At.After(at) {
			u.Add(r)
		}
		return bad == nil
	})
	return u, firstErr(err, bad)
}

// itemsAt gives fn every item of the table as it was: today's items with
// the changes since undone, then the items deleted since.
func itemsAt(snap *storage.Snapshot, id uint64, u *backup.Undo, fn func(v []byte) error) error {
	prefix := storage.ItemPrefix(id, 0)
	var bad error
	err := snap.Scan(prefix, storage.PrefixEnd(prefix), func(k, v []byte) bool {
		if old, changed := u.Version(k); changed {
			v = old
		}
		if v != nil {
			bad = fn(v)
		}
		return bad == nil
	})
	if err := firstErr(err, bad); err != nil {
		return err
	}
	present := func(k []byte) bool { _, ok, _ := snap.Get(k); return ok }
	return u.Missing(present, func(_, item []byte) error { return fn(item) })
}

// trimHistory deletes the history records older than every table's
// window: they can no longer be restored to.
func (e *Engine) trimHistory() error {
	e.mu.RLock()
	var ts []*table
	for _, t := range e.tables {
		if t.pitrOn() {
			ts = append(ts, t)
		}
	}
	e.mu.RUnlock()
	for _, t := range ts {
		if err := e.trimTableHistory(t, e.now().Add(-e.window(t.meta.PITR))); err != nil {
			return err
		}
	}
	return nil
}

// trimTableHistory deletes t's records stamped before oldest, in number
// order, stopping at the first one kept.
func (e *Engine) trimTableHistory(t *table, oldest time.Time) error {
	lo, hi := storage.HistoryRange(t.meta.ID)
	var end []byte
	err := e.db.Scan(lo, hi, func(k, v []byte) bool {
		at, err := backup.RecordTime(v)
		if err != nil || !at.Before(oldest) {
			return false
		}
		end = append(end[:0], k...)
		return true
	})
	if err != nil || end == nil {
		return err
	}
	b := e.db.NewBatch()
	b.DeleteRange(lo, storage.PrefixEnd(end))
	b.Set(storage.HistoryFloorKey(t.meta.ID), binary.BigEndian.AppendUint64(nil, storage.RecordSeq(end)))
	return b.Commit()
}
