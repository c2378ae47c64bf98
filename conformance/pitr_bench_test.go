package conformance_test

import (
	"strconv"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/sortkeydb/sortkey/sortkeytest"
)

// BenchmarkPutItemPITR is PutItem (overwriting 1,000 items in turn) on an
// in-memory table with point-in-time recovery off and on: on adds one
// history record, the item's old version, to each write's batch.
func BenchmarkPutItemPITR(b *testing.B) {
	for _, on := range []bool{false, true} {
		b.Run("pitr="+strconv.FormatBool(on), func(b *testing.B) {
			c := sortkeytest.New(b).Client()
			createSimple(b, c, "bench")
			if on {
				_, err := c.UpdateContinuousBackups(ctx, &dynamodb.UpdateContinuousBackupsInput{TableName: aws.String("bench"),
					PointInTimeRecoverySpecification: &types.PointInTimeRecoverySpecification{PointInTimeRecoveryEnabled: aws.Bool(true)}})
				if err != nil {
					b.Fatal(err)
				}
			}
			b.ResetTimer()
			for i := range b.N {
				item := map[string]types.AttributeValue{"pk": s(strconv.Itoa(i % 1000)), "v": n(strconv.Itoa(i))}
				if _, err := c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("bench"), Item: item}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
