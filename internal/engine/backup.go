package engine

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"strings"
	"time"

	"github.com/sortkeydb/sortkey/internal/apierr"
	"github.com/sortkeydb/sortkey/internal/attr"
	"github.com/sortkeydb/sortkey/internal/backup"
	"github.com/sortkeydb/sortkey/internal/protocol"
	"github.com/sortkeydb/sortkey/internal/storage"
	"github.com/sortkeydb/sortkey/internal/validate"
)

// The answers of the backup operations. DynamoDB's documentation shows
// only "Backup not found: <arn>"; the others are recorded in
// docs/COMPATIBILITY.md as unconfirmed.
const (
	msgBackupNotFound = "Backup not found: %s"
	msgTableExists    = "Table already exists: %s"
	msgTableMissing   = "Table not found: %s"
	msgBackupCreating = "Backup is being created: %s"
)

// A backup is a copy of a table's items taken from one Pebble snapshot,
// under its own key space ('k' | number), and a record ('j' | id) holding
// the table's definition as it was. The record is written CREATING before
// the copy and AVAILABLE after it, so a backup interrupted by a crash is
// found CREATING at the next start and removed (dropUnfinishedBackups).
type backupMeta struct {
	ID      string    `json:"id"`
	Num     uint64    `json:"num"` // its items' key space; from the table id sequence
	Name    string    `json:"name"`
	Status  string    `json:"status"`
	Created int64     `json:"created"` // Unix milliseconds
	Items   int64     `json:"items"`
	Bytes   int64     `json:"bytes"`
	Table   tableMeta `json:"table"`
}

const copyChunk = 1 << 20 // bytes of items per synced batch while copying

// CreateBackup copies the table's items as they are now. The copy is
// complete when the call returns, so the backup is AVAILABLE at once.
func (e *Engine) CreateBackup(_ context.Context, in *protocol.CreateBackupInput) (*protocol.CreateBackupOutput, error) {
	if err := validate.CreateBackup(in); err != nil {
		return nil, err
	}
	snap, m, err := e.startBackup(*in.TableName, *in.BackupName)
	if err != nil {
		return nil, err
	}
	defer snap.Close()
	if err := e.copyItems(snap, m); err != nil {
		e.dropBackup(m)
		return nil, err
	}
	m.Status = "AVAILABLE"
	if err := e.putBackup(m, nil); err != nil {
		return nil, err
	}
	return &protocol.CreateBackupOutput{BackupDetails: e.backupDetails(m)}, nil
}

// startBackup takes the snapshot and writes the CREATING record, under
// e.mu so that the table's definition and the snapshot agree.
func (e *Engine) startBackup(name, backupName string) (*storage.Snapshot, *backupMeta, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	t, err := e.lockedTable(name)
	if err != nil {
		return nil, nil, apierr.New(apierr.TableNotFound, msgTableMissing, e.nameOf(name))
	}
	now := e.now()
	e.lastID++
	m := &backupMeta{ID: backup.NewID(now), Num: e.lastID, Name: backupName, Status: "CREATING",
		Created: now.UnixMilli(), Table: t.meta}
	seq, _ := json.Marshal(e.lastID)
	err = e.putBackup(m, func(b *storage.Batch) {
		e.guardSequence(b)
		b.Set(storage.SequenceKey(), seq)
	})
	if err != nil {
		return nil, nil, e.staleCatalog(err)
	}
	e.seqRaw = seq
	snap, err := e.db.NewSnapshot()
	if err != nil {
		return nil, nil, err
	}
	return snap, m, nil
}

// putBackup writes a backup's record (and extra, if not nil) synced, in
// the catalog's stored format (catalogformat.go).
func (e *Engine) putBackup(m *backupMeta, extra func(*storage.Batch)) error {
	v, err := encodeBackup(m)
	if err != nil {
		return err
	}
	b := e.db.NewBatch()
	b.Set(storage.BackupKey(m.ID), v)
	if extra != nil {
		extra(b)
	}
	return b.Commit()
}

// copyItems copies the table's items from snap into the backup's key
// space, in synced batches of about copyChunk bytes.
func (e *Engine) copyItems(snap *storage.Snapshot, m *backupMeta) error {
	lo, _ := storage.BackupItemRange(m.Num)
	prefix := storage.ItemPrefix(m.Table.ID, 0)
	b, pending := e.db.NewBatch(), 0
	var bad error
	err := snap.Scan(prefix, storage.PrefixEnd(prefix), func(k, v []byte) bool {
		it, err := attr.DecodeItem(v)
		if bad = err; err != nil {
			return false
		}
		m.Items, m.Bytes = m.Items+1, m.Bytes+int64(it.Size())
		b.Set(append(append([]byte{}, lo...), k[len(prefix):]...), v)
		if pending += len(k) + len(v); pending >= copyChunk {
			bad, pending = b.Commit(), 0
			b = e.db.NewBatch()
		}
		return bad == nil
	})
	if err == nil && bad == nil {
		return b.Commit()
	}
	b.Discard()
	return firstErr(err, bad)
}

