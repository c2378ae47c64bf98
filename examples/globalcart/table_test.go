package globalcart

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// CreateGlobalTable leaves one table in each region, each naming the
// other as its replica.
func TestCreateGlobalTableReplicatesBothWays(t *testing.T) {
	w := newWorld(t)
	for _, c := range []struct{ region, other string }{{east, west}, {west, east}} {
		out, err := w.ClientIn(c.region).DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(table)})
		if err != nil {
			t.Fatalf("%s: %v", c.region, err)
		}
		r := out.Table.Replicas
		if len(r) != 1 || aws.ToString(r[0].RegionName) != c.other || r[0].ReplicaStatus != types.ReplicaStatusActive {
			t.Fatalf("%s's replicas: %+v, want %s ACTIVE", c.region, r, c.other)
		}
	}
}
