package conformance_test

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// The capacity tests of data operations are transcripts now
// (conformance/testdata/capacity/units_*.txt); what stays here are the
// helpers capacity_guide_test.go's tests check their answers with.
//
// Every expected number here comes from the Developer Guide's rules,
// written out, never from sortkey's own functions:
//
//   - a write costs 1 WCU per 1 KB started of the larger of the item before
//     and after, at least 1 ("Capacity unit consumption for write
//     operations"); a transactional write costs double ("Capacity
//     management for transactions");
//   - a read costs 1 RCU per 4 KB started, at least 1; half for an
//     eventually consistent read, double for a transactional one
//     ("Capacity unit consumption for read operations");
//   - Query and Scan sum the sizes of the items read and round once;
//   - a secondary index is charged for each entry a write puts, rewrites or
//     deletes, by the entry's projected size, and a key change is a delete
//     plus a put ("Provisioned throughput considerations" for GSIs and
//     LSIs); reads of an index are charged to it.

// cu is an expected ConsumedCapacity: the table's part and each index's
// (the GSI byG's and the LSI byL's); a zero index part is not reported, a
// zero table part is reported as 0.
type cu struct {
	table, gsi, lsi float64
}

func (c cu) total() float64 { return c.table + c.gsi + c.lsi }

// split is which of ReadCapacityUnits and WriteCapacityUnits a
// ConsumedCapacity carries beside CapacityUnits. Only transactions report
// either: the AWS CLI's examples show TransactGetItems with
// ReadCapacityUnits and TransactWriteItems with WriteCapacityUnits, and
// GetItem, PutItem, UpdateItem, DeleteItem, Query, BatchGetItem and
// BatchWriteItem (with INDEXES too) with CapacityUnits alone.
type split int

const (
	unitsOnly split = iota
	readSplit
	writeSplit
)

// checkCapacity compares a ConsumedCapacity asked for with INDEXES. The
// Table entry is always there: the AWS CLI's example of a Query on a local
// secondary index reports "Table": {"CapacityUnits": 0.0} beside the index.
func checkCapacity(t *testing.T, got *types.ConsumedCapacity, table string, sp split, want cu) {
	t.Helper()
	if got == nil {
		t.Fatal("no ConsumedCapacity")
	}
	if aws.ToString(got.TableName) != table {
		t.Errorf("TableName %q, want %q", aws.ToString(got.TableName), table)
	}
	checkUnits(t, "total", got.CapacityUnits, got.ReadCapacityUnits, got.WriteCapacityUnits, sp, want.total())
	if got.Table == nil {
		t.Errorf("no Table entry, want %v units", want.table)
	} else {
		checkPart(t, "Table", got.Table, sp, want.table)
	}
	checkIndexes(t, got.GlobalSecondaryIndexes, "byG", sp, want.gsi)
	checkIndexes(t, got.LocalSecondaryIndexes, "byL", sp, want.lsi)
}

func checkIndexes(t *testing.T, m map[string]types.Capacity, name string, sp split, want float64) {
	t.Helper()
	c, ok := m[name]
	if len(m) > 1 || ok != (want != 0) {
		t.Errorf("indexes %v, want only %s (%v units)", m, name, want)
	}
	if ok {
		checkPart(t, name, &c, sp, want)
	}
}

// checkPart checks one table or index entry.
func checkPart(t *testing.T, what string, c *types.Capacity, sp split, want float64) {
	t.Helper()
	checkUnits(t, what, c.CapacityUnits, c.ReadCapacityUnits, c.WriteCapacityUnits, sp, want)
}

// checkUnits wants the total as CapacityUnits and, as the split says, the
// same number as read or write units, and nothing of the other kind.
func checkUnits(t *testing.T, what string, total, rcu, wcu *float64, sp split, want float64) {
	t.Helper()
	same := func(p *float64, present bool) bool { return (p != nil) == present && (p == nil || *p == want) }
	if !same(total, true) || !same(rcu, sp == readSplit) || !same(wcu, sp == writeSplit) {
		t.Errorf("%s: CapacityUnits %v, read %v, write %v; want %v (split %d)", what, fl(total), fl(rcu), fl(wcu), want, sp)
	}
}

func fl(p *float64) any {
	if p == nil {
		return "absent"
	}
	return *p
}

func attrDefs(names ...string) []types.AttributeDefinition {
	var out []types.AttributeDefinition
	for _, n := range names {
		out = append(out, types.AttributeDefinition{AttributeName: aws.String(n), AttributeType: types.ScalarAttributeTypeS})
	}
	return out
}

func keySchema(hash, rng string) []types.KeySchemaElement {
	ks := []types.KeySchemaElement{{AttributeName: aws.String(hash), KeyType: types.KeyTypeHash}}
	if rng != "" {
		ks = append(ks, types.KeySchemaElement{AttributeName: aws.String(rng), KeyType: types.KeyTypeRange})
	}
	return ks
}

var indexes = types.ReturnConsumedCapacityIndexes
