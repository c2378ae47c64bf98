package validate

import (
	"testing"

	"github.com/sortkeydb/sortkey/internal/apierr"
	"github.com/sortkeydb/sortkey/internal/protocol"
)

func TestOnDemandThroughput(t *testing.T) {
	provisioned := `"BillingMode":"PROVISIONED","ProvisionedThroughput":{"ReadCapacityUnits":1,"WriteCapacityUnits":1}`
	gsiCapped := `{"IndexName":"gs1","KeySchema":[{"AttributeName":"gk","KeyType":"HASH"}],"Projection":{"ProjectionType":"ALL"},"OnDemandThroughput":{"MaxReadRequestUnits":5}`
	wantMessage(t, CreateTable(patch(t, `{`+provisioned+`,"OnDemandThroughput":{"MaxReadRequestUnits":5}}`)), apierr.Validation,
		invalid+"OnDemandThroughput cannot be specified when BillingMode is PROVISIONED")
	wantMessage(t, CreateTable(patch(t, `{`+provisioned+`,`+defsWithGK+`,"GlobalSecondaryIndexes":[`+gsiCapped+`,"ProvisionedThroughput":{"ReadCapacityUnits":1,"WriteCapacityUnits":1}}]}`)), apierr.Validation,
		invalid+"OnDemandThroughput cannot be specified for index: gs1 when BillingMode is PROVISIONED")
	wantMessage(t, CreateTable(patch(t, `{"OnDemandThroughput":{"MaxWriteRequestUnits":0}}`)), apierr.Validation,
		invalid+"OnDemandThroughput MaxWriteRequestUnits must be at least 1, or -1 to remove the maximum; requested: 0")
	for _, ok := range []string{`{}`, `{"MaxReadRequestUnits":-1}`, `{"MaxReadRequestUnits":1,"MaxWriteRequestUnits":40000}`} {
		if err := CreateTable(patch(t, `{"OnDemandThroughput":`+ok+`,`+defsWithGK+`,"GlobalSecondaryIndexes":[`+gsiCapped+`}]}`)); err != nil {
			t.Errorf("OnDemandThroughput %s: %v", ok, err)
		}
	}
}

func TestWarmThroughput(t *testing.T) {
	cur := protocol.WarmThroughputDescription{ReadUnitsPerSecond: 10, WriteUnitsPerSecond: 5}
	n := func(v int64) *int64 { return &v }
	wantMessage(t, WarmThroughput(&protocol.WarmThroughput{WriteUnitsPerSecond: n(4)}, cur, "gs1"), apierr.Validation,
		invalid+"WarmThroughput WriteUnitsPerSecond for index: gs1 cannot be lower than the current 5; warm throughput can only be increased. Requested: 4")
	for _, ok := range []*protocol.WarmThroughput{nil, {}, {ReadUnitsPerSecond: n(10)}, {ReadUnitsPerSecond: n(11), WriteUnitsPerSecond: n(5)}} {
		if err := WarmThroughput(ok, cur, ""); err != nil {
			t.Errorf("%+v: %v", ok, err)
		}
	}
}
