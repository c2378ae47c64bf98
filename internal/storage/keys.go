package storage

import (
	"crypto/md5"
	"encoding/binary"
	"hash/fnv"
)

// The key space. One byte says what a key holds; everything of one table
// shares a prefix, so deleting a table is one range deletion.
//
//	catalog:  'c' | table name                    -> table definition (versioned JSON, engine/catalogformat.go)
//	sequence: 's'                                 -> last table id issued
//	stats:    't' | table id | index id           -> item count and bytes (merged)
//	          't' | table id | 0xFFFF | pk        -> item collection size (merged)
//	item:     'i' | table id | index id | hash(pk) | pk | sk -> item
//	record:   'i' | table id | 0xFFFF | seq         -> stream record
//	history:  'i' | table id | 0xFFFE | seq         -> an item's version before a change (PITR)
//	token:    'x' | client request token          -> a transaction's fingerprint and time
//	backup:   'j' | backup id                     -> a backup's description and table definition
//	          'k' | backup number | hash(pk) | pk | sk -> an item as it was at the backup
//	health:   'h' process(8) probe(8)             -> a health probe's number, deleted once read back (probe.go)
//	clock:    'v'                                 -> the virtual clock's time, RFC 3339 (engine/vclock.go)
//	graphs:   'g'                                 -> the vector graph files a clean close saved (engine/graphsave.go)
//
// The partition key's hash comes first so that a Scan returns partitions in
// hash order, as DynamoDB does, and a parallel-scan segment is a contiguous
// range of hashes. pk and sk are in attr's order-preserving key encoding, so
// a partition's items iterate in sort-key order. A GSI with multi-attribute
// keys puts its HASH values' encodings one after another as pk (so the hash
// covers them together) and its RANGE values' as sk: each encoding ends
// itself, so the concatenation orders as the values compared in turn.
const (
	prefixCatalog  = 'c'
	prefixSequence = 's'
	prefixStats    = 't'
	prefixItem     = 'i'
	prefixToken    = 'x'
	prefixBackup   = 'j'
	prefixBackItem = 'k'
	prefixClock    = 'v'
	prefixGraphs   = 'g'
)

// GraphsKey lists the vector graph files the last clean close wrote.
// Open deletes it before any write, so it exists only while nothing was
// written since those files.
func GraphsKey() []byte { return []byte{prefixGraphs} }

// ClockKey holds the time a virtual clock last reached, so that a server
// restarted on the same data resumes it there.
func ClockKey() []byte { return []byte{prefixClock} }

// BackupKey is the key of a backup's record.
func BackupKey(id string) []byte { return append([]byte{prefixBackup}, id...) }

// BackupRange bounds every backup record.
func BackupRange() (lo, hi []byte) { return []byte{prefixBackup}, []byte{prefixBackup + 1} }

// BackupItemRange bounds the items of backup number n; an item's key
// within it is the table item key's part after ItemPrefix.
func BackupItemRange(n uint64) (lo, hi []byte) {
	lo = binary.BigEndian.AppendUint64([]byte{prefixBackItem}, n)
	hi = binary.BigEndian.AppendUint64([]byte{prefixBackItem}, n+1)
	return lo, hi
}

// historyIndex marks a table's retained item versions (point-in-time
// recovery) within its item range, so DeleteTable's range deletion takes
// them too; index ids never reach it.
const historyIndex = 0xFFFE

// HistoryKey is the key of a table's history record number seq.
func HistoryKey(table uint64, seq uint64) []byte {
	return binary.BigEndian.AppendUint64(ItemPrefix(table, historyIndex), seq)
}

// HistoryRange bounds every history record of a table.
func HistoryRange(table uint64) (lo, hi []byte) {
	lo = ItemPrefix(table, historyIndex)
	return lo, PrefixEnd(lo)
}

// TokenKey records a TransactWriteItems ClientRequestToken.
func TokenKey(token string) []byte { return append([]byte{prefixToken}, token...) }

// CatalogKey is the key of a table's definition.
func CatalogKey(name string) []byte { return append([]byte{prefixCatalog}, name...) }

// CatalogRange bounds every catalog key.
func CatalogRange() (lo, hi []byte) { return []byte{prefixCatalog}, []byte{prefixCatalog + 1} }

// SequenceKey holds the last table id issued.
func SequenceKey() []byte { return []byte{prefixSequence} }

// StatsKey holds a table's (or an index's) item count and size.
func StatsKey(table uint64, index uint16) []byte {
	k := binary.BigEndian.AppendUint64([]byte{prefixStats}, table)
	return binary.BigEndian.AppendUint16(k, index)
}

// collectionIndex marks a stats key that holds one item collection's size;
// index ids never reach it.
const collectionIndex = 0xFFFF

// CollectionKey holds the size of the item collection of partition key pk
// (encoded) in a table with local secondary indexes.
func CollectionKey(table uint64, pk []byte) []byte {
	return append(StatsKey(table, collectionIndex), pk...)
}

// floorIndex marks, within a table's item range, the last number a trim
// deleted of its stream records and of its history records, which a
// shared store's writers number after when none is left (engine's
// lockLast).
const floorIndex = 0xFFFD

// RecordFloorKey and HistoryFloorKey are where a trim leaves those
// numbers: 8 bytes, big-endian.
func RecordFloorKey(table uint64) []byte {
	return binary.BigEndian.AppendUint16(ItemPrefix(table, floorIndex), streamIndex)
}

func HistoryFloorKey(table uint64) []byte {
	return binary.BigEndian.AppendUint16(ItemPrefix(table, floorIndex), historyIndex)
}

