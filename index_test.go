package sortkey_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/sortkeydb/sortkey/sortkeytest"
)

// createSingleTable creates a single-table design: PK/SK, an inverted GSI
// (SK, PK) projecting ALL, a sparse KEYS_ONLY GSI on PendingId, an INCLUDE
// GSI on Status, and an LSI on an alternate sort key projecting KEYS_ONLY.
func createSingleTable(t *testing.T, c *dynamodb.Client) {
	t.Helper()
	def := func(n string, ty types.ScalarAttributeType) types.AttributeDefinition {
		return types.AttributeDefinition{AttributeName: aws.String(n), AttributeType: ty}
	}
	ks := func(h, r string) []types.KeySchemaElement {
		k := []types.KeySchemaElement{{AttributeName: aws.String(h), KeyType: types.KeyTypeHash}}
		if r != "" {
			k = append(k, types.KeySchemaElement{AttributeName: aws.String(r), KeyType: types.KeyTypeRange})
		}
		return k
	}
	_, err := c.CreateTable(ctx, &dynamodb.CreateTableInput{
		TableName: aws.String("app"),
		AttributeDefinitions: []types.AttributeDefinition{def("PK", "S"), def("SK", "S"), def("PendingId", "S"),
			def("Status", "S"), def("Created", "N")},
		KeySchema: ks("PK", "SK"),
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{
			{IndexName: aws.String("Inverted"), KeySchema: ks("SK", "PK"), Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll}},
			{IndexName: aws.String("Pending"), KeySchema: ks("PendingId", ""), Projection: &types.Projection{ProjectionType: types.ProjectionTypeKeysOnly}},
			{IndexName: aws.String("ByStatus"), KeySchema: ks("Status", "Created"),
				Projection: &types.Projection{ProjectionType: types.ProjectionTypeInclude, NonKeyAttributes: []string{"Title"}}},
		},
		LocalSecondaryIndexes: []types.LocalSecondaryIndex{
			{IndexName: aws.String("ByCreated"), KeySchema: ks("PK", "Created"), Projection: &types.Projection{ProjectionType: types.ProjectionTypeKeysOnly}},
		},
		BillingMode: types.BillingModePayPerRequest,
	})
	if err != nil {
		t.Fatal(err)
	}
}

func item(pk, sk string, extra map[string]types.AttributeValue) map[string]types.AttributeValue {
	it := map[string]types.AttributeValue{"PK": s(pk), "SK": s(sk)}
	for k, v := range extra {
		it[k] = v
	}
	return it
}

func query(t *testing.T, c *dynamodb.Client, index, cond string, vals map[string]types.AttributeValue) []map[string]types.AttributeValue {
	t.Helper()
	in := &dynamodb.QueryInput{TableName: aws.String("app"), KeyConditionExpression: aws.String(cond), ExpressionAttributeValues: vals}
	if strings.Contains(cond, "#s") {
		in.ExpressionAttributeNames = map[string]string{"#s": "Status"}
	}
	if index != "" {
		in.IndexName = aws.String(index)
	}
	return queryAll(t, c, in)
}

func TestInvertedAndSparseIndexes(t *testing.T) {
	c := sortkeytest.New(t).Client()
	createSingleTable(t, c)
	for _, it := range []map[string]types.AttributeValue{
		item("USER#1", "GROUP#a", nil), item("USER#2", "GROUP#a", nil), item("USER#2", "GROUP#b", nil),
		item("USER#3", "REQ#x", map[string]types.AttributeValue{"PendingId": s("p1")}),
		item("USER#4", "REQ#y", map[string]types.AttributeValue{"PendingId": s("p2"), "Secret": s("hidden")}),
	} {
		if err := put(c, "app", it); err != nil {
			t.Fatal(err)
		}
	}
	members := query(t, c, "Inverted", "SK = :g", map[string]types.AttributeValue{":g": s("GROUP#a")})
	if strs(members, "PK") != "USER#1,USER#2" {
		t.Fatalf("inverted index: %s", strs(members, "PK"))
	}
	pending := query(t, c, "Pending", "PendingId = :p", map[string]types.AttributeValue{":p": s("p2")})
	if len(pending) != 1 || len(pending[0]) != 3 || pending[0]["Secret"] != nil {
		t.Fatalf("KEYS_ONLY entry: %v", pending)
	}
	_, err := c.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String("app"), Key: item("USER#4", "REQ#y", nil),
		UpdateExpression: aws.String("REMOVE PendingId")})
	if err != nil {
		t.Fatal(err)
	}
	if got := query(t, c, "Pending", "PendingId = :p", map[string]types.AttributeValue{":p": s("p2")}); len(got) != 0 {
		t.Fatalf("item still in the sparse index after REMOVE: %v", got)
	}
	_, err = c.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String("app"), Key: item("USER#3", "REQ#x", nil),
		UpdateExpression: aws.String("SET PendingId = :q"), ExpressionAttributeValues: map[string]types.AttributeValue{":q": s("p9")}})
	if err != nil {
		t.Fatal(err)
	}
	if len(query(t, c, "Pending", "PendingId = :p", map[string]types.AttributeValue{":p": s("p1")})) != 0 ||
		len(query(t, c, "Pending", "PendingId = :p", map[string]types.AttributeValue{":p": s("p9")})) != 1 {
		t.Fatal("a changed index key did not move the entry")
	}
	d, err := c.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String("app")})
	if err != nil {
		t.Fatal(err)
	}
	counts := map[string]int64{}
	for _, g := range d.Table.GlobalSecondaryIndexes {
		counts[*g.IndexName] = *g.ItemCount
	}
	if counts["Inverted"] != 5 || counts["Pending"] != 1 || counts["ByStatus"] != 0 {
		t.Fatalf("index item counts %v", counts)
	}
}

