package sortkey_test

import (
	"slices"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/sortkeydb/sortkey"
	"github.com/sortkeydb/sortkey/sortkeytest"
)

// transientDelay is the delay the life-cycle tests run with; the clock
// they inject is moved past it by hand, so nothing waits for it.
const transientDelay = 5 * time.Second

func delayed(t *testing.T) (*dynamodb.Client, *testClock) {
	t.Helper()
	clock := newClock()
	srv := sortkeytest.NewWithOptions(t, &sortkey.Options{Now: clock.Now, TransientDelay: transientDelay})
	return srv.Client(), clock
}

func tableStatus(t *testing.T, c *dynamodb.Client, name string) *types.TableDescription {
	t.Helper()
	out, err := c.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(name)})
	if err != nil {
		t.Fatalf("DescribeTable %s: %v", name, err)
	}
	return out.Table
}

func wantTableStatus(t *testing.T, c *dynamodb.Client, name string, want types.TableStatus) {
	t.Helper()
	if got := tableStatus(t, c, name).TableStatus; got != want {
		t.Fatalf("table %s is %s, want %s", name, got, want)
	}
}

func onDemand(t *testing.T, c *dynamodb.Client, name string) error {
	t.Helper()
	_, err := c.UpdateTable(ctx, &dynamodb.UpdateTableInput{TableName: aws.String(name), BillingMode: types.BillingModePayPerRequest})
	return err
}

func provisionedSimple(t *testing.T, c *dynamodb.Client, name string) {
	t.Helper()
	_, err := c.CreateTable(ctx, &dynamodb.CreateTableInput{TableName: aws.String(name),
		AttributeDefinitions:  []types.AttributeDefinition{{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS}},
		KeySchema:             []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash}},
		ProvisionedThroughput: &types.ProvisionedThroughput{ReadCapacityUnits: aws.Int64(5), WriteCapacityUnits: aws.Int64(5)}})
	if err != nil {
		t.Fatal(err)
	}
}

// TestWithoutTransientDelayChangesAreCompleteAtOnce: the default, as
// DynamoDB Local's: the responses say CREATING, UPDATING and DELETING,
// and the next request sees the change complete.
func TestWithoutTransientDelayChangesAreCompleteAtOnce(t *testing.T) {
	c := sortkeytest.New(t).Client()
	createMusic(t, c, "Music")
	wantTableStatus(t, c, "Music", types.TableStatusActive)
	if err := put(c, "Music", avMap{"Artist": s("a"), "SongTitle": s("b")}); err != nil {
		t.Fatal(err)
	}
	provisionedSimple(t, c, "tbl")
	if err := onDemand(t, c, "tbl"); err != nil {
		t.Fatal(err)
	}
	wantTableStatus(t, c, "tbl", types.TableStatusActive)
	if _, err := c.DeleteTable(ctx, &dynamodb.DeleteTableInput{TableName: aws.String("tbl")}); err != nil {
		t.Fatal(err)
	}
	_, err := c.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String("tbl")})
	wantAPIError(t, err, "ResourceNotFoundException", "Requested resource not found: Table: tbl not found")
}

