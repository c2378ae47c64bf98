package engine

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/sortkeydb/sortkey/internal/protocol"
)

// The catalog's stored format. A table definition (tableMeta) is stored
// through the types below, not as itself: tableMeta holds the DynamoDB wire
// struct, whose JSON names and omitempty flags follow the protocol, and a
// change there must not silently change what is on disk. The stored types
// are this file's own, with their own names; records carry their version,
// so that a later sortkey can read this one's and this one can refuse a
// later one's rather than guess at it.
//
// Records written before the format existed have no "format" key. They
// were tableMeta (and backupMeta) marshalled as they are, and are still
// read so, so that data directories of earlier versions open.

// catalogFormat is the version of catalog records and of backup records,
// which hold a table definition. Changing a stored type below changes the
// format: it takes a new version here and a decoder for the old one.
//
// Format 2 stores the same types as format 1; what changed is the layout
// of the items the record stands for: their keys order partitions by
// storage.PartitionHash (MD5) where formats 0 and 1 used FNV-1a. A record
// of an earlier format is refused (ErrUpgrade) until Upgrade rewrites its
// items and then it; a sortkey of format 1 refuses format 2 as newer, so
// no build reads the other's layout.
//
// Format 3 adds vector indexes (storedVector). Only a record that has one
// is written as format 3, so that a sortkey of format 2, which would drop
// them and stop maintaining their entries, refuses that table's record as
// newer while every other table stays readable by it.
//
// Format 4 adds a replica's replication group (storedGlobal), by the same
// rule: a sortkey of format 3 would write the table without stamping its
// items or owing other regions their changes.
const catalogFormat = 4

// layoutFormat is the oldest format of the current item layout: records
// from it on are read as they are, earlier ones need Upgrade.
const layoutFormat = 2

// formatOfTable is the format t's record is written in.
func formatOfTable(m *tableMeta) int {
	switch {
	case m.Global != nil:
		return 4
	case len(m.Desc.VectorIndexes) > 0:
		return 3
	}
	return layoutFormat
}

// ErrUpgrade is Open's refusal of a store written by an earlier sortkey:
// reading it would put items where lookups do not look.
var ErrUpgrade = errors.New(msgUpgrade)

const msgUpgrade = "the data was written by an earlier sortkey, which ordered partitions differently: " +
	"stop every sortkey that uses it, then run \"sortkey upgrade\" once with the same --data-dir or --store " +
	"(one-way: earlier sortkeys cannot read it afterwards)"

// errNewerCatalog is the refusal of a record of a later format.
var errNewerCatalog = errors.New("the catalog was written by a newer sortkey")

// tableRecord is a catalog record: a table definition with its format.
type tableRecord struct {
	Format int `json:"format"`
	storedTable
}

// backupRecord is a backup's record (backupMeta) with its format.
type backupRecord struct {
	Format  int         `json:"format"`
	ID      string      `json:"id"`
	Num     uint64      `json:"num"`
	Name    string      `json:"name"`
	Status  string      `json:"status"`
	Created int64       `json:"created"` // Unix milliseconds
	Items   int64       `json:"items"`
	Bytes   int64       `json:"bytes"`
	Table   storedTable `json:"table"`
}

