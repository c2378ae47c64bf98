package validate

import (
	"testing"

	"github.com/sortkeydb/sortkey/internal/apierr"
	"github.com/sortkeydb/sortkey/internal/protocol"
)

func TestReplicaUpdates(t *testing.T) {
	for _, c := range []struct{ body, want string }{
		{`{"ReplicaUpdates":[{"Create":{"RegionName":"us-west-2"}}]}`,
			"The parameter 'TableName' is required but was not present in the request"},
		{`{"TableName":"orders","ReplicaUpdates":[{"Create":{"RegionName":"us-west-2"},"Delete":{"RegionName":"eu-west-1"}}]}`,
			"One or more parameter values were invalid: One and only one of Create, Update or Delete is required in a ReplicationGroupUpdate"},
		{`{"TableName":"orders","ReplicaUpdates":[{}]}`,
			"One or more parameter values were invalid: One and only one of Create, Update or Delete is required in a ReplicationGroupUpdate"},
		{`{"TableName":"orders","ReplicaUpdates":[{"Delete":{}}]}`,
			"One or more parameter values were invalid: RegionName is required"},
		{`{"TableName":"orders","ReplicaUpdates":[{"Update":{"RegionName":"us-west-2","TableClassOverride":"STANDARD"}}]}`,
			"ReplicaUpdates.TableClassOverride is not supported by sortkey; remove it from the request"},
		{`{"TableName":"orders","ReplicaUpdates":[{"Disassociate":{"RegionName":"us-west-2"}}]}`,
			"ReplicaUpdates.Disassociate is not supported by sortkey; remove it from the request"},
		{`{"TableName":"orders","MultiRegionConsistency":"SOMETIMES","ReplicaUpdates":[{"Create":{"RegionName":"us-west-2"}}]}`,
			"1 validation error detected: Value 'SOMETIMES' at 'multiRegionConsistency' failed to satisfy constraint: Member must satisfy enum value set: [EVENTUAL, STRONG]"},
		{`{"TableName":"orders","MultiRegionConsistency":"EVENTUAL","ReplicaUpdates":[{"Delete":{"RegionName":"us-west-2"}}]}`,
			"MultiRegionConsistency can only be set together with a replica Create in ReplicaUpdates"},
		{`{"TableName":"orders","BillingMode":"PAY_PER_REQUEST","ReplicaUpdates":[{"Create":{"RegionName":"us-west-2"}}]}`,
			"ReplicaUpdates cannot be combined with other table updates in one UpdateTable request in sortkey: send them separately"},
		{`{"TableName":"orders","GlobalTableWitnessUpdates":[{}],"ReplicaUpdates":[{"Create":{"RegionName":"us-west-2"}}]}`,
			"GlobalTableWitnessUpdates is not supported by sortkey; remove it from the request"},
	} {
		in := &protocol.UpdateTableInput{}
		decode(t, c.body, in)
		wantMessage(t, ReplicaUpdates(in), apierr.Validation, c.want)
	}
	in := &protocol.UpdateTableInput{}
	decode(t, `{"TableName":"orders","MultiRegionConsistency":"EVENTUAL","ReplicaUpdates":[{"Create":{"RegionName":"us-west-2"}},{"Delete":{"RegionName":"eu-west-1"}}]}`, in)
	if err := ReplicaUpdates(in); err != nil {
		t.Fatalf("a valid request: %v", err)
	}
}
