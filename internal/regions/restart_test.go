package regions_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/sortkeydb/sortkey"
	"github.com/sortkeydb/sortkey/internal/inproc"
)

// TestBacklogSurvivesRestart: a write still waiting for the lag when the
// server stops is sent after it starts again, though no request names
// the region it is owed to. Both regions' data live in one data
// directory.
func TestBacklogSurvivesRestart(t *testing.T) {
	dir := t.TempDir()
	open := func() *sortkey.DB {
		db, err := sortkey.Open(dir, &sortkey.Options{Regions: sortkey.RegionsSeparate, ReplicationLag: time.Hour, TTLInterval: -1})
		if err != nil {
			t.Fatal(err)
		}
		return db
	}
	db := open()
	c := regionClient(db, east)
	mustDo(t, func() error {
		_, err := c.CreateTable(ctx, &dynamodb.CreateTableInput{TableName: aws.String("orders"), BillingMode: types.BillingModePayPerRequest,
			AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS}},
			KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash}}})
		return err
	})
	mustDo(t, func() error {
		_, err := c.UpdateTable(ctx, &dynamodb.UpdateTableInput{TableName: aws.String("orders"),
			ReplicaUpdates: []types.ReplicationGroupUpdate{{Create: &types.CreateReplicationGroupMemberAction{RegionName: aws.String(west)}}}})
		return err
	})
	mustDo(t, func() error {
		_, err := regionClient(db, west).PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("orders"),
			Item: map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: "late"}}})
		return err
	})
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	db = open()
	if st, err := db.ReplicationStats(); err != nil || st.Backlog != 1 {
		t.Fatalf("after the restart: %+v %v; want us-west-2's write still owed", st, err)
	}
	// Sent at once now that the lag is none: reopen with it.
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	db, err := sortkey.Open(dir, &sortkey.Options{Regions: sortkey.RegionsSeparate, ReplicationLag: -1, TTLInterval: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.FlushReplication(ctx); err != nil {
		t.Fatal(err)
	}
	out, err := regionClient(db, east).GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("orders"), ConsistentRead: aws.Bool(true),
		Key: map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: "late"}}})
	if err != nil || out.Item == nil {
		t.Fatalf("us-east-1 after the restart: %v %v; want us-west-2's write", out, err)
	}
}

func regionClient(db *sortkey.DB, region string) *dynamodb.Client {
	return dynamodb.NewFromConfig(aws.Config{Region: region, BaseEndpoint: aws.String("http://sortkey.test"),
		HTTPClient:  &http.Client{Transport: inproc.Transport{Handler: db.Handler()}},
		Credentials: credentials.NewStaticCredentialsProvider("sortkey", "sortkey", "")})
}

func mustDo(t *testing.T, f func() error) {
	t.Helper()
	if err := f(); err != nil {
		t.Fatal(err)
	}
}