// storedTable is a table definition: tableMeta's description flattened
// beside its own fields. DescribeTable's live counts (items and bytes of
// the table and of each index) are not stored: they come from the stats
// keys. Pointers are kept where the description's are, so that absent
// and empty stay apart through a round trip.
type storedTable struct {
	ID                 uint64            `json:"id"`
	Name               string            `json:"name"`
	TableID            string            `json:"tableId"`
	Arn                string            `json:"arn"`
	Status             string            `json:"status"`
	Created            float64           `json:"created"` // Unix seconds with milliseconds
	Attributes         []storedAttribute `json:"attributes"`
	Key                []storedKey       `json:"key"`
	Billing            *storedBilling    `json:"billing,omitempty"`
	Throughput         *storedThroughput `json:"throughput,omitempty"`
	OnDemand           *storedOnDemand   `json:"onDemand,omitempty"`
	Warm               *storedWarm       `json:"warm,omitempty"`
	GSIs               []storedGSI       `json:"gsis,omitempty"`
	LSIs               []storedLSI       `json:"lsis,omitempty"`
	Vectors            []storedVector    `json:"vectorIndexes,omitempty"` // format 3
	StreamSpec         *storedStreamSpec `json:"streamSpec,omitempty"`
	LatestStreamArn    string            `json:"latestStreamArn,omitempty"`
	LatestStreamLabel  string            `json:"latestStreamLabel,omitempty"`
	SSE                *storedSSE        `json:"sse,omitempty"`
	Class              *storedClass      `json:"class,omitempty"`
	Restore            *storedRestore    `json:"restore,omitempty"`
	DeletionProtection bool              `json:"deletionProtection,omitempty"`
	Tags               []storedTag       `json:"tags,omitempty"`
	IndexIDs           map[string]uint16 `json:"indexIds,omitempty"`
	LastIndexID        uint16            `json:"lastIndexId,omitempty"`
	TTL                *storedTTL        `json:"ttl,omitempty"`
	Streams            []storedStream    `json:"streams,omitempty"`
	Policy             *storedPolicy     `json:"policy,omitempty"`
	Restoring          bool              `json:"restoring,omitempty"`
	PITR               *storedPITR       `json:"pitr,omitempty"`
	Global             *storedGlobal     `json:"global,omitempty"` // format 4
}

// storedGlobal is a replica's replication group (format 4).
type storedGlobal struct {
	Regions     []string `json:"regions"`
	Consistency string   `json:"consistency"`
}

type storedAttribute struct {
	Name *string `json:"name,omitempty"`
	Type *string `json:"type,omitempty"` // S, N or B
}

type storedKey struct {
	Name *string `json:"name,omitempty"`
	Type *string `json:"type,omitempty"` // HASH or RANGE
}

type storedBilling struct {
	Mode string `json:"mode,omitempty"`
	// PayPerRequestSince is when the table last became PAY_PER_REQUEST,
	// in Unix seconds.
	PayPerRequestSince *float64 `json:"payPerRequestSince,omitempty"`
}

// storedThroughput is provisioned throughput; times are Unix seconds.
type storedThroughput struct {
	Read           int64    `json:"read"`
	Write          int64    `json:"write"`
	LastIncrease   *float64 `json:"lastIncrease,omitempty"`
	LastDecrease   *float64 `json:"lastDecrease,omitempty"`
	DecreasesToday int64    `json:"decreasesToday,omitempty"`
}

// storedOnDemand is an on-demand maximum; absent means no maximum.
type storedOnDemand struct {
	MaxRead  *int64 `json:"maxRead,omitempty"`
	MaxWrite *int64 `json:"maxWrite,omitempty"`
}

type storedWarm struct {
	Read   int64  `json:"read"`
	Write  int64  `json:"write"`
	Status string `json:"status,omitempty"`
}

type storedProjection struct {
	Type   *string  `json:"type,omitempty"`
	NonKey []string `json:"nonKey,omitempty"`
}

// storedGSI is a global secondary index; Backfilling is absent, true or
// false as DescribeTable shows it.
type storedGSI struct {
	Name        string            `json:"name"`
	Key         []storedKey       `json:"key"`
	Projection  *storedProjection `json:"projection,omitempty"`
	Status      string            `json:"status"`
	Backfilling *bool             `json:"backfilling,omitempty"`
	Throughput  *storedThroughput `json:"throughput,omitempty"`
	OnDemand    *storedOnDemand   `json:"onDemand,omitempty"`
	Warm        *storedWarm       `json:"warm,omitempty"`
	Arn         string            `json:"arn"`
}

// storedVector is a vector index (format 3).
type storedVector struct {
	Name        string            `json:"name"`
	Status      string            `json:"status"`
	Backfilling *bool             `json:"backfilling,omitempty"`
	Attribute   string            `json:"attribute"`
	Dimensions  int64             `json:"dimensions"`
	Distance    string            `json:"distance"`
	Search      []storedKey       `json:"search,omitempty"` // Type is HASH or INLINE_FILTER
	Projection  *storedProjection `json:"projection,omitempty"`
	Arn         string            `json:"arn"`
}

