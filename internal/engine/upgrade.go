package engine

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/sortkeydb/sortkey/internal/attr"
	"github.com/sortkeydb/sortkey/internal/backup"
	"github.com/sortkeydb/sortkey/internal/storage"
)

// Upgrade converts a store written before catalog format 2 (ErrUpgrade)
// to the partition order of this sortkey, table by table and backup by
// backup: first every key of it that holds a partition hash (items,
// index entries, backup copies, and the item keys inside point-in-time
// history), then its record, in the new format, last. Keys are moved in
// batches, each a move of whole keys, so a crash leaves every key in one
// layout or the other, and the next Upgrade tells them apart by which
// hash they carry and finishes the job. Open refuses the store until no
// record is left in an old format.

// UpgradeReport is what Upgrade converted.
type UpgradeReport struct {
	Tables, Backups int   // records brought to this format
	Keys            int64 // keys moved or rewritten
}

// UpgradeProgress is called after each table or backup is converted.
type UpgradeProgress func(what string, keys int64)

// errRunning refuses an upgrade of a schema a sortkey node is serving.
var errRunning = errors.New("a sortkey node is serving this schema (it holds the schema's lease): stop every node before upgrading")

// upgradeChunk is how many keys one batch moves.
const upgradeChunk = 512

// Upgrade opens the store opts names, converts it, and closes it.
func Upgrade(opts Options, progress UpgradeProgress) (UpgradeReport, error) {
	db, err := openStore(opts)
	if err != nil {
		return UpgradeReport{}, err
	}
	defer db.Close()
	if !db.Leader() {
		return UpgradeReport{}, errRunning
	}
	u := &upgrader{db: db, progress: progress}
	if err := u.each(u.table, storage.CatalogRange); err != nil {
		return u.report, err
	}
	return u.report, u.each(u.backup, storage.BackupRange)
}

type upgrader struct {
	db       *storage.DB
	progress UpgradeProgress
	report   UpgradeReport
}

// each converts, with convert, every record in the range of a format
// before this one.
func (u *upgrader) each(convert func(key, val []byte) error, bounds func() (lo, hi []byte)) error {
	keys, vals, err := u.oldRecords(bounds())
	for i := 0; err == nil && i < len(keys); i++ {
		err = convert(keys[i], vals[i])
	}
	return err
}

// oldRecords returns the records in [lo, hi) of a format before this
// one, by key.
func (u *upgrader) oldRecords(lo, hi []byte) (keys, vals [][]byte, err error) {
	var bad error
	err = u.db.Scan(lo, hi, func(k, v []byte) bool {
		var f int
		if f, bad = formatOf(v); bad == nil && f < layoutFormat {
			keys, vals = append(keys, bytes.Clone(k)), append(vals, bytes.Clone(v))
		}
		return bad == nil
	})
	return keys, vals, errors.Join(err, bad)
}

// table converts one table's keys, then rewrites its record.
func (u *upgrader) table(key, val []byte) error {
	m, err := decodeTableFrom(val, 0)
	if err != nil {
		return fmt.Errorf("table definition %q: %w", key[1:], err)
	}
	t := newTable(m, new(lifecycle), nil)
	moved, err := u.tableKeys(t)
	if err != nil {
		return fmt.Errorf("table %s: %w", m.Desc.TableName, err)
	}
	return u.finish(key, moved, m.Desc.TableName, &u.report.Tables, func() ([]byte, error) { return encodeTable(&m) })
}

// finish writes a converted record and reports it.
func (u *upgrader) finish(key []byte, moved int64, what string, count *int, encode func() ([]byte, error)) error {
	v, err := encode()
	if err != nil {
		return err
	}
	b := u.db.NewBatch()
	b.Set(key, v)
	if err := b.Commit(); err != nil {
		return err
	}
	*count++
	u.report.Keys += moved
	if u.progress != nil {
		u.progress(what, moved)
	}
	return nil
}

// tableKeys moves the table's items and each index's entries, then
// rewrites its history.
func (u *upgrader) tableKeys(t *table) (int64, error) {
	id := t.meta.ID
	total, err := u.move(storage.ItemPrefix(id, 0), storage.IndexPrefixLen, hashKinds(t.key))
	for i := 0; err == nil && i < len(t.indexes); i++ {
		ix := &t.indexes[i]
		var n int64
		n, err = u.move(storage.ItemPrefix(id, ix.id), storage.IndexPrefixLen, hashKinds(ix.key))
		total += n
	}
	if err != nil {
		return total, err
	}
	lo, hi := storage.HistoryRange(id)
	n, err := u.rewrite(lo, hi, historyRekey(hashKinds(t.key)))
	return total + n, err
}

func hashKinds(k keySchema) []attr.Kind {
	kinds := make([]attr.Kind, len(k.hashes))
	for i, a := range k.hashes {
		kinds[i] = a.kind
	}
	return kinds
}

