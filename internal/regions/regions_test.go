package regions_test

import (
	"context"
	"errors"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/aws-sdk-go-v2/service/dynamodbstreams"
	stypes "github.com/aws/aws-sdk-go-v2/service/dynamodbstreams/types"

	"github.com/sortkeydb/sortkey"
	"github.com/sortkeydb/sortkey/sortkeytest"
)

const (
	east = "us-east-1"
	west = "us-west-2"
	eu   = "eu-west-1"
)

var ctx = context.Background()

// world is a sortkey with regions kept apart, on a virtual clock, with
// the default replication lag (one second).
type world struct {
	*sortkeytest.Server
	t *testing.T
}

func newWorld(t *testing.T) *world {
	t.Helper()
	start := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	s := sortkeytest.NewWithOptions(t, &sortkey.Options{Regions: sortkey.RegionsSeparate, Clock: sortkey.NewVirtualClock(start)})
	return &world{Server: s, t: t}
}

func (w *world) db(region string) *dynamodb.Client { return w.ClientIn(region) }

// table creates table "orders" (pk) in region.
func (w *world) table(region string) {
	w.t.Helper()
	_, err := w.db(region).CreateTable(ctx, &dynamodb.CreateTableInput{
		TableName:            aws.String("orders"),
		BillingMode:          types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS}},
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash}},
	})
	if err != nil {
		w.t.Fatal(err)
	}
}

// replicate adds a replica in region to to the table of region from.
func (w *world) replicate(from, to string) *types.TableDescription {
	w.t.Helper()
	out, err := w.db(from).UpdateTable(ctx, &dynamodb.UpdateTableInput{TableName: aws.String("orders"),
		ReplicaUpdates: []types.ReplicationGroupUpdate{{Create: &types.CreateReplicationGroupMemberAction{RegionName: aws.String(to)}}}})
	if err != nil {
		w.t.Fatal(err)
	}
	return out.TableDescription
}

func (w *world) put(region, pk string, attrs map[string]string) {
	w.t.Helper()
	item := map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: pk}}
	for k, v := range attrs {
		item[k] = &types.AttributeValueMemberS{Value: v}
	}
	if _, err := w.db(region).PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("orders"), Item: item}); err != nil {
		w.t.Fatal(err)
	}
}

// get reads pk's attribute name in region, strongly consistent there; ""
// when the item is absent.
func (w *world) get(region, pk, name string) string {
	w.t.Helper()
	out, err := w.db(region).GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("orders"), ConsistentRead: aws.Bool(true),
		Key: map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: pk}}})
	if err != nil {
		w.t.Fatal(err)
	}
	if out.Item == nil {
		return ""
	}
	if v, ok := out.Item[name].(*types.AttributeValueMemberS); ok {
		return v.Value
	}
	return "(present)"
}

// settle moves the clock past the lag and sends what came due.
func (w *world) settle() {
	w.t.Helper()
	w.Advance(sortkey.DefaultReplicationLag)
	w.flush()
}

func (w *world) flush() {
	w.t.Helper()
	if err := w.DB.FlushReplication(ctx); err != nil {
		w.t.Fatal(err)
	}
}

func TestTablesBelongToTheirRegion(t *testing.T) {
	w := newWorld(t)
	w.table(east)
	_, err := w.db(west).DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String("orders")})
	var nf *types.ResourceNotFoundException
	if !errors.As(err, &nf) {
		t.Fatalf("a table of us-east-1 described in us-west-2: %v", err)
	}
	w.table(west) // the same name in another region is another table
	w.put(west, "a", map[string]string{"v": "west"})
	if got := w.get(east, "a", "v"); got != "" {
		t.Fatalf("us-west-2's item read in us-east-1: %q", got)
	}
	// Unsigned requests act in the default region.
	out, err := w.Client().ListTables(ctx, &dynamodb.ListTablesInput{})
	if err != nil || !slices.Equal(out.TableNames, []string{"orders"}) {
		t.Fatalf("unsigned ListTables: %v %v", out, err)
	}
}