type storedLSI struct {
	Name       string            `json:"name"`
	Key        []storedKey       `json:"key"`
	Projection *storedProjection `json:"projection,omitempty"`
	Arn        string            `json:"arn"`
}

type storedStreamSpec struct {
	Enabled  *bool   `json:"enabled,omitempty"`
	ViewType *string `json:"viewType,omitempty"`
}

type storedSSE struct {
	Status    string `json:"status,omitempty"`
	Type      string `json:"type,omitempty"`
	KMSKeyArn string `json:"kmsKeyArn,omitempty"`
}

// storedClass is the table class; Updated is in Unix seconds.
type storedClass struct {
	Class   string   `json:"class,omitempty"`
	Updated *float64 `json:"updated,omitempty"`
}

// storedRestore says what a restored table was restored from; At is in
// Unix seconds.
type storedRestore struct {
	SourceBackupArn string  `json:"sourceBackupArn,omitempty"`
	SourceTableArn  string  `json:"sourceTableArn,omitempty"`
	At              float64 `json:"at"`
	InProgress      bool    `json:"inProgress,omitempty"`
}

type storedTag struct {
	Key   *string `json:"key,omitempty"`
	Value *string `json:"value,omitempty"`
}

type storedTTL struct {
	Attr    string `json:"attr"`
	Enabled bool   `json:"enabled"`
	Changed int64  `json:"changed"` // Unix milliseconds
}

// storedStream is one of a table's streams (streamMeta).
type storedStream struct {
	Label   string        `json:"label"`
	View    string        `json:"view"`
	Created int64         `json:"created"`          // Unix milliseconds
	Closed  int64         `json:"closed,omitempty"` // Unix milliseconds
	Start   uint64        `json:"start"`
	End     uint64        `json:"end,omitempty"`
	Stamped bool          `json:"stamped"`
	Policy  *storedPolicy `json:"policy,omitempty"`
}

// storedPolicy is a resource-based policy; the document is kept as bytes
// (base64 in JSON) so that it comes back exactly as it was put.
type storedPolicy struct {
	Doc      []byte `json:"doc"`
	Revision string `json:"revision"`
}

type storedPITR struct {
	Enabled bool  `json:"enabled"`
	Since   int64 `json:"since"`  // Unix microseconds
	Period  int64 `json:"period"` // days
}

// encodeTable is m's catalog record.
func encodeTable(m *tableMeta) ([]byte, error) {
	return json.Marshal(&tableRecord{Format: formatOfTable(m), storedTable: toStored(m)})
}

// decodeTable reads a catalog record of this format.
func decodeTable(v []byte) (tableMeta, error) { return decodeTableFrom(v, layoutFormat) }

// decodeTableFrom reads a catalog record of format oldest or later, or of
// none when oldest is 0 (Upgrade).
func decodeTableFrom(v []byte, oldest int) (tableMeta, error) {
	var rec tableRecord
	var legacy tableMeta
	current, err := decodeRecord(v, oldest, &rec, &legacy)
	switch {
	case err != nil:
		return tableMeta{}, err
	case !current:
		return legacy, nil
	}
	return fromStored(&rec.storedTable), nil
}

// encodeBackup is m's backup record.
func encodeBackup(m *backupMeta) ([]byte, error) {
	return json.Marshal(&backupRecord{Format: formatOfTable(&m.Table), ID: m.ID, Num: m.Num, Name: m.Name, Status: m.Status,
		Created: m.Created, Items: m.Items, Bytes: m.Bytes, Table: toStored(&m.Table)})
}

// decodeBackup reads a backup record of this format.
func decodeBackup(v []byte) (*backupMeta, error) { return decodeBackupFrom(v, layoutFormat) }

// decodeBackupFrom reads a backup record of format oldest or later, or
// of none when oldest is 0 (Upgrade).
func decodeBackupFrom(v []byte, oldest int) (*backupMeta, error) {
	var rec backupRecord
	legacy := new(backupMeta)
	current, err := decodeRecord(v, oldest, &rec, legacy)
	switch {
	case err != nil:
		return nil, err
	case !current:
		return legacy, nil
	}
	return &backupMeta{ID: rec.ID, Num: rec.Num, Name: rec.Name, Status: rec.Status, Created: rec.Created,
		Items: rec.Items, Bytes: rec.Bytes, Table: fromStored(&rec.Table)}, nil
}

