package engine

import (
	"github.com/sortkeydb/sortkey/internal/protocol"
	"github.com/sortkeydb/sortkey/internal/validate"
)

// Warm throughput and maximum on-demand throughput are settings DynamoDB
// stores and describes for a table and each GSI. sortkey stores and
// describes them as DynamoDB does; it throttles nothing, so neither
// changes how requests are served.
//
// Descriptions are shared with the published table (see ownedMeta), so
// these functions return new values and never change the ones given.

// The warm throughput a new on-demand table starts with, as the Developer
// Guide gives it.
const (
	onDemandWarmReads  = 12000
	onDemandWarmWrites = 4000
)

// warmDefault is the warm throughput of a table or index that did not ask
// for one: an on-demand one's documented start, and a provisioned one's
// provisioned throughput, since provisioning raises warm throughput to it
// (the documentation gives no other starting value for provisioned tables).
func warmDefault(billing string, pt *protocol.ProvisionedThroughputDescription) *protocol.WarmThroughputDescription {
	w := &protocol.WarmThroughputDescription{ReadUnitsPerSecond: onDemandWarmReads, WriteUnitsPerSecond: onDemandWarmWrites, Status: "ACTIVE"}
	if billing != "PAY_PER_REQUEST" && pt != nil {
		w.ReadUnitsPerSecond, w.WriteUnitsPerSecond = pt.ReadCapacityUnits, pt.WriteCapacityUnits
	}
	return w
}

// tableWarm is the warm throughput a new table starts with: its request's,
// over the default for what it does not name.
func tableWarm(d *protocol.TableDescription, req *protocol.WarmThroughput) (*protocol.WarmThroughputDescription, error) {
	return raiseWarm(warmDefault(billingMode(d), d.ProvisionedThroughput), req, "")
}

// indexWarm is tableWarm for a new GSI of a table billed as billing.
func indexWarm(billing string, g *protocol.GlobalSecondaryIndex) (*protocol.WarmThroughputDescription, error) {
	return raiseWarm(warmDefault(billing, throughputDesc(g.ProvisionedThroughput)), g.WarmThroughput, *g.IndexName)
}

// raiseWarm is cur with a request's warm throughput applied, refusing a
// decrease; index is "" for the table.
func raiseWarm(cur *protocol.WarmThroughputDescription, req *protocol.WarmThroughput, index string) (*protocol.WarmThroughputDescription, error) {
	if err := validate.WarmThroughput(req, *cur, index); err != nil || req == nil {
		return cur, err
	}
	next := *cur
	if req.ReadUnitsPerSecond != nil {
		next.ReadUnitsPerSecond = *req.ReadUnitsPerSecond
	}
	if req.WriteUnitsPerSecond != nil {
		next.WriteUnitsPerSecond = *req.WriteUnitsPerSecond
	}
	return &next, nil
}

// followProvisioned is warm throughput raised to provisioned throughput
// set above it, as DynamoDB raises it.
func followProvisioned(w *protocol.WarmThroughputDescription, pt *protocol.ProvisionedThroughputDescription) *protocol.WarmThroughputDescription {
	next := *w
	next.ReadUnitsPerSecond = max(next.ReadUnitsPerSecond, pt.ReadCapacityUnits)
	next.WriteUnitsPerSecond = max(next.WriteUnitsPerSecond, pt.WriteCapacityUnits)
	return &next
}

// mergeMax is a maximum on-demand throughput with a request's applied: a
// member of 1 or more sets that maximum, -1 removes it, and an absent one
// keeps it. nil is no maximum at all, which DynamoDB does not describe.
func mergeMax(cur, req *protocol.OnDemandThroughput) *protocol.OnDemandThroughput {
	if req == nil {
		return cur
	}
	var next protocol.OnDemandThroughput
	if cur != nil {
		next = *cur
	}
	next.MaxReadRequestUnits = maxUnits(next.MaxReadRequestUnits, req.MaxReadRequestUnits)
	next.MaxWriteRequestUnits = maxUnits(next.MaxWriteRequestUnits, req.MaxWriteRequestUnits)
	if next.MaxReadRequestUnits == nil && next.MaxWriteRequestUnits == nil {
		return nil
	}
	return &next
}

func maxUnits(cur, req *int64) *int64 {
	switch {
	case req == nil:
		return cur
	case *req == -1:
		return nil
	}
	n := *req
	return &n
}

// upgradeThroughput brings a definition written by an earlier sortkey up
// to date: it gives one stored before warm throughput was the values a new
// table would have, and reads a GSI maximum stored as requested (-1
// included) as a request would be read now.
func upgradeThroughput(d *protocol.TableDescription) {
	if d.WarmThroughput == nil {
		d.WarmThroughput = warmDefault(billingMode(d), d.ProvisionedThroughput)
	}
	for i := range d.GlobalSecondaryIndexes {
		g := &d.GlobalSecondaryIndexes[i]
		if g.WarmThroughput == nil {
			g.WarmThroughput = warmDefault(billingMode(d), g.ProvisionedThroughput)
		}
		g.OnDemandThroughput = mergeMax(nil, g.OnDemandThroughput)
	}
}