func TestReplicaCreatedWithItemsAndDescribed(t *testing.T) {
	w := newWorld(t)
	w.table(east)
	w.put(east, "before", map[string]string{"v": "1"})
	d := w.replicate(east, west)
	if aws.ToString(d.GlobalTableVersion) != "2019.11.21" || len(d.Replicas) != 1 || aws.ToString(d.Replicas[0].RegionName) != west ||
		d.Replicas[0].ReplicaStatus != types.ReplicaStatusCreating || d.TableStatus != types.TableStatusUpdating {
		t.Fatalf("UpdateTable's description: %+v", d)
	}
	if d.StreamSpecification == nil || d.StreamSpecification.StreamViewType != types.StreamViewTypeNewAndOldImages {
		t.Fatalf("a replica's stream: %+v", d.StreamSpecification)
	}
	out, err := w.db(west).DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String("orders")})
	if err != nil {
		t.Fatal(err)
	}
	got := out.Table
	if aws.ToString(got.GlobalTableVersion) != "2019.11.21" || len(got.Replicas) != 1 || aws.ToString(got.Replicas[0].RegionName) != east ||
		got.Replicas[0].ReplicaStatus != types.ReplicaStatusActive || aws.ToString(got.TableArn) != "arn:aws:dynamodb:us-west-2:000000000000:table/orders" {
		t.Fatalf("the new replica's description: %+v", got)
	}
	if v := w.get(west, "before", "v"); v != "1" {
		t.Fatalf("an item written before the replica existed: %q", v)
	}
}

func TestReplicationWaitsForTheLag(t *testing.T) {
	w := newWorld(t)
	w.table(east)
	w.replicate(east, west)
	w.put(east, "o1", map[string]string{"state": "new"})
	w.flush()
	if v := w.get(west, "o1", "state"); v != "" {
		t.Fatalf("the write reached us-west-2 before the lag: %q", v)
	}
	w.Advance(sortkey.DefaultReplicationLag / 2)
	w.flush()
	if v := w.get(west, "o1", "state"); v != "" {
		t.Fatalf("the write reached us-west-2 at half the lag: %q", v)
	}
	w.settle()
	if v := w.get(west, "o1", "state"); v != "new" {
		t.Fatalf("after the lag us-west-2 has %q", v)
	}
	// Deletes replicate too.
	if _, err := w.db(west).DeleteItem(ctx, &dynamodb.DeleteItemInput{TableName: aws.String("orders"),
		Key: map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: "o1"}}}); err != nil {
		t.Fatal(err)
	}
	w.settle()
	if v := w.get(east, "o1", "state"); v != "" {
		t.Fatalf("a delete in us-west-2 left %q in us-east-1", v)
	}
}

func TestConflictConvergesToTheLaterWrite(t *testing.T) {
	w := newWorld(t)
	w.table(east)
	w.replicate(east, west)
	w.put(east, "cart", map[string]string{"owner": "east"})
	w.Advance(10 * time.Millisecond)
	w.put(west, "cart", map[string]string{"owner": "west"}) // later: it wins
	w.settle()
	for _, r := range []string{east, west} {
		if v := w.get(r, "cart", "owner"); v != "west" {
			t.Fatalf("%s converged to %q, want the later write's", r, v)
		}
	}
	st, err := w.DB.ReplicationStats()
	if err != nil || st.Overtaken != 1 || st.Applied != 1 || st.Backlog != 0 {
		t.Fatalf("stats %+v %v: want one change applied, one overtaken, none waiting", st, err)
	}
}

func TestConditionIsLocalAndOneWriteIsLost(t *testing.T) {
	w := newWorld(t)
	w.table(east)
	w.put(east, "seat-1", nil)
	w.replicate(east, west)
	claim := func(region, who string) error {
		_, err := w.db(region).UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String("orders"),
			Key:                       map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: "seat-1"}},
			UpdateExpression:          aws.String("SET claimedBy = :who"),
			ConditionExpression:       aws.String("attribute_not_exists(claimedBy)"),
			ExpressionAttributeValues: map[string]types.AttributeValue{":who": &types.AttributeValueMemberS{Value: who}}})
		return err
	}
	if err := claim(east, "alice"); err != nil {
		t.Fatalf("us-east-1's claim: %v", err)
	}
	w.Advance(5 * time.Millisecond)
	if err := claim(west, "bob"); err != nil {
		t.Fatalf("us-west-2's claim, judged on its own replica: %v", err)
	}
	w.settle()
	for _, r := range []string{east, west} {
		if v := w.get(r, "seat-1", "claimedBy"); v != "bob" {
			t.Fatalf("%s: claimedBy %q; alice's acknowledged claim should be lost to bob's later one", r, v)
		}
	}
}