// decodeRecord decodes v into current when it has a format, or into
// legacy when it has none, and reports which it did. A format before
// oldest is refused with ErrUpgrade.
func decodeRecord(v []byte, oldest int, current, legacy any) (bool, error) {
	format, err := formatOf(v)
	switch {
	case err != nil:
		return false, err
	case format < oldest:
		return false, ErrUpgrade
	case format == 0:
		return false, json.Unmarshal(v, legacy)
	}
	// formatOf has checked that v is one JSON value. Unknown fields are
	// refused: a later sortkey that added one without a new version would
	// otherwise lose it here at the next write.
	d := json.NewDecoder(bytes.NewReader(v))
	d.DisallowUnknownFields()
	return true, d.Decode(current)
}

// formatOf is a record's format, 0 when it has none. A format above this
// sortkey's is refused, as is one that was never written.
func formatOf(v []byte) (int, error) {
	var probe struct {
		Format *int `json:"format"`
	}
	if err := json.Unmarshal(v, &probe); err != nil {
		return 0, err
	}
	switch f := probe.Format; {
	case f == nil:
		return 0, nil
	case *f > catalogFormat:
		return 0, fmt.Errorf("%w: record format %d, this sortkey reads up to %d", errNewerCatalog, *f, catalogFormat)
	case *f < 1:
		return 0, fmt.Errorf("catalog record format %d is not one sortkey writes", *f)
	}
	return *probe.Format, nil
}

// mapSlice converts each element of in; nil stays nil.
func mapSlice[T, U any](in []T, f func(*T) U) []U {
	if in == nil {
		return nil
	}
	out := make([]U, len(in))
	for i := range in {
		out[i] = f(&in[i])
	}
	return out
}

// mapPtr converts what p points to; nil stays nil.
func mapPtr[T, U any](p *T, f func(*T) U) *U {
	if p == nil {
		return nil
	}
	u := f(p)
	return &u
}

// toStored is m in stored form.
func toStored(m *tableMeta) storedTable {
	s := storeDesc(&m.Desc)
	s.ID, s.Tags, s.IndexIDs, s.LastIndexID = m.ID, mapSlice(m.Tags, storeTag), m.Indexes, m.LastIndex
	s.TTL, s.Streams, s.Policy = mapPtr(m.TTL, storeTTL), mapSlice(m.Streams, storeStream), mapPtr(m.Policy, storePolicy)
	s.Restoring, s.PITR = m.Restoring, mapPtr(m.PITR, storePITR)
	if m.Global != nil {
		s.Global = &storedGlobal{Regions: m.Global.Regions, Consistency: m.Global.Consistency}
	}
	return s
}

// fromStored is the table definition s stores.
func fromStored(s *storedTable) tableMeta {
	m := tableMeta{ID: s.ID, Desc: s.desc(), Tags: mapSlice(s.Tags, loadTag), Indexes: s.IndexIDs,
		LastIndex: s.LastIndexID, TTL: mapPtr(s.TTL, loadTTL), Streams: mapSlice(s.Streams, loadStream),
		Policy: mapPtr(s.Policy, loadPolicy), Restoring: s.Restoring, PITR: mapPtr(s.PITR, loadPITR)}
	if s.Global != nil {
		m.Global = &globalMeta{Regions: s.Global.Regions, Consistency: s.Global.Consistency}
	}
	return m
}

