package conformance_test

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// warm and maxes build the request shapes; nil leaves a member out.
func warm(r, w *int64) *types.WarmThroughput {
	return &types.WarmThroughput{ReadUnitsPerSecond: r, WriteUnitsPerSecond: w}
}

func maxes(r, w *int64) *types.OnDemandThroughput {
	return &types.OnDemandThroughput{MaxReadRequestUnits: r, MaxWriteRequestUnits: w}
}

// throughput is what a description says of one table or index.
type throughput struct {
	warmRead, warmWrite int64
	maxRead, maxWrite   *int64
}

func tableThroughput(d *types.TableDescription) throughput {
	return describedThroughput(d.WarmThroughput.ReadUnitsPerSecond, d.WarmThroughput.WriteUnitsPerSecond, d.WarmThroughput.Status == types.TableStatusActive, d.OnDemandThroughput)
}

func indexThroughput(g types.GlobalSecondaryIndexDescription) throughput {
	return describedThroughput(g.WarmThroughput.ReadUnitsPerSecond, g.WarmThroughput.WriteUnitsPerSecond, g.WarmThroughput.Status == types.IndexStatusActive, g.OnDemandThroughput)
}

func describedThroughput(r, w *int64, active bool, odt *types.OnDemandThroughput) throughput {
	got := throughput{warmRead: aws.ToInt64(r), warmWrite: aws.ToInt64(w)}
	if !active {
		got.warmRead = -1 // shows in the comparison
	}
	if odt != nil {
		got.maxRead, got.maxWrite = odt.MaxReadRequestUnits, odt.MaxWriteRequestUnits
		if odt.MaxReadRequestUnits == nil && odt.MaxWriteRequestUnits == nil {
			got.maxRead = aws.Int64(0) // an empty description shows too
		}
	}
	return got
}

func wantThroughput(t *testing.T, what string, got, want throughput) {
	t.Helper()
	if got.warmRead != want.warmRead || got.warmWrite != want.warmWrite ||
		aws.ToInt64(got.maxRead) != aws.ToInt64(want.maxRead) || aws.ToInt64(got.maxWrite) != aws.ToInt64(want.maxWrite) ||
		(got.maxRead == nil) != (want.maxRead == nil) || (got.maxWrite == nil) != (want.maxWrite == nil) {
		t.Errorf("%s: warm %d/%d, max %v/%v; want warm %d/%d, max %v/%v", what,
			got.warmRead, got.warmWrite, fmtUnits(got.maxRead), fmtUnits(got.maxWrite),
			want.warmRead, want.warmWrite, fmtUnits(want.maxRead), fmtUnits(want.maxWrite))
	}
}

func fmtUnits(n *int64) any {
	if n == nil {
		return "none"
	}
	return *n
}

// createCapped creates an on-demand table with warm throughput and a
// maximum on both the table and its GSI, each naming one member only.
func createCapped(t *testing.T, c *dynamodb.Client) *types.TableDescription {
	t.Helper()
	out, err := c.CreateTable(ctx, &dynamodb.CreateTableInput{
		TableName: aws.String("capped"),
		AttributeDefinitions: []types.AttributeDefinition{
			{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS},
			{AttributeName: aws.String("gk"), AttributeType: types.ScalarAttributeTypeS},
		},
		KeySchema:          []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash}},
		BillingMode:        types.BillingModePayPerRequest,
		WarmThroughput:     warm(aws.Int64(15000), aws.Int64(5000)),
		OnDemandThroughput: maxes(aws.Int64(100), nil),
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{{
			IndexName:          aws.String("byG"),
			KeySchema:          []types.KeySchemaElement{{AttributeName: aws.String("gk"), KeyType: types.KeyTypeHash}},
			Projection:         &types.Projection{ProjectionType: types.ProjectionTypeAll},
			WarmThroughput:     warm(aws.Int64(13000), nil),
			OnDemandThroughput: maxes(nil, aws.Int64(50)),
		}},
	})
	if err != nil {
		t.Fatal(err)
	}
	return out.TableDescription
}

func describe(t *testing.T, c *dynamodb.Client, name string) *types.TableDescription {
	t.Helper()
	out, err := c.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(name)})
	if err != nil {
		t.Fatal(err)
	}
	return out.Table
}

func TestWarmAndOnDemandThroughputSurviveRestart(t *testing.T) {
	dir := t.TempDir()
	c, stop := serveDir(t, dir)
	createCapped(t, c)
	before := describe(t, c, "capped")
	stop()
	c, stop = serveDir(t, dir)
	defer stop()
	after := describe(t, c, "capped")
	wantThroughput(t, "table after restart", tableThroughput(after), tableThroughput(before))
	wantThroughput(t, "index after restart", indexThroughput(after.GlobalSecondaryIndexes[0]), indexThroughput(before.GlobalSecondaryIndexes[0]))
}