func TestPartitionedRegionCatchesUp(t *testing.T) {
	w := newWorld(t)
	w.table(east)
	w.replicate(east, west)
	w.replicate(east, eu)
	if err := w.DB.PartitionRegion(west, true); err != nil {
		t.Fatal(err)
	}
	w.put(east, "from-east", map[string]string{"v": "e"})
	w.put(west, "from-west", map[string]string{"v": "w"})
	w.settle()
	if w.get(west, "from-east", "v") != "" || w.get(east, "from-west", "v") != "" || w.get(eu, "from-west", "v") != "" {
		t.Fatal("a write crossed the partition")
	}
	if w.get(eu, "from-east", "v") != "e" {
		t.Fatal("eu-west-1, not partitioned, missed us-east-1's write")
	}
	st, _ := w.DB.ReplicationStats()
	if st.Backlog != 3 { // east→west, west→east, west→eu
		t.Fatalf("backlog while partitioned: %d, want 3", st.Backlog)
	}
	if err := w.DB.PartitionRegion(west, false); err != nil {
		t.Fatal(err)
	}
	w.flush()
	for _, r := range []string{east, west, eu} {
		if w.get(r, "from-east", "v") != "e" || w.get(r, "from-west", "v") != "w" {
			t.Fatalf("%s after the partition healed: missing a write", r)
		}
	}
}

func TestEachReplicaHasItsOwnStream(t *testing.T) {
	w := newWorld(t)
	w.table(east)
	w.replicate(east, west)
	for i := range 3 {
		w.put(east, "k"+strconv.Itoa(i), map[string]string{"v": "x"})
	}
	w.settle()
	for _, r := range []string{east, west} {
		recs := w.streamRecords(r)
		if len(recs) != 3 {
			t.Fatalf("%s's stream has %d records, want the 3 writes", r, len(recs))
		}
		for _, rec := range recs {
			if rec.EventName != stypes.OperationTypeInsert || rec.Dynamodb.NewImage["v"] == nil {
				t.Fatalf("%s: record %+v", r, rec)
			}
		}
	}
}

func (w *world) streamRecords(region string) []stypes.Record {
	w.t.Helper()
	d, err := w.db(region).DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String("orders")})
	if err != nil {
		w.t.Fatal(err)
	}
	sc := w.StreamsClientIn(region)
	desc, err := sc.DescribeStream(ctx, &dynamodbstreams.DescribeStreamInput{StreamArn: d.Table.LatestStreamArn})
	if err != nil {
		w.t.Fatal(err)
	}
	var recs []stypes.Record
	for _, sh := range desc.StreamDescription.Shards {
		it, err := sc.GetShardIterator(ctx, &dynamodbstreams.GetShardIteratorInput{StreamArn: d.Table.LatestStreamArn,
			ShardId: sh.ShardId, ShardIteratorType: stypes.ShardIteratorTypeTrimHorizon})
		if err != nil {
			w.t.Fatal(err)
		}
		out, err := sc.GetRecords(ctx, &dynamodbstreams.GetRecordsInput{ShardIterator: it.ShardIterator})
		if err != nil {
			w.t.Fatal(err)
		}
		recs = append(recs, out.Records...)
	}
	return recs
}

func TestReplicaDeleted(t *testing.T) {
	w := newWorld(t)
	w.table(east)
	w.replicate(east, west)
	out, err := w.db(east).UpdateTable(ctx, &dynamodb.UpdateTableInput{TableName: aws.String("orders"),
		ReplicaUpdates: []types.ReplicationGroupUpdate{{Delete: &types.DeleteReplicationGroupMemberAction{RegionName: aws.String(west)}}}})
	if err != nil {
		t.Fatal(err)
	}
	if r := out.TableDescription.Replicas; len(r) != 1 || r[0].ReplicaStatus != types.ReplicaStatusDeleting {
		t.Fatalf("the response's replicas: %+v", r)
	}
	d, err := w.db(east).DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String("orders")})
	if err != nil || d.Table.GlobalTableVersion != nil || len(d.Table.Replicas) != 0 {
		t.Fatalf("us-east-1 after its only replica left: %+v %v", d, err)
	}
	w.put(east, "after", nil)
	w.settle()
	if _, err := w.db(west).DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String("orders")}); err == nil {
		t.Fatal("us-west-2's replica still exists")
	}
	if st, _ := w.DB.ReplicationStats(); st.Backlog != 0 {
		t.Fatalf("changes still owed to a removed replica: %d", st.Backlog)
	}
}

