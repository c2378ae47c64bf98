package engine

import (
	"time"

	"github.com/sortkeydb/sortkey/internal/apierr"
	"github.com/sortkeydb/sortkey/internal/attr"
	"github.com/sortkeydb/sortkey/internal/backup"
	"github.com/sortkeydb/sortkey/internal/storage"
)

// PointInTime is a table's items as they were at a moment, for
// ExportTableToPointInTime. It reads a snapshot taken when it was opened,
// so writes, history trimming or PITR being turned off while an export
// runs change nothing it gives.
type PointInTime struct {
	TableArn, TableID string
	At                time.Time
	snap              *storage.Snapshot
	id                uint64
	undo              *backup.Undo
}

// OpenPointInTime opens the table ref (a name or an ARN) as it was at at
// (nil: now). The table must have point-in-time recovery on
// (PointInTimeRecoveryUnavailableException) and at must be within its
// restorable window (InvalidExportTimeException). Close releases it.
func (e *Engine) OpenPointInTime(ref string, at *time.Time) (*PointInTime, error) {
	t, when, err := e.pitrTable(ref, at, apierr.InvalidExportTime, msgExportTimeOut)
	if err != nil {
		return nil, err
	}
	snap, err := e.db.NewSnapshot()
	if err != nil {
		return nil, err
	}
	undo, err := undoAfter(snap, t.meta.ID, when)
	if err != nil {
		snap.Close()
		return nil, err
	}
	return &PointInTime{TableArn: t.meta.Desc.TableArn, TableID: t.meta.Desc.TableId, At: when,
		snap: snap, id: t.meta.ID, undo: undo}, nil
}

// Items gives fn each item's DynamoDB JSON and size, as a Scan's
// response would carry it; fn's error stops the walk and is returned.
func (p *PointInTime) Items(fn func(item []byte, size int) error) error {
	var buf []byte
	return itemsAt(p.snap, p.id, p.undo, func(v []byte) error {
		out, size, err := attr.AppendEncodedJSON(buf[:0], v)
		if err != nil {
			return err
		}
		buf = out
		return fn(out, size)
	})
}

// Close releases the snapshot.
func (p *PointInTime) Close() { p.snap.Close() }

// WireTime converts a request's time (epoch seconds) as the engine's
// operations do; nil stays nil.
func WireTime(sec *float64) *time.Time { return timeOf(sec) }