// TestTableBeingCreatedIsCreatingForTheDelay: DescribeTable says CREATING
// (its GSIs too, without Backfilling), item requests are answered as if
// the table did not exist yet, and changing or deleting it is refused as
// DynamoDB refuses it, until the delay has passed.
func TestTableBeingCreatedIsCreatingForTheDelay(t *testing.T) {
	c, clock := delayed(t)
	createMusic(t, c, "Music")
	d := tableStatus(t, c, "Music")
	if d.TableStatus != types.TableStatusCreating || d.GlobalSecondaryIndexes[0].IndexStatus != types.IndexStatusCreating || d.GlobalSecondaryIndexes[0].Backfilling != nil {
		t.Fatalf("new table %s, GSI %s backfilling %v; want CREATING, CREATING, none", d.TableStatus, d.GlobalSecondaryIndexes[0].IndexStatus, d.GlobalSecondaryIndexes[0].Backfilling)
	}
	item := avMap{"Artist": s("a"), "SongTitle": s("b")}
	wantAPIError(t, put(c, "Music", item), "ResourceNotFoundException", "Requested resource not found")
	_, err := c.Query(ctx, &dynamodb.QueryInput{TableName: aws.String("Music"), KeyConditionExpression: aws.String("Artist = :a"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":a": s("a")}})
	wantAPIError(t, err, "ResourceNotFoundException", "Requested resource not found")
	wantAPIError(t, onDemand(t, c, "Music"), "ResourceInUseException", "Attempt to change a resource which is still in use: Table is being created: Music")
	_, err = c.DeleteTable(ctx, &dynamodb.DeleteTableInput{TableName: aws.String("Music")})
	wantAPIError(t, err, "ResourceInUseException", "Attempt to change a resource which is still in use: Table is being created: Music")
	clock.Advance(transientDelay)
	if d := tableStatus(t, c, "Music"); d.TableStatus != types.TableStatusActive || d.GlobalSecondaryIndexes[0].IndexStatus != types.IndexStatusActive {
		t.Fatalf("after the delay: table %s, GSI %s; want ACTIVE", d.TableStatus, d.GlobalSecondaryIndexes[0].IndexStatus)
	}
	if err := put(c, "Music", item); err != nil {
		t.Fatal(err)
	}
}

// TestTableBeingUpdatedIsUpdatingForTheDelay: items are read and written
// as usual, but another UpdateTable, an UpdateTimeToLive and a DeleteTable
// are refused until the delay has passed.
func TestTableBeingUpdatedIsUpdatingForTheDelay(t *testing.T) {
	c, clock := delayed(t)
	provisionedSimple(t, c, "tbl")
	clock.Advance(transientDelay)
	if err := onDemand(t, c, "tbl"); err != nil {
		t.Fatal(err)
	}
	wantTableStatus(t, c, "tbl", types.TableStatusUpdating)
	if err := put(c, "tbl", pk("a")); err != nil {
		t.Fatalf("PutItem on an UPDATING table: %v", err)
	}
	busy := "Attempt to change a resource which is still in use: Table is being updated: tbl"
	_, err := c.UpdateTable(ctx, &dynamodb.UpdateTableInput{TableName: aws.String("tbl"), DeletionProtectionEnabled: aws.Bool(true)})
	wantAPIError(t, err, "ResourceInUseException", busy)
	_, err = c.UpdateTimeToLive(ctx, &dynamodb.UpdateTimeToLiveInput{TableName: aws.String("tbl"),
		TimeToLiveSpecification: &types.TimeToLiveSpecification{AttributeName: aws.String("exp"), Enabled: aws.Bool(true)}})
	wantAPIError(t, err, "ResourceInUseException", busy)
	_, err = c.DeleteTable(ctx, &dynamodb.DeleteTableInput{TableName: aws.String("tbl")})
	wantAPIError(t, err, "ResourceInUseException", busy)
	clock.Advance(transientDelay)
	wantTableStatus(t, c, "tbl", types.TableStatusActive)
	if _, err := c.UpdateTable(ctx, &dynamodb.UpdateTableInput{TableName: aws.String("tbl"), DeletionProtectionEnabled: aws.Bool(true)}); err != nil {
		t.Fatal(err)
	}
}

