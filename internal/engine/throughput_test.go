package engine

import (
	"testing"

	"github.com/sortkeydb/sortkey/internal/protocol"
)

// TestUpgradeThroughput reads a definition as an earlier sortkey wrote it:
// no warm throughput anywhere, a GSI maximum stored as requested.
func TestUpgradeThroughput(t *testing.T) {
	minus, five := int64(-1), int64(5)
	d := protocol.TableDescription{
		ProvisionedThroughput: &protocol.ProvisionedThroughputDescription{ReadCapacityUnits: 3, WriteCapacityUnits: 2},
		GlobalSecondaryIndexes: []protocol.GlobalSecondaryIndexDescription{
			{ProvisionedThroughput: &protocol.ProvisionedThroughputDescription{ReadCapacityUnits: 7, WriteCapacityUnits: 1}},
			{OnDemandThroughput: &protocol.OnDemandThroughput{MaxReadRequestUnits: &minus, MaxWriteRequestUnits: &five}},
			{OnDemandThroughput: &protocol.OnDemandThroughput{MaxReadRequestUnits: &minus}},
		},
	}
	upgradeThroughput(&d)
	want := protocol.WarmThroughputDescription{ReadUnitsPerSecond: 3, WriteUnitsPerSecond: 2, Status: "ACTIVE"}
	if *d.WarmThroughput != want {
		t.Errorf("table warm %+v, want %+v", *d.WarmThroughput, want)
	}
	if w := *d.GlobalSecondaryIndexes[0].WarmThroughput; w.ReadUnitsPerSecond != 7 || w.WriteUnitsPerSecond != 1 {
		t.Errorf("index warm %+v", w)
	}
	if m := d.GlobalSecondaryIndexes[1].OnDemandThroughput; m.MaxReadRequestUnits != nil || *m.MaxWriteRequestUnits != 5 {
		t.Errorf("index maximum %+v", m)
	}
	if m := d.GlobalSecondaryIndexes[2].OnDemandThroughput; m != nil {
		t.Errorf("a maximum of -1 alone is no maximum, got %+v", m)
	}
}