func TestProjectionsAndLSIFetch(t *testing.T) {
	c := sortkeytest.New(t).Client()
	createSingleTable(t, c)
	for i := 0; i < 4; i++ {
		it := item("ORG#1", fmt.Sprintf("DOC#%d", i), map[string]types.AttributeValue{
			"Status": s("open"), "Created": n(fmt.Sprint(100 - i)), "Title": s(fmt.Sprintf("t%d", i)), "Body": s("long text")})
		if err := put(c, "app", it); err != nil {
			t.Fatal(err)
		}
	}
	open := query(t, c, "ByStatus", "#s = :o AND Created > :c", map[string]types.AttributeValue{":o": s("open"), ":c": n("97")})
	if strs(open, "Created") != "98,99,100" || open[0]["Body"] != nil || open[0]["Title"] == nil {
		t.Fatalf("INCLUDE projection: %v", open)
	}
	_, err := c.Query(ctx, &dynamodb.QueryInput{TableName: aws.String("app"), IndexName: aws.String("ByStatus"),
		KeyConditionExpression: aws.String("#s = :o"), ExpressionAttributeNames: map[string]string{"#s": "Status"},
		ExpressionAttributeValues: map[string]types.AttributeValue{":o": s("open")}, Select: types.SelectAllAttributes})
	wantAPIError(t, err, "ValidationException", "One or more parameter values were invalid: Select type ALL_ATTRIBUTES is not supported for global secondary index ByStatus because its projection type is not ALL")
	_, err = c.Query(ctx, &dynamodb.QueryInput{TableName: aws.String("app"), IndexName: aws.String("ByStatus"), ConsistentRead: aws.Bool(true),
		KeyConditionExpression: aws.String("#s = :o"), ExpressionAttributeNames: map[string]string{"#s": "Status"},
		ExpressionAttributeValues: map[string]types.AttributeValue{":o": s("open")}})
	wantAPIError(t, err, "ValidationException", "Consistent reads are not supported on global secondary indexes")
	all := queryAll(t, c, &dynamodb.QueryInput{TableName: aws.String("app"), IndexName: aws.String("ByCreated"), Select: types.SelectAllAttributes,
		KeyConditionExpression: aws.String("PK = :p"), ExpressionAttributeValues: map[string]types.AttributeValue{":p": s("ORG#1")}})
	if strs(all, "Created") != "97,98,99,100" || all[0]["Body"] == nil {
		t.Fatalf("LSI ALL_ATTRIBUTES on a KEYS_ONLY LSI must fetch from the table: %v", all)
	}
}

// TestUpdatesKeepEveryProjectionCurrent: updates that leave the index keys
// alone (which rewrite only the entries whose projection changed) still
// show each index exactly its projection of the item as it now is.
func TestUpdatesKeepEveryProjectionCurrent(t *testing.T) {
	c := sortkeytest.New(t).Client()
	createSingleTable(t, c)
	err := put(c, "app", item("ORG#1", "DOC#1", map[string]types.AttributeValue{"Status": s("open"), "Created": n("1"),
		"PendingId": s("p1"), "Title": s("t1"), "Body": s("b1")}))
	if err != nil {
		t.Fatal(err)
	}
	set := func(expr string, vals map[string]types.AttributeValue) {
		t.Helper()
		_, err := c.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String("app"),
			Key: item("ORG#1", "DOC#1", nil), UpdateExpression: aws.String(expr), ExpressionAttributeValues: vals})
		if err != nil {
			t.Fatal(err)
		}
	}
	one := func(index, cond string, vals map[string]types.AttributeValue) map[string]types.AttributeValue {
		t.Helper()
		got := query(t, c, index, cond, vals)
		if len(got) != 1 {
			t.Fatalf("%s: %d items, want 1: %v", index, len(got), got)
		}
		return got[0]
	}
	all := func() map[string]types.AttributeValue {
		return one("Inverted", "SK = :d", map[string]types.AttributeValue{":d": s("DOC#1")})
	}
	incl := func() map[string]types.AttributeValue {
		return one("ByStatus", "#s = :o", map[string]types.AttributeValue{":o": s("open")})
	}
	keys := func() map[string]types.AttributeValue {
		return one("Pending", "PendingId = :p", map[string]types.AttributeValue{":p": s("p1")})
	}

	set("SET Body = :b", map[string]types.AttributeValue{":b": s("b2")})
	if got := all()["Body"]; !avEqual(got, s("b2")) {
		t.Fatalf("ALL index after SET Body: Body = %v, want b2", got)
	}
	if got := incl(); got["Body"] != nil || !avEqual(got["Title"], s("t1")) {
		t.Fatalf("INCLUDE index after SET Body: %v", got)
	}
	if got := keys(); len(got) != 3 {
		t.Fatalf("KEYS_ONLY index after SET Body: %v, want PK, SK, PendingId", got)
	}
	set("SET Title = :t", map[string]types.AttributeValue{":t": s("t2")})
	if got := incl()["Title"]; !avEqual(got, s("t2")) {
		t.Fatalf("INCLUDE index after SET Title: Title = %v, want t2", got)
	}
	set("REMOVE Title", nil)
	if got := incl(); got["Title"] != nil || all()["Title"] != nil {
		t.Fatalf("after REMOVE Title the indexes still show it: %v", got)
	}
}

func avEqual(a, b types.AttributeValue) bool { return fmt.Sprint(a) == fmt.Sprint(b) }
