package sortkey_test

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// The control-plane order checks are transcripts now
// (conformance/testdata/order/control_plane.txt), but for these two: a
// table that stays CREATING or UPDATING needs Options.TransientDelay,
// which the transcript runner's server does not set.

// capacity is a ProvisionedThroughput of r reads and w writes.
func capacity(r, w int64) *types.ProvisionedThroughput {
	return &types.ProvisionedThroughput{ReadCapacityUnits: aws.Int64(r), WriteCapacityUnits: aws.Int64(w)}
}

// TestUpdateTableStateBeforeStateRules: a table being updated refuses the
// request before the request is judged against the table (here, asking
// for the throughput it already has).
func TestUpdateTableStateBeforeStateRules(t *testing.T) {
	c, clock := delayed(t)
	provisionedSimple(t, c, "tbl")
	clock.Advance(transientDelay)
	if _, err := c.UpdateTable(ctx, &dynamodb.UpdateTableInput{TableName: aws.String("tbl"), ProvisionedThroughput: capacity(6, 6)}); err != nil {
		t.Fatal(err)
	}
	_, err := c.UpdateTable(ctx, &dynamodb.UpdateTableInput{TableName: aws.String("tbl"), ProvisionedThroughput: capacity(6, 6)})
	wantAPIError(t, err, "ResourceInUseException", "Attempt to change a resource which is still in use: Table is being updated: tbl")
}

// TestUpdateTimeToLiveTableStateBeforeTTLRules: a table being created
// refuses the change before TTL's own rules (disabling a TTL that is not
// enabled) are applied.
func TestUpdateTimeToLiveTableStateBeforeTTLRules(t *testing.T) {
	c, _ := delayed(t)
	createSimple(t, c, "tbl")
	_, err := c.UpdateTimeToLive(ctx, &dynamodb.UpdateTimeToLiveInput{TableName: aws.String("tbl"),
		TimeToLiveSpecification: &types.TimeToLiveSpecification{AttributeName: aws.String("exp"), Enabled: aws.Bool(false)}})
	wantAPIError(t, err, "ResourceInUseException", "Attempt to change a resource which is still in use: Table is being created: tbl")
}