// TestTableBeingDeletedIsDeletingForTheDelay: the table is listed and
// described as DELETING, a second DeleteTable answers without error, its
// items are gone, and its name cannot be reused until the delay has passed.
func TestTableBeingDeletedIsDeletingForTheDelay(t *testing.T) {
	c, clock := delayed(t)
	createSimple(t, c, "tbl")
	clock.Advance(transientDelay)
	if _, err := c.DeleteTable(ctx, &dynamodb.DeleteTableInput{TableName: aws.String("tbl")}); err != nil {
		t.Fatal(err)
	}
	wantTableStatus(t, c, "tbl", types.TableStatusDeleting)
	if names := listTables(t, c); !slices.Equal(names, []string{"tbl"}) {
		t.Fatalf("ListTables %v, want the DELETING table", names)
	}
	again, err := c.DeleteTable(ctx, &dynamodb.DeleteTableInput{TableName: aws.String("tbl")})
	if err != nil || again.TableDescription.TableStatus != types.TableStatusDeleting {
		t.Fatalf("second DeleteTable: %v", err)
	}
	_, err = c.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("tbl"), Key: pk("a")})
	wantAPIError(t, err, "ResourceNotFoundException", "Requested resource not found")
	_, err = c.CreateTable(ctx, simpleTable("tbl"))
	wantAPIError(t, err, "ResourceInUseException", "Attempt to change a resource which is still in use: Table is being deleted: tbl")
	clock.Advance(transientDelay)
	_, err = c.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String("tbl")})
	wantAPIError(t, err, "ResourceNotFoundException", "Requested resource not found: Table: tbl not found")
	if names := listTables(t, c); len(names) != 0 {
		t.Fatalf("ListTables %v after the delay", names)
	}
	if _, err := c.CreateTable(ctx, simpleTable("tbl")); err != nil {
		t.Fatal(err)
	}
}

// TestIndexChangesShowForTheDelay: a GSI added by UpdateTable stays
// CREATING with Backfilling true, and cannot be read, for at least the
// delay even when its backfill is done; then it is ACTIVE with no
// Backfilling member (facts 16.1). An updated GSI is UPDATING and a deleted one listed as DELETING
// for the delay.
func TestIndexChangesShowForTheDelay(t *testing.T) {
	c, clock := delayed(t)
	createPKSK(t, c, "online")
	clock.Advance(transientDelay)
	_, err := c.UpdateTable(ctx, &dynamodb.UpdateTableInput{TableName: aws.String("online"),
		AttributeDefinitions:        []types.AttributeDefinition{{AttributeName: aws.String("G"), AttributeType: "S"}, {AttributeName: aws.String("SK"), AttributeType: "S"}},
		GlobalSecondaryIndexUpdates: []types.GlobalSecondaryIndexUpdate{{Create: byG()}}})
	if err != nil {
		t.Fatal(err)
	}
	g := describeIndex(t, c, "online", "ByG")
	if g.IndexStatus != types.IndexStatusCreating || g.Backfilling == nil || !*g.Backfilling {
		t.Fatalf("new index %s backfilling %v, want CREATING, true", g.IndexStatus, g.Backfilling)
	}
	_, err = c.Query(ctx, &dynamodb.QueryInput{TableName: aws.String("online"), IndexName: aws.String("ByG"),
		KeyConditionExpression: aws.String("G = :g"), ExpressionAttributeValues: map[string]types.AttributeValue{":g": s("x")}})
	wantAPIError(t, err, "ValidationException", "Cannot read from backfilling global secondary index: ByG")
	clock.Advance(transientDelay)
	waitActive(t, c, "online", "ByG")
	_, err = c.UpdateTable(ctx, &dynamodb.UpdateTableInput{TableName: aws.String("online"),
		GlobalSecondaryIndexUpdates: []types.GlobalSecondaryIndexUpdate{{Delete: &types.DeleteGlobalSecondaryIndexAction{IndexName: aws.String("ByG")}}}})
	if err != nil {
		t.Fatal(err)
	}
	if g := describeIndex(t, c, "online", "ByG"); g.IndexStatus != types.IndexStatusDeleting {
		t.Fatalf("deleted index %s, want DELETING", g.IndexStatus)
	}
	clock.Advance(transientDelay)
	if gs := tableStatus(t, c, "online").GlobalSecondaryIndexes; len(gs) != 0 {
		t.Fatalf("deleted index still listed after the delay: %+v", gs)
	}
}