// storeDesc is the stored form of a description, without the live counts.
func storeDesc(d *protocol.TableDescription) storedTable {
	return storedTable{
		Name: d.TableName, TableID: d.TableId, Arn: d.TableArn, Status: d.TableStatus, Created: d.CreationDateTime,
		Attributes: mapSlice(d.AttributeDefinitions, storeAttribute),
		Key:        mapSlice(d.KeySchema, storeKey),
		Billing:    mapPtr(d.BillingModeSummary, storeBilling),
		Throughput: mapPtr(d.ProvisionedThroughput, storeThroughput),
		OnDemand:   mapPtr(d.OnDemandThroughput, storeOnDemand),
		Warm:       mapPtr(d.WarmThroughput, storeWarm),
		GSIs:       mapSlice(d.GlobalSecondaryIndexes, storeGSI),
		LSIs:       mapSlice(d.LocalSecondaryIndexes, storeLSI),
		Vectors:    mapSlice(d.VectorIndexes, storeVector),
		StreamSpec: mapPtr(d.StreamSpecification, storeStreamSpec),
		SSE:        mapPtr(d.SSEDescription, storeSSE),
		Class:      mapPtr(d.TableClassSummary, storeClass),
		Restore:    mapPtr(d.RestoreSummary, storeRestore),

		LatestStreamArn: d.LatestStreamArn, LatestStreamLabel: d.LatestStreamLabel,
		DeletionProtection: d.DeletionProtectionEnabled,
	}
}

// desc is the description s stores, its live counts zero.
func (s *storedTable) desc() protocol.TableDescription {
	return protocol.TableDescription{
		TableName: s.Name, TableId: s.TableID, TableArn: s.Arn, TableStatus: s.Status, CreationDateTime: s.Created,
		AttributeDefinitions:   mapSlice(s.Attributes, loadAttribute),
		KeySchema:              mapSlice(s.Key, loadKey),
		BillingModeSummary:     mapPtr(s.Billing, loadBilling),
		ProvisionedThroughput:  mapPtr(s.Throughput, loadThroughput),
		OnDemandThroughput:     mapPtr(s.OnDemand, loadOnDemand),
		WarmThroughput:         mapPtr(s.Warm, loadWarm),
		GlobalSecondaryIndexes: mapSlice(s.GSIs, loadGSI),
		LocalSecondaryIndexes:  mapSlice(s.LSIs, loadLSI),
		VectorIndexes:          mapSlice(s.Vectors, loadVector),
		StreamSpecification:    mapPtr(s.StreamSpec, loadStreamSpec),
		SSEDescription:         mapPtr(s.SSE, loadSSE),
		TableClassSummary:      mapPtr(s.Class, loadClass),
		RestoreSummary:         mapPtr(s.Restore, loadRestore),

		LatestStreamArn: s.LatestStreamArn, LatestStreamLabel: s.LatestStreamLabel,
		DeletionProtectionEnabled: s.DeletionProtection,
	}
}

func storeAttribute(a *protocol.AttributeDefinition) storedAttribute {
	return storedAttribute{Name: a.AttributeName, Type: a.AttributeType}
}

func loadAttribute(a *storedAttribute) protocol.AttributeDefinition {
	return protocol.AttributeDefinition{AttributeName: a.Name, AttributeType: a.Type}
}

func storeKey(k *protocol.KeySchemaElement) storedKey {
	return storedKey{Name: k.AttributeName, Type: k.KeyType}
}

func loadKey(k *storedKey) protocol.KeySchemaElement {
	return protocol.KeySchemaElement{AttributeName: k.Name, KeyType: k.Type}
}

func storeBilling(b *protocol.BillingModeSummary) storedBilling {
	return storedBilling{Mode: b.BillingMode, PayPerRequestSince: b.LastUpdateToPayPerRequestDateTime}
}

func loadBilling(b *storedBilling) protocol.BillingModeSummary {
	return protocol.BillingModeSummary{BillingMode: b.Mode, LastUpdateToPayPerRequestDateTime: b.PayPerRequestSince}
}

func storeThroughput(p *protocol.ProvisionedThroughputDescription) storedThroughput {
	return storedThroughput{Read: p.ReadCapacityUnits, Write: p.WriteCapacityUnits, LastIncrease: p.LastIncreaseDateTime,
		LastDecrease: p.LastDecreaseDateTime, DecreasesToday: p.NumberOfDecreasesToday}
}

func loadThroughput(p *storedThroughput) protocol.ProvisionedThroughputDescription {
	return protocol.ProvisionedThroughputDescription{ReadCapacityUnits: p.Read, WriteCapacityUnits: p.Write,
		LastIncreaseDateTime: p.LastIncrease, LastDecreaseDateTime: p.LastDecrease, NumberOfDecreasesToday: p.DecreasesToday}
}

