package validate

import (
	"testing"

	"github.com/sortkeydb/sortkey/internal/apierr"
	"github.com/sortkeydb/sortkey/internal/protocol"
)

func TestRefusedMembers(t *testing.T) {
	// A refused member is reported by name, after the model checks and
	// before the semantic rules.
	wantMessage(t, CreateTable(patch(t, `{"GlobalTableSourceArn":"arn"}`)), apierr.Validation,
		"GlobalTableSourceArn is not supported by sortkey; remove it from the request")
	wantMessage(t, CreateTable(patch(t, `{"TableName":"a","VectorIndexes":[]}`)), apierr.Validation,
		"1 validation error detected: Value 'a' at 'tableName' failed to satisfy constraint: Member must have length greater than or equal to 3")
	wantMessage(t, CreateTable(patch(t, `{"KeySchema":[{"AttributeName":"pk","KeyType":"RANGE"}],"GlobalTableSourceArn":"arn"}`)), apierr.Validation,
		"GlobalTableSourceArn is not supported by sortkey; remove it from the request")
	// The first one set is reported; null is no value.
	up := &protocol.UpdateTableInput{}
	decode(t, `{"TableName":"tbl","ReplicaUpdates":null,"GlobalTableWitnessUpdates":[{}],"VectorIndexUpdates":[{}]}`, up)
	wantMessage(t, UpdateTable(up), apierr.Validation, "GlobalTableWitnessUpdates is not supported by sortkey; remove it from the request")
	// An engine asked for replicas directly has no other region.
	up = &protocol.UpdateTableInput{}
	decode(t, `{"TableName":"tbl","ReplicaUpdates":[{"Create":{"RegionName":"us-west-2"}}]}`, up)
	wantMessage(t, UpdateTable(up), apierr.Validation, "ReplicaUpdates needs regions kept apart: start sortkey with --regions separate (docs/GLOBAL-TABLES.md)")
	if err := Refused(patch(t, `{"GlobalTableSourceArn":null}`)); err != nil {
		t.Fatalf("null member refused: %v", err)
	}
	if err := Refused(&protocol.GetItemInput{}); err != nil {
		t.Fatalf("an input without refused members: %v", err)
	}
}
