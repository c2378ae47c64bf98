package engine

import (
	"time"

	"github.com/sortkeydb/sortkey/internal/protocol"
	"github.com/sortkeydb/sortkey/internal/storage"
)

// epoch is DynamoDB's wire form of a time: seconds since 1970, with a fraction.
func epoch(t time.Time) float64 { return float64(t.UnixMilli()) / 1000 }

// throughputDesc describes provisioned throughput; on-demand tables and
// indexes report zeros, as DynamoDB does.
func throughputDesc(pt *protocol.ProvisionedThroughput) *protocol.ProvisionedThroughputDescription {
	d := &protocol.ProvisionedThroughputDescription{}
	if pt != nil && pt.ReadCapacityUnits != nil && pt.WriteCapacityUnits != nil {
		d.ReadCapacityUnits, d.WriteCapacityUnits = *pt.ReadCapacityUnits, *pt.WriteCapacityUnits
	}
	return d
}

func setBilling(d *protocol.TableDescription, mode *string, pt *protocol.ProvisionedThroughput, now float64) {
	d.ProvisionedThroughput = throughputDesc(pt)
	if mode != nil && *mode == "PAY_PER_REQUEST" {
		d.BillingModeSummary = &protocol.BillingModeSummary{BillingMode: *mode, LastUpdateToPayPerRequestDateTime: &now}
	}
}

func billingMode(d *protocol.TableDescription) string {
	if d.BillingModeSummary != nil {
		return d.BillingModeSummary.BillingMode
	}
	return "PROVISIONED"
}

// addIndexes describes the request's secondary indexes and gives each a
// storage index id (1, 2, ...; 0 is the table itself).
func (e *Engine) addIndexes(m *tableMeta, in *protocol.CreateTableInput) {
	m.Indexes = map[string]uint16{}
	for _, g := range in.GlobalSecondaryIndexes {
		m.Desc.GlobalSecondaryIndexes = append(m.Desc.GlobalSecondaryIndexes, e.gsiDesc(m, g))
	}
	for _, l := range in.LocalSecondaryIndexes {
		m.Indexes[*l.IndexName] = m.nextIndexID()
		m.Desc.LocalSecondaryIndexes = append(m.Desc.LocalSecondaryIndexes, protocol.LocalSecondaryIndexDescription{
			IndexName:  *l.IndexName,
			KeySchema:  l.KeySchema,
			Projection: l.Projection,
			IndexArn:   m.Desc.TableArn + "/index/" + *l.IndexName,
		})
	}
	for i := range in.VectorIndexes {
		m.Desc.VectorIndexes = append(m.Desc.VectorIndexes, vectorDesc(m, &in.VectorIndexes[i], "ACTIVE"))
	}
}

func (m *tableMeta) nextIndexID() uint16 {
	for _, id := range m.Indexes { // definitions written before LastIndex existed
		m.LastIndex = max(m.LastIndex, id)
	}
	m.LastIndex++
	return m.LastIndex
}

// gsiDesc describes a new GSI of m, whose billing mode is set. Its warm
// throughput was checked (indexWarm) before.
func (e *Engine) gsiDesc(m *tableMeta, g protocol.GlobalSecondaryIndex) protocol.GlobalSecondaryIndexDescription {
	m.Indexes[*g.IndexName] = m.nextIndexID()
	warm, _ := indexWarm(billingMode(&m.Desc), &g)
	return protocol.GlobalSecondaryIndexDescription{
		IndexName:             *g.IndexName,
		KeySchema:             g.KeySchema,
		Projection:            g.Projection,
		IndexStatus:           "ACTIVE",
		ProvisionedThroughput: throughputDesc(g.ProvisionedThroughput),
		OnDemandThroughput:    mergeMax(nil, g.OnDemandThroughput),
		WarmThroughput:        warm,
		IndexArn:              m.Desc.TableArn + "/index/" + *g.IndexName,
	}
}

// setStream records a stream specification. Enabling a stream starts a new
// stream, with a label from the clock, as DynamoDB's LatestStreamLabel is.
func setStream(d *protocol.TableDescription, spec *protocol.StreamSpecification, now time.Time) {
	if spec == nil || spec.StreamEnabled == nil || !*spec.StreamEnabled {
		d.StreamSpecification = nil
		return
	}
	d.StreamSpecification = &protocol.StreamSpecification{StreamEnabled: spec.StreamEnabled, StreamViewType: spec.StreamViewType}
	d.LatestStreamLabel = now.UTC().Format("2006-01-02T15:04:05.000")
	d.LatestStreamArn = d.TableArn + "/stream/" + d.LatestStreamLabel
}

// setSSE describes encryption at rest. sortkey stores data unencrypted
// whatever is asked (see docs/COMPATIBILITY.md); the description records
// the request so that applications that read it back see what they set.
func setSSE(d *protocol.TableDescription, spec *protocol.SSESpecification, region, account string) {
	if spec == nil || spec.Enabled == nil || !*spec.Enabled {
		d.SSEDescription = nil
		return
	}
	key := "arn:aws:kms:" + region + ":" + account + ":key/aws-managed-dynamodb"
	if spec.KMSMasterKeyId != nil {
		key = *spec.KMSMasterKeyId
	}
	d.SSEDescription = &protocol.SSEDescription{Status: "ENABLED", SSEType: "KMS", KMSMasterKeyArn: key}
}

func setTableClass(d *protocol.TableDescription, class *string, now float64) {
	if class != nil {
		d.TableClassSummary = &protocol.TableClassSummary{TableClass: *class, LastUpdateDateTime: &now}
	}
}

// describe returns t's description with its live item counts and sizes.
func (e *Engine) describe(t *table) *protocol.TableDescription {
	d := t.meta.Desc
	s := e.stats(t.meta.ID, 0)
	d.ItemCount, d.TableSizeBytes = s.Items, s.Bytes
	d.GlobalSecondaryIndexes = append([]protocol.GlobalSecondaryIndexDescription(nil), d.GlobalSecondaryIndexes...)
	for i := range d.GlobalSecondaryIndexes {
		g := &d.GlobalSecondaryIndexes[i]
		s := e.stats(t.meta.ID, t.meta.Indexes[g.IndexName])
		g.ItemCount, g.IndexSizeBytes = s.Items, s.Bytes
	}
	d.LocalSecondaryIndexes = append([]protocol.LocalSecondaryIndexDescription(nil), d.LocalSecondaryIndexes...)
	for i := range d.LocalSecondaryIndexes {
		l := &d.LocalSecondaryIndexes[i]
		s := e.stats(t.meta.ID, t.meta.Indexes[l.IndexName])
		l.ItemCount, l.IndexSizeBytes = s.Items, s.Bytes
	}
	d.VectorIndexes = append([]protocol.VectorIndexDescription(nil), d.VectorIndexes...)
	for i := range d.VectorIndexes {
		v := &d.VectorIndexes[i]
		s := e.stats(t.meta.ID, t.meta.Indexes[v.IndexName])
		v.ItemCount, v.IndexSizeBytes = s.Items, s.Bytes
	}
	if t.meta.Global != nil {
		e.describeReplicas(&d, t.meta.Global)
	}
	return &d
}

// stats reads a table's or index's counts; a read failure reports zeros
// rather than failing DescribeTable, whose counts DynamoDB itself only
// refreshes every few hours.
func (e *Engine) stats(id uint64, index uint16) storage.Stats {
	s, _ := e.db.ReadStats(storage.StatsKey(id, index))
	return s
}