// stampIndex and outboxIndex mark, within a replica's item range, each
// item's last write stamp (who wrote it when, which decides between
// replicas) and the changes still to be sent to other regions; index ids
// never reach them.
const (
	stampIndex  = 0xFFFC
	outboxIndex = 0xFFFB
)

// StampKey is where a replica keeps the stamp of the item whose key is
// item (a table item key of any table).
func StampKey(table uint64, item []byte) []byte {
	return append(ItemPrefix(table, stampIndex), item[IndexPrefixLen:]...)
}

// OutboxPrefix bounds a replica's changes still to be sent to region.
func OutboxPrefix(table uint64, region string) []byte {
	return append(append(ItemPrefix(table, outboxIndex), region...), 0)
}

// OutboxRange bounds every change a replica has still to send.
func OutboxRange(table uint64) (lo, hi []byte) {
	lo = ItemPrefix(table, outboxIndex)
	return lo, PrefixEnd(lo)
}

// streamIndex marks a table's stream records within its item range, so
// DeleteTable's range deletion takes them too; index ids never reach it.
const streamIndex = 0xFFFF

// RecordKey is the key of a table's stream record number seq.
func RecordKey(table uint64, seq uint64) []byte {
	return binary.BigEndian.AppendUint64(ItemPrefix(table, streamIndex), seq)
}

// RecordRange bounds every stream record of a table.
func RecordRange(table uint64) (lo, hi []byte) {
	lo = ItemPrefix(table, streamIndex)
	return lo, PrefixEnd(lo)
}

// RecordSeq is the sequence number of a record key.
func RecordSeq(key []byte) uint64 { return binary.BigEndian.Uint64(key[len(key)-8:]) }

// ItemPrefix is the prefix of every item of a table's index (0 is the table).
func ItemPrefix(table uint64, index uint16) []byte {
	k := binary.BigEndian.AppendUint64([]byte{prefixItem}, table)
	return binary.BigEndian.AppendUint16(k, index)
}

// IndexPrefixLen is the length of ItemPrefix: the part of an item's or
// index entry's key that names its table and index.
const IndexPrefixLen = 1 + 8 + 2

// PartitionPrefixLen is the length of ItemPrefix and a partition key's
// hash: every item of one partition shares it.
const PartitionPrefixLen = IndexPrefixLen + 8

// IsEntryKey reports whether key holds an item or an index entry, not a
// stream record or anything else.
func IsEntryKey(key []byte) bool {
	if len(key) <= IndexPrefixLen || key[0] != prefixItem {
		return false
	}
	ix := binary.BigEndian.Uint16(key[IndexPrefixLen-2:])
	return ix != streamIndex && ix != historyIndex && ix != stampIndex && ix != outboxIndex
}

// TableRange bounds every item and index entry of a table.
func TableRange(table uint64) (lo, hi []byte) {
	lo = binary.BigEndian.AppendUint64([]byte{prefixItem}, table)
	hi = binary.BigEndian.AppendUint64([]byte{prefixItem}, table+1)
	return lo, hi
}

// StatsRange bounds every stats key of a table.
func StatsRange(table uint64) (lo, hi []byte) {
	lo = binary.BigEndian.AppendUint64([]byte{prefixStats}, table)
	hi = binary.BigEndian.AppendUint64([]byte{prefixStats}, table+1)
	return lo, hi
}

// ItemKey appends an item's key: prefix, the hash of the encoded partition
// key, then the encoded partition and sort keys (sk may be empty).
func ItemKey(prefix, pk, sk []byte) []byte {
	k := make([]byte, 0, len(prefix)+8+len(pk)+len(sk))
	k = append(k, prefix...)
	k = binary.BigEndian.AppendUint64(k, PartitionHash(pk))
	k = append(k, pk...)
	return append(k, sk...)
}

// AppendItemKey appends to dst what ItemKey(ItemPrefix(table, index), pk,
// nil) returns, for callers that build a key in one buffer.
func AppendItemKey(dst []byte, table uint64, index uint16, pk []byte) []byte {
	dst = binary.BigEndian.AppendUint64(append(dst, prefixItem), table)
	dst = binary.BigEndian.AppendUint16(dst, index)
	dst = binary.BigEndian.AppendUint64(dst, PartitionHash(pk))
	return append(dst, pk...)
}

// PartitionHash is the first 8 bytes, big-endian, of the MD5 of the
// encoded partition key. DynamoDB's Scan returns partitions in an order
// of its own hash (facts file, fact 12); MD5 matches what was observed
// of it, spreads partitions evenly over parallel-scan segments, and is
// the same on every release and platform, which on-disk order requires.
// Stores written before catalog format 2 used LegacyPartitionHash and
// are converted by the engine's Upgrade.
func PartitionHash(pk []byte) uint64 {
	sum := md5.Sum(pk)
	return binary.BigEndian.Uint64(sum[:8])
}

// LegacyPartitionHash is FNV-1a over the encoded partition key: the
// order of stores written before catalog format 2, kept for Upgrade.
func LegacyPartitionHash(pk []byte) uint64 {
	h := fnv.New64a()
	h.Write(pk)
	return h.Sum64()
}

// PrefixEnd returns the smallest key greater than every key that starts
// with p, or nil (no upper bound) when p is all 0xFF.
func PrefixEnd(p []byte) []byte {
	end := append([]byte(nil), p...)
	for i := len(end) - 1; i >= 0; i-- {
		if end[i] != 0xFF {
			end[i]++
			return end[:i+1]
		}
	}
	return nil
}