func storeOnDemand(o *protocol.OnDemandThroughput) storedOnDemand {
	return storedOnDemand{MaxRead: o.MaxReadRequestUnits, MaxWrite: o.MaxWriteRequestUnits}
}

func loadOnDemand(o *storedOnDemand) protocol.OnDemandThroughput {
	return protocol.OnDemandThroughput{MaxReadRequestUnits: o.MaxRead, MaxWriteRequestUnits: o.MaxWrite}
}

func storeWarm(w *protocol.WarmThroughputDescription) storedWarm {
	return storedWarm{Read: w.ReadUnitsPerSecond, Write: w.WriteUnitsPerSecond, Status: w.Status}
}

func loadWarm(w *storedWarm) protocol.WarmThroughputDescription {
	return protocol.WarmThroughputDescription{ReadUnitsPerSecond: w.Read, WriteUnitsPerSecond: w.Write, Status: w.Status}
}

func storeProjection(p *protocol.Projection) storedProjection {
	return storedProjection{Type: p.ProjectionType, NonKey: p.NonKeyAttributes}
}

func loadProjection(p *storedProjection) protocol.Projection {
	return protocol.Projection{ProjectionType: p.Type, NonKeyAttributes: p.NonKey}
}

func storeGSI(g *protocol.GlobalSecondaryIndexDescription) storedGSI {
	return storedGSI{Name: g.IndexName, Key: mapSlice(g.KeySchema, storeKey), Projection: mapPtr(g.Projection, storeProjection),
		Status: g.IndexStatus, Backfilling: g.Backfilling, Throughput: mapPtr(g.ProvisionedThroughput, storeThroughput),
		OnDemand: mapPtr(g.OnDemandThroughput, storeOnDemand), Warm: mapPtr(g.WarmThroughput, storeWarm), Arn: g.IndexArn}
}

func loadGSI(g *storedGSI) protocol.GlobalSecondaryIndexDescription {
	return protocol.GlobalSecondaryIndexDescription{IndexName: g.Name, KeySchema: mapSlice(g.Key, loadKey),
		Projection: mapPtr(g.Projection, loadProjection), IndexStatus: g.Status, Backfilling: loadBackfilling(g.Backfilling),
		ProvisionedThroughput: mapPtr(g.Throughput, loadThroughput), OnDemandThroughput: mapPtr(g.OnDemand, loadOnDemand),
		WarmThroughput: mapPtr(g.Warm, loadWarm), IndexArn: g.Arn}
}

// loadBackfilling drops a stored false: catalogs written before facts 16.1
// kept Backfilling false on ACTIVE indexes, which DynamoDB never shows.
func loadBackfilling(b *bool) *bool {
	if b == nil || !*b {
		return nil
	}
	return b
}

func storeLSI(l *protocol.LocalSecondaryIndexDescription) storedLSI {
	return storedLSI{Name: l.IndexName, Key: mapSlice(l.KeySchema, storeKey), Projection: mapPtr(l.Projection, storeProjection),
		Arn: l.IndexArn}
}

func loadLSI(l *storedLSI) protocol.LocalSecondaryIndexDescription {
	return protocol.LocalSecondaryIndexDescription{IndexName: l.Name, KeySchema: mapSlice(l.Key, loadKey),
		Projection: mapPtr(l.Projection, loadProjection), IndexArn: l.Arn}
}

func storeStreamSpec(s *protocol.StreamSpecification) storedStreamSpec {
	return storedStreamSpec{Enabled: s.StreamEnabled, ViewType: s.StreamViewType}
}

func loadStreamSpec(s *storedStreamSpec) protocol.StreamSpecification {
	return protocol.StreamSpecification{StreamEnabled: s.Enabled, StreamViewType: s.ViewType}
}

func storeSSE(s *protocol.SSEDescription) storedSSE {
	return storedSSE{Status: s.Status, Type: s.SSEType, KMSKeyArn: s.KMSMasterKeyArn}
}