func TestReplicaUpdatesRefused(t *testing.T) {
	w := newWorld(t)
	w.table(east)
	w.replicate(east, west)
	for _, c := range []struct {
		name string
		up   types.ReplicationGroupUpdate
		mrc  types.MultiRegionConsistency
		want string
	}{
		{"again", types.ReplicationGroupUpdate{Create: &types.CreateReplicationGroupMemberAction{RegionName: aws.String(west)}}, "",
			"Failed to create a replica of table orders in region us-west-2: the table already has a replica there"},
		{"here", types.ReplicationGroupUpdate{Create: &types.CreateReplicationGroupMemberAction{RegionName: aws.String(east)}}, "",
			"Failed to create a replica of table orders in region us-east-1: the table already has a replica there"},
		{"missing", types.ReplicationGroupUpdate{Delete: &types.DeleteReplicationGroupMemberAction{RegionName: aws.String(eu)}}, "",
			"Table orders has no replica in region eu-west-1"},
		{"strong", types.ReplicationGroupUpdate{Create: &types.CreateReplicationGroupMemberAction{RegionName: aws.String(eu)}}, types.MultiRegionConsistencyStrong,
			"The MultiRegionConsistency of global table orders is EVENTUAL and cannot be changed"},
		{"override", types.ReplicationGroupUpdate{Create: &types.CreateReplicationGroupMemberAction{RegionName: aws.String(eu), KMSMasterKeyId: aws.String("k")}}, "",
			"ReplicaUpdates.KMSMasterKeyId is not supported by sortkey; remove it from the request"},
	} {
		_, err := w.db(east).UpdateTable(ctx, &dynamodb.UpdateTableInput{TableName: aws.String("orders"),
			ReplicaUpdates: []types.ReplicationGroupUpdate{c.up}, MultiRegionConsistency: c.mrc})
		var ve *types.ResourceInUseException
		if errors.As(err, &ve) || err == nil || !containsMessage(err, c.want) {
			t.Errorf("%s: %v, want ValidationException %q", c.name, err, c.want)
		}
	}
}

// containsMessage reports a ValidationException whose message holds want.
func containsMessage(err error, want string) bool {
	return err != nil && strings.Contains(err.Error(), "ValidationException") && strings.Contains(err.Error(), want)
}

func TestSharedRegionsRefuseReplicas(t *testing.T) {
	s := sortkeytest.New(t)
	c := s.ClientIn(west)
	_, err := c.CreateTable(ctx, &dynamodb.CreateTableInput{TableName: aws.String("orders"), BillingMode: types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS}},
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash}}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.ClientIn(east).DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String("orders")}); err != nil {
		t.Fatalf("shared regions: a table created in us-west-2 is not seen from us-east-1: %v", err)
	}
	_, err = c.UpdateTable(ctx, &dynamodb.UpdateTableInput{TableName: aws.String("orders"),
		ReplicaUpdates: []types.ReplicationGroupUpdate{{Create: &types.CreateReplicationGroupMemberAction{RegionName: aws.String(eu)}}}})
	if !containsMessage(err, "ReplicaUpdates needs regions kept apart: start sortkey with --regions separate") {
		t.Fatalf("ReplicaUpdates with shared regions: %v", err)
	}
}

// TestLegacyOperationsSeeNoGlobalTable: the 2017.11.29 operations answer
// for a current-version global table as DynamoDB does, as for no table.
func TestLegacyOperationsSeeNoGlobalTable(t *testing.T) {
	w := newWorld(t)
	w.table(east)
	w.replicate(east, west)
	_, err := w.db(east).DescribeGlobalTable(ctx, &dynamodb.DescribeGlobalTableInput{GlobalTableName: aws.String("orders")})
	var nf *types.GlobalTableNotFoundException
	if !errors.As(err, &nf) || aws.ToString(nf.Message) != "Global table not found: Global table with name: 'orders' does not exist." {
		t.Fatalf("DescribeGlobalTable of a current-version global table: %v", err)
	}
	if _, err := w.db(west).UpdateGlobalTable(ctx, &dynamodb.UpdateGlobalTableInput{GlobalTableName: aws.String("orders"),
		ReplicaUpdates: []types.ReplicaUpdate{{Create: &types.CreateReplicaAction{RegionName: aws.String(eu)}}}}); !errors.As(err, &nf) {
		t.Fatalf("UpdateGlobalTable: %v", err)
	}
	out, err := w.db(east).ListGlobalTables(ctx, &dynamodb.ListGlobalTablesInput{})
	if err != nil || len(out.GlobalTables) != 0 {
		t.Fatalf("ListGlobalTables: %+v %v", out, err)
	}
}

// TestTwoWritesAtOneInstantBothReplicate: the second write of an item at
// the same instant is stamped past the first (so that it wins), yet is
// due at the lag like any write.
func TestTwoWritesAtOneInstantBothReplicate(t *testing.T) {
	w := newWorld(t)
	w.table(east)
	w.replicate(east, west)
	w.put(east, "k", map[string]string{"v": "1"})
	w.put(east, "k", map[string]string{"v": "2"})
	w.settle()
	if v := w.get(west, "k", "v"); v != "2" {
		t.Fatalf("us-west-2 has %q, want the second write", v)
	}
	if st, _ := w.DB.ReplicationStats(); st.Backlog != 0 {
		t.Fatalf("backlog %d after the lag", st.Backlog)
	}
}
