package capacity

import (
	"context"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/sortkeydb/sortkey/sortkeytest"
)

// TestMeterAddsWhatEachCallConsumed: a write of a small item is one unit,
// an eventually consistent read of it half of one, a strongly consistent
// one a whole one, and Take starts the count again. The caller asked for
// no capacity: the meter does.
func TestMeterAddsWhatEachCallConsumed(t *testing.T) {
	ctx := context.Background()
	db, meter := Metered(sortkeytest.New(t).Client())
	_, err := db.CreateTable(ctx, &dynamodb.CreateTableInput{TableName: aws.String("tbl"),
		BillingMode:          types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("pk"), AttributeType: "S"}},
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash}}})
	if err != nil {
		t.Fatal(err)
	}
	key := map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: "a"}}
	if _, err := db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("tbl"), Item: key}); err != nil {
		t.Fatal(err)
	}
	if got := meter.Take(); got != 1 {
		t.Fatalf("PutItem: %v units, want 1", got)
	}
	for _, consistent := range []bool{false, true} {
		if _, err := db.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("tbl"), Key: key, ConsistentRead: aws.Bool(consistent)}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := db.ExecuteStatement(ctx, &dynamodb.ExecuteStatementInput{Statement: aws.String(`SELECT * FROM "tbl" WHERE pk = 'a'`)}); err != nil {
		t.Fatal(err)
	}
	if got := meter.Take(); got != 0.5+1+0.5 {
		t.Fatalf("two GetItems and a SELECT: %v units, want 2", got)
	}
	if got := meter.Take(); got != 0 {
		t.Fatalf("after Take: %v units", got)
	}
}