func loadSSE(s *storedSSE) protocol.SSEDescription {
	return protocol.SSEDescription{Status: s.Status, SSEType: s.Type, KMSMasterKeyArn: s.KMSKeyArn}
}

func storeClass(c *protocol.TableClassSummary) storedClass {
	return storedClass{Class: c.TableClass, Updated: c.LastUpdateDateTime}
}

func loadClass(c *storedClass) protocol.TableClassSummary {
	return protocol.TableClassSummary{TableClass: c.Class, LastUpdateDateTime: c.Updated}
}

func storeRestore(r *protocol.RestoreSummary) storedRestore {
	return storedRestore{SourceBackupArn: r.SourceBackupArn, SourceTableArn: r.SourceTableArn, At: r.RestoreDateTime,
		InProgress: r.RestoreInProgress}
}

func loadRestore(r *storedRestore) protocol.RestoreSummary {
	return protocol.RestoreSummary{SourceBackupArn: r.SourceBackupArn, SourceTableArn: r.SourceTableArn,
		RestoreDateTime: r.At, RestoreInProgress: r.InProgress}
}

func storeTag(t *protocol.Tag) storedTag { return storedTag{Key: t.Key, Value: t.Value} }

func loadTag(t *storedTag) protocol.Tag { return protocol.Tag{Key: t.Key, Value: t.Value} }

func storeTTL(c *ttlConfig) storedTTL {
	return storedTTL{Attr: c.Attr, Enabled: c.Enabled, Changed: c.Changed}
}

func loadTTL(c *storedTTL) ttlConfig {
	return ttlConfig{Attr: c.Attr, Enabled: c.Enabled, Changed: c.Changed}
}

func storeStream(s *streamMeta) storedStream {
	return storedStream{Label: s.Label, View: s.View, Created: s.Created, Closed: s.Closed, Start: s.Start, End: s.End,
		Stamped: s.Stamped, Policy: mapPtr(s.Policy, storePolicy)}
}

func loadStream(s *storedStream) streamMeta {
	return streamMeta{Label: s.Label, View: s.View, Created: s.Created, Closed: s.Closed, Start: s.Start, End: s.End,
		Stamped: s.Stamped, Policy: mapPtr(s.Policy, loadPolicy)}
}

func storePolicy(p *policyMeta) storedPolicy { return storedPolicy{Doc: p.Doc, Revision: p.Revision} }

func loadPolicy(p *storedPolicy) policyMeta { return policyMeta{Doc: p.Doc, Revision: p.Revision} }

func storePITR(p *pitrMeta) storedPITR {
	return storedPITR{Enabled: p.Enabled, Since: p.Since, Period: p.Period}
}

func loadPITR(p *storedPITR) pitrMeta {
	return pitrMeta{Enabled: p.Enabled, Since: p.Since, Period: p.Period}
}

func storeVector(v *protocol.VectorIndexDescription) storedVector {
	return storedVector{Name: v.IndexName, Status: v.IndexStatus, Backfilling: v.Backfilling,
		Attribute: *v.VectorAttribute.AttributeName, Dimensions: v.Dimensions, Distance: v.DistanceFunction,
		Search: mapSlice(v.SearchSchema, storeSearch), Projection: mapPtr(v.Projection, storeProjection), Arn: v.IndexArn}
}

func loadVector(v *storedVector) protocol.VectorIndexDescription {
	return protocol.VectorIndexDescription{IndexName: v.Name, IndexStatus: v.Status, Backfilling: loadBackfilling(v.Backfilling),
		VectorAttribute: protocol.VectorAttribute{AttributeName: &v.Attribute}, Dimensions: v.Dimensions,
		DistanceFunction: v.Distance, SearchSchema: mapSlice(v.Search, loadSearch),
		Projection: mapPtr(v.Projection, loadProjection), IndexArn: v.Arn}
}

func storeSearch(e *protocol.SearchSchemaItem) storedKey {
	return storedKey{Name: e.AttributeName, Type: e.SearchSchemaElementType}
}

func loadSearch(k *storedKey) protocol.SearchSchemaItem {
	return protocol.SearchSchemaItem{AttributeName: k.Name, SearchSchemaElementType: k.Type}
}