func firstErr(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// dropBackup deletes a backup's items and record in one batch.
func (e *Engine) dropBackup(m *backupMeta) error {
	b := e.db.NewBatch()
	b.DeleteRange(storage.BackupItemRange(m.Num))
	b.Delete(storage.BackupKey(m.ID))
	return b.Commit()
}

// dropUnfinishedBackups removes the backups a crash interrupted.
func (e *Engine) dropUnfinishedBackups() error {
	ms, err := e.backups()
	for _, m := range ms {
		if err == nil && m.Status != "AVAILABLE" {
			err = e.dropBackup(m)
		}
	}
	return err
}

// backups reads every backup record, in id order, which is creation order
// (the id starts with the creation time in milliseconds).
func (e *Engine) backups() ([]*backupMeta, error) {
	lo, hi := storage.BackupRange()
	var ms []*backupMeta
	var bad error
	err := e.db.Scan(lo, hi, func(_, v []byte) bool {
		var m *backupMeta
		if m, bad = decodeBackup(v); bad == nil {
			ms = append(ms, m)
		}
		return bad == nil
	})
	return ms, firstErr(err, bad)
}

// backupByArn finds the backup an ARN names, with DynamoDB's error when
// there is none.
func (e *Engine) backupByArn(arn string) (*backupMeta, error) {
	_, id, ok := strings.Cut(arn, "/backup/")
	if !ok || !strings.HasPrefix(arn, e.arnPrefix) {
		return nil, apierr.New(apierr.BackupNotFound, msgBackupNotFound, arn)
	}
	v, found, err := e.db.Get(storage.BackupKey(id))
	if err != nil {
		return nil, err
	}
	m, bad := decodeBackup(v) // fails when not found: v is empty
	if !found || bad != nil || e.backupArn(m) != arn {
		return nil, apierr.New(apierr.BackupNotFound, msgBackupNotFound, arn)
	}
	return m, nil
}

func (e *Engine) backupArn(m *backupMeta) string {
	return e.tableArn(m.Table.Desc.TableName) + "/backup/" + m.ID
}

func (e *Engine) backupDetails(m *backupMeta) *protocol.BackupDetails {
	return &protocol.BackupDetails{BackupArn: e.backupArn(m), BackupName: m.Name, BackupSizeBytes: m.Bytes,
		BackupStatus: m.Status, BackupType: "USER", BackupCreationDateTime: epoch(time.UnixMilli(m.Created))}
}

// DescribeBackup describes a backup: itself, its table as it was, and
// the table's features.
func (e *Engine) DescribeBackup(_ context.Context, in *protocol.DescribeBackupInput) (*protocol.BackupDescriptionOutput, error) {
	if err := validate.BackupArn(in.BackupArn); err != nil {
		return nil, err
	}
	m, err := e.backupByArn(*in.BackupArn)
	if err != nil {
		return nil, err
	}
	return &protocol.BackupDescriptionOutput{BackupDescription: e.backupDescription(m)}, nil
}

func (e *Engine) backupDescription(m *backupMeta) *protocol.BackupDescription {
	d := &m.Table.Desc
	src := &protocol.SourceTableDetails{TableName: d.TableName, TableId: d.TableId, TableArn: e.tableArn(d.TableName),
		TableSizeBytes: m.Bytes, ItemCount: m.Items, KeySchema: d.KeySchema, TableCreationDateTime: d.CreationDateTime,
		ProvisionedThroughput: throughputOf(d.ProvisionedThroughput), OnDemandThroughput: d.OnDemandThroughput,
		BillingMode: billingMode(d)}
	return &protocol.BackupDescription{BackupDetails: e.backupDetails(m), SourceTableDetails: src,
		SourceTableFeatureDetails: features(&m.Table)}
}

func throughputOf(p *protocol.ProvisionedThroughputDescription) *protocol.ProvisionedThroughput {
	if p == nil {
		return &protocol.ProvisionedThroughput{ReadCapacityUnits: new(int64), WriteCapacityUnits: new(int64)}
	}
	return &protocol.ProvisionedThroughput{ReadCapacityUnits: &p.ReadCapacityUnits, WriteCapacityUnits: &p.WriteCapacityUnits}
}

// features lists the backed-up table's indexes, encryption, stream and TTL.
func features(m *tableMeta) *protocol.SourceTableFeatureDetails {
	f := &protocol.SourceTableFeatureDetails{SSEDescription: m.Desc.SSEDescription, StreamDescription: m.Desc.StreamSpecification}
	for _, g := range m.Desc.GlobalSecondaryIndexes {
		f.GlobalSecondaryIndexes = append(f.GlobalSecondaryIndexes, protocol.GlobalSecondaryIndexInfo{IndexName: g.IndexName,
			KeySchema: g.KeySchema, Projection: g.Projection, ProvisionedThroughput: throughputOf(g.ProvisionedThroughput),
			OnDemandThroughput: g.OnDemandThroughput})
	}
	for _, l := range m.Desc.LocalSecondaryIndexes {
		f.LocalSecondaryIndexes = append(f.LocalSecondaryIndexes, protocol.LocalSecondaryIndexInfo{IndexName: l.IndexName,
			KeySchema: l.KeySchema, Projection: l.Projection})
	}
	if c := m.TTL; c != nil && c.Enabled {
		f.TimeToLiveDescription = &protocol.TimeToLiveDescription{TimeToLiveStatus: "ENABLED", AttributeName: c.Attr}
	}
	return f
}

// DeleteBackup deletes a backup's items and record; the answer describes
// it as DELETED.
func (e *Engine) DeleteBackup(_ context.Context, in *protocol.DeleteBackupInput) (*protocol.BackupDescriptionOutput, error) {
	if err := validate.BackupArn(in.BackupArn); err != nil {
		return nil, err
	}
	m, err := e.backupByArn(*in.BackupArn)
	if err != nil {
		return nil, err
	}
	if err := e.dropBackup(m); err != nil {
		return nil, err
	}
	m.Status = "DELETED"
	return &protocol.BackupDescriptionOutput{BackupDescription: e.backupDescription(m)}, nil
}

// ListBackups lists backups, oldest first, filtered and paged.
func (e *Engine) ListBackups(_ context.Context, in *protocol.ListBackupsInput) (*protocol.ListBackupsOutput, error) {
	if err := validate.ListBackups(in); err != nil {
		return nil, err
	}
	ms, err := e.backups()
	if err != nil {
		return nil, err
	}
	byArn := map[string]*backupMeta{}
	entries := make([]backup.Entry, len(ms))
	for i, m := range ms {
		entries[i] = backup.Entry{Arn: e.backupArn(m), Table: m.Table.Desc.TableName, Created: time.UnixMilli(m.Created), Type: "USER"}
		byArn[entries[i].Arn] = m
	}
	page, more := listFilter(e, in).Page(entries)
	out := &protocol.ListBackupsOutput{BackupSummaries: []protocol.BackupSummary{}}
	for _, en := range page {
		out.BackupSummaries = append(out.BackupSummaries, e.backupSummary(byArn[en.Arn]))
	}
	if more {
		out.LastEvaluatedBackupArn = page[len(page)-1].Arn
	}
	return out, nil
}

func listFilter(e *Engine, in *protocol.ListBackupsInput) backup.Filter {
	f := backup.Filter{Lower: timeOf(in.TimeRangeLowerBound), Upper: timeOf(in.TimeRangeUpperBound)}
	if in.TableName != nil {
		f.Table = e.nameOf(*in.TableName)
	}
	if in.BackupType != nil {
		f.Type = *in.BackupType
	}
	if in.ExclusiveStartBackupArn != nil {
		f.StartAfter = *in.ExclusiveStartBackupArn
	}
	if in.Limit != nil {
		f.Limit = int(*in.Limit)
	}
	return f
}

// timeOf converts a wire time (epoch seconds) to a time, nil to nil.
func timeOf(sec *float64) *time.Time {
	if sec == nil {
		return nil
	}
	t := time.UnixMicro(int64(*sec * 1e6))
	return &t
}

func (e *Engine) backupSummary(m *backupMeta) protocol.BackupSummary {
	d := e.backupDetails(m)
	return protocol.BackupSummary{TableName: m.Table.Desc.TableName, TableId: m.Table.Desc.TableId,
		TableArn: e.tableArn(m.Table.Desc.TableName), BackupArn: d.BackupArn, BackupName: d.BackupName,
		BackupCreationDateTime: d.BackupCreationDateTime, BackupStatus: d.BackupStatus, BackupType: d.BackupType,
		BackupSizeBytes: d.BackupSizeBytes}
}

// RestoreTableFromBackup creates a new table from a backup: its keys,
// indexes, billing and encryption as they were (or as overridden), and
// its items. Tags, streams, TTL, auto scaling and point-in-time recovery
// are not restored, as DynamoDB documents.
func (e *Engine) RestoreTableFromBackup(_ context.Context, in *protocol.RestoreTableFromBackupInput) (*protocol.RestoreTableOutput, error) {
	if err := validate.RestoreTableFromBackup(in); err != nil {
		return nil, err
	}
	m, err := e.backupByArn(*in.BackupArn)
	if err != nil {
		return nil, err
	}
	create, err := restoreRequest(&m.Table, *in.TargetTableName, &in.RestoreOverrides)
	if err != nil {
		return nil, err
	}
	sum := &protocol.RestoreSummary{SourceBackupArn: e.backupArn(m), SourceTableArn: e.tableArn(m.Table.Desc.TableName),
		RestoreDateTime: epoch(time.UnixMilli(m.Created))}
	lo, hi := storage.BackupItemRange(m.Num)
	return e.restore(create, sum, func(fn func(v []byte) error) error { return e.scanValues(e.db.Scan, lo, hi, fn) })
}

// scanValues calls fn with every value in [lo, hi) of scan's store.
func (e *Engine) scanValues(scan func(lo, hi []byte, fn func(k, v []byte) bool) error, lo, hi []byte, fn func(v []byte) error) error {
	var bad error
	err := scan(lo, hi, func(_, v []byte) bool {
		bad = fn(v)
		return bad == nil
	})
	return firstErr(err, bad)
}

var _ = binary.BigEndian