// backup converts one backup's copies of its items, then its record.
func (u *upgrader) backup(key, val []byte) error {
	m, err := decodeBackupFrom(val, 0)
	if err != nil {
		return fmt.Errorf("backup %q: %w", key[1:], err)
	}
	t := newTable(m.Table, new(lifecycle), nil)
	lo, _ := storage.BackupItemRange(m.Num)
	moved, err := u.move(lo, len(lo), hashKinds(t.key))
	if err != nil {
		return fmt.Errorf("backup %s: %w", m.ID, err)
	}
	what := "backup " + m.Name + " of " + m.Table.Desc.TableName
	return u.finish(key, moved, what, &u.report.Backups, func() ([]byte, error) { return encodeBackup(m) })
}

// move gives every key under prefix whose partition hash (at off) is the
// old one the new one, keeping its value.
func (u *upgrader) move(prefix []byte, off int, kinds []attr.Kind) (int64, error) {
	return u.rewrite(prefix, storage.PrefixEnd(prefix), func(k, v []byte, b *storage.Batch) (bool, error) {
		nk, changed, err := rekey(k, off, kinds)
		if changed {
			b.Delete(k)
			b.Set(nk, v)
		}
		return changed, err
	})
}

// historyRekey rewrites a history record whose item key is in the old
// layout; the record keeps its own key (its number).
func historyRekey(kinds []attr.Kind) func(k, v []byte, b *storage.Batch) (bool, error) {
	return func(k, v []byte, b *storage.Batch) (bool, error) {
		r, err := backup.DecodeRecord(v)
		if err != nil {
			return false, fmt.Errorf("history record %x: %w", k, err)
		}
		nk, changed, err := rekey(r.Key, storage.IndexPrefixLen, kinds)
		if changed {
			b.Set(k, backup.AppendRecord(nil, r.At, nk, r.Old))
		}
		return changed, err
	}
}

// rewrite calls fn for the keys in [lo, hi), committing its changes
// every upgradeChunk of them. A scan stops at a full batch and the next
// starts after the last key it saw; keys moved ahead of it are met again
// and left alone, since fn sees they carry the new hash.
func (u *upgrader) rewrite(lo, hi []byte, fn func(k, v []byte, b *storage.Batch) (bool, error)) (int64, error) {
	var total int64
	for from := lo; from != nil; {
		b := u.db.NewBatch()
		n, next, err := u.chunk(from, hi, b, fn)
		if err == nil && n > 0 {
			err = b.Commit()
		} else {
			b.Discard()
		}
		if err != nil {
			return total, err
		}
		total, from = total+n, next
	}
	return total, nil
}

// chunk fills b from keys at or after from; next is where the following
// chunk starts, nil when the range is done.
func (u *upgrader) chunk(from, hi []byte, b *storage.Batch, fn func(k, v []byte, b *storage.Batch) (bool, error)) (n int64, next []byte, err error) {
	var bad error
	err = u.db.Scan(from, hi, func(k, v []byte) bool {
		changed, ferr := fn(k, v, b)
		if bad = ferr; ferr != nil {
			return false
		}
		if changed {
			n++
		}
		if n < upgradeChunk {
			return true
		}
		next = append(bytes.Clone(k), 0) // the least key after k
		return false
	})
	return n, next, errors.Join(err, bad)
}

// rekey returns key with the partition hash at off recomputed from the
// encoded partition key after it, and whether that changed it. A key
// already carrying the new hash is left alone; one carrying neither is
// refused, since moving it would be a guess.
func rekey(key []byte, off int, kinds []attr.Kind) ([]byte, bool, error) {
	if len(key) < off+8 {
		return nil, false, fmt.Errorf("key %x is too short to hold a partition hash", key)
	}
	pk, err := partitionOf(key[off+8:], kinds)
	if err != nil {
		return nil, false, fmt.Errorf("key %x: %w", key, err)
	}
	switch h := binary.BigEndian.Uint64(key[off:]); h {
	case storage.PartitionHash(pk):
		return nil, false, nil
	case storage.LegacyPartitionHash(pk):
		nk := bytes.Clone(key)
		binary.BigEndian.PutUint64(nk[off:], storage.PartitionHash(pk))
		return nk, true, nil
	}
	return nil, false, fmt.Errorf("key %x carries a partition hash of neither layout", key)
}

// partitionOf is the encoded partition key at the front of rest: one
// value of each kind, one after another.
func partitionOf(rest []byte, kinds []attr.Kind) ([]byte, error) {
	tail := rest
	for _, k := range kinds {
		var err error
		if _, tail, err = attr.DecodeKey(tail, k); err != nil {
			return nil, err
		}
	}
	return rest[:len(rest)-len(tail)], nil
}