// TestUpdatedIndexIsUpdatingForTheDelay: a GSI whose throughput changes is
// UPDATING, in the response and in DescribeTable, for the delay.
func TestUpdatedIndexIsUpdatingForTheDelay(t *testing.T) {
	c, clock := delayed(t)
	createProvisionedWithGSI(t, c, "tbl")
	clock.Advance(transientDelay)
	out, err := c.UpdateTable(ctx, &dynamodb.UpdateTableInput{TableName: aws.String("tbl"),
		GlobalSecondaryIndexUpdates: []types.GlobalSecondaryIndexUpdate{{Update: &types.UpdateGlobalSecondaryIndexAction{IndexName: aws.String("gsi1"),
			ProvisionedThroughput: &types.ProvisionedThroughput{ReadCapacityUnits: aws.Int64(7), WriteCapacityUnits: aws.Int64(7)}}}}})
	if err != nil {
		t.Fatal(err)
	}
	if s := out.TableDescription.GlobalSecondaryIndexes[0].IndexStatus; s != types.IndexStatusUpdating {
		t.Fatalf("response: index %s, want UPDATING", s)
	}
	if g := describeIndex(t, c, "tbl", "gsi1"); g.IndexStatus != types.IndexStatusUpdating {
		t.Fatalf("DescribeTable: index %s, want UPDATING", g.IndexStatus)
	}
	clock.Advance(transientDelay)
	if g := describeIndex(t, c, "tbl", "gsi1"); g.IndexStatus != types.IndexStatusActive || *g.ProvisionedThroughput.ReadCapacityUnits != 7 {
		t.Fatalf("after the delay: index %s, %d reads", g.IndexStatus, *g.ProvisionedThroughput.ReadCapacityUnits)
	}
}

// TestRestartFinishesTransientStates: nothing transient is stored, so a
// table being created is ACTIVE after a restart and one being deleted is
// gone, however far the clock has moved.
func TestRestartFinishesTransientStates(t *testing.T) {
	dir, clock := t.TempDir(), newClock()
	opts := &sortkey.Options{Now: clock.Now, TransientDelay: time.Hour}
	c, stop := serveDirWith(t, dir, opts)
	createSimple(t, c, "creating")
	createSimple(t, c, "deleting")
	clock.Advance(time.Hour)
	if _, err := c.DeleteTable(ctx, &dynamodb.DeleteTableInput{TableName: aws.String("deleting")}); err != nil {
		t.Fatal(err)
	}
	createSimple(t, c, "creating2")
	stop()
	c, stop = serveDirWith(t, dir, opts)
	defer stop()
	wantTableStatus(t, c, "creating2", types.TableStatusActive)
	if names := listTables(t, c); !slices.Equal(names, []string{"creating", "creating2"}) {
		t.Fatalf("tables after restart %v", names)
	}
	if err := put(c, "creating2", pk("a")); err != nil {
		t.Fatal(err)
	}
}

func listTables(t *testing.T, c *dynamodb.Client) []string {
	t.Helper()
	out, err := c.ListTables(ctx, &dynamodb.ListTablesInput{})
	if err != nil {
		t.Fatal(err)
	}
	return out.TableNames
}

func simpleTable(name string) *dynamodb.CreateTableInput {
	return &dynamodb.CreateTableInput{TableName: aws.String(name), BillingMode: types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS}},
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash}}}
}

func createProvisionedWithGSI(t *testing.T, c *dynamodb.Client, name string) {
	t.Helper()
	five := &types.ProvisionedThroughput{ReadCapacityUnits: aws.Int64(5), WriteCapacityUnits: aws.Int64(5)}
	_, err := c.CreateTable(ctx, &dynamodb.CreateTableInput{TableName: aws.String(name), ProvisionedThroughput: five,
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("pk"), AttributeType: "S"}, {AttributeName: aws.String("gsi_pk"), AttributeType: "S"}},
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash}},
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{{IndexName: aws.String("gsi1"), ProvisionedThroughput: five,
			KeySchema:  []types.KeySchemaElement{{AttributeName: aws.String("gsi_pk"), KeyType: types.KeyTypeHash}},
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll}}}})
	if err != nil {
		t.Fatal(err)
	}
}
