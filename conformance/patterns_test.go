package conformance_test

import (
	"fmt"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/sortkeydb/sortkey/sortkeytest"
)

// The access-pattern shapes of the five reference designs in examples/,
// each on the single-table layout of createSingleTable.

// TestHierarchicalSortKey narrows one partition level by level with
// begins_with on a composite sort key, as location hierarchies do.
func TestHierarchicalSortKey(t *testing.T) {
	c := sortkeytest.New(t).Client()
	createSingleTable(t, c)
	for _, sk := range []string{"STATE#CA#CITY#LA#STORE#1", "STATE#CA#CITY#LA#STORE#2", "STATE#CA#CITY#SF#STORE#3",
		"STATE#NY#CITY#NYC#STORE#4", "STATE#CAX#CITY#Z#STORE#5"} {
		if err := put(c, "app", item("COUNTRY#US", sk, nil)); err != nil {
			t.Fatal(err)
		}
	}
	for prefix, want := range map[string]string{
		"STATE#CA#":         "STATE#CA#CITY#LA#STORE#1,STATE#CA#CITY#LA#STORE#2,STATE#CA#CITY#SF#STORE#3",
		"STATE#CA#CITY#LA#": "STATE#CA#CITY#LA#STORE#1,STATE#CA#CITY#LA#STORE#2",
		"STATE#CA":          "STATE#CA#CITY#LA#STORE#1,STATE#CA#CITY#LA#STORE#2,STATE#CA#CITY#SF#STORE#3,STATE#CAX#CITY#Z#STORE#5",
		"STATE#TX#":         "",
	} {
		got := query(t, c, "", "PK = :p AND begins_with(SK, :s)", map[string]types.AttributeValue{":p": s("COUNTRY#US"), ":s": s(prefix)})
		if strs(got, "SK") != want {
			t.Errorf("begins_with %q: %s\nwant %s", prefix, strs(got, "SK"), want)
		}
	}
}

// TestNewestFirstBatches reads a partition newest first in batches of 11,
// the ScanIndexForward=false, Limit=11 first-batch read of the menus design,
// and pages on from LastEvaluatedKey.
func TestNewestFirstBatches(t *testing.T) {
	c := sortkeytest.New(t).Client()
	createSingleTable(t, c)
	for i := range 25 {
		if err := put(c, "app", item("MENU#1", fmt.Sprintf("ITEM#%03d", i), nil)); err != nil {
			t.Fatal(err)
		}
	}
	in := &dynamodb.QueryInput{TableName: aws.String("app"), KeyConditionExpression: aws.String("PK = :p"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":p": s("MENU#1")}, ScanIndexForward: aws.Bool(false), Limit: aws.Int32(11)}
	var batches []string
	for {
		out, err := c.Query(ctx, in)
		if err != nil {
			t.Fatal(err)
		}
		batches = append(batches, fmt.Sprintf("%d:%s..%s", out.Count, str(out.Items[0]["SK"]), str(out.Items[len(out.Items)-1]["SK"])))
		if out.LastEvaluatedKey == nil {
			break
		}
		in.ExclusiveStartKey = out.LastEvaluatedKey
	}
	want := "[11:ITEM#024..ITEM#014 11:ITEM#013..ITEM#003 3:ITEM#002..ITEM#000]"
	if fmt.Sprint(batches) != want {
		t.Fatalf("batches %v\nwant %s", batches, want)
	}
}

// TestReverseIndexQueriesTheOtherSide reads a many-to-many relation from
// both sides: the table by owner, the inverted index by member, with a
// begins_with on the inverted sort key.
func TestReverseIndexQueriesTheOtherSide(t *testing.T) {
	c := sortkeytest.New(t).Client()
	createSingleTable(t, c)
	for _, pair := range [][2]string{{"ORDER#1", "PRODUCT#a"}, {"ORDER#1", "PRODUCT#b"}, {"ORDER#2", "PRODUCT#a"}, {"CART#9", "PRODUCT#a"}} {
		if err := put(c, "app", item(pair[0], pair[1], nil)); err != nil {
			t.Fatal(err)
		}
	}
	byOrder := query(t, c, "", "PK = :o", map[string]types.AttributeValue{":o": s("ORDER#1")})
	byProduct := query(t, c, "Inverted", "SK = :p AND begins_with(PK, :o)", map[string]types.AttributeValue{":p": s("PRODUCT#a"), ":o": s("ORDER#")})
	if strs(byOrder, "SK") != "PRODUCT#a,PRODUCT#b" || strs(byProduct, "PK") != "ORDER#1,ORDER#2" {
		t.Fatalf("by order %s, by product %s", strs(byOrder, "SK"), strs(byProduct, "PK"))
	}
}

// TestQueryRefusals checks what DynamoDB refuses in a Query that the key
// schema or projection makes meaningless.
func TestQueryRefusals(t *testing.T) {
	c := sortkeytest.New(t).Client()
	createSingleTable(t, c)
	_, err := c.Query(ctx, &dynamodb.QueryInput{TableName: aws.String("app"), KeyConditionExpression: aws.String("PK = :p"),
		FilterExpression: aws.String("begins_with(SK, :s)"), ExpressionAttributeValues: map[string]types.AttributeValue{":p": s("a"), ":s": s("b")}})
	wantAPIError(t, err, "ValidationException", "Filter Expression can only contain non-primary key attributes: Primary key attribute: SK")
	_, err = c.Query(ctx, &dynamodb.QueryInput{TableName: aws.String("app"), IndexName: aws.String("Inverted"), KeyConditionExpression: aws.String("SK = :s"),
		FilterExpression: aws.String("PK = :p"), ExpressionAttributeValues: map[string]types.AttributeValue{":p": s("a"), ":s": s("b")}})
	wantAPIError(t, err, "ValidationException", "Filter Expression can only contain non-primary key attributes: Primary key attribute: PK")
	// On an index, the table's key attributes are ordinary attributes.
	if err := put(c, "app", item("USER#1", "GROUP#a", map[string]types.AttributeValue{"Status": s("live"), "Created": n("1")})); err != nil {
		t.Fatal(err)
	}
	got := queryAll(t, c, &dynamodb.QueryInput{TableName: aws.String("app"), IndexName: aws.String("ByStatus"), KeyConditionExpression: aws.String("#s = :l"),
		FilterExpression: aws.String("begins_with(PK, :u)"), ExpressionAttributeNames: map[string]string{"#s": "Status"},
		ExpressionAttributeValues: map[string]types.AttributeValue{":l": s("live"), ":u": s("USER#")}})
	if len(got) != 1 {
		t.Fatalf("a filter on the table key in a GSI query returned %d items", len(got))
	}
	_, err = c.Query(ctx, &dynamodb.QueryInput{TableName: aws.String("app"), IndexName: aws.String("ByStatus"), KeyConditionExpression: aws.String("#s = :l"),
		ProjectionExpression: aws.String("Title, Body"), ExpressionAttributeNames: map[string]string{"#s": "Status"},
		ExpressionAttributeValues: map[string]types.AttributeValue{":l": s("live")}})
	wantAPIError(t, err, "ValidationException", "One or more parameter values were invalid: Global secondary index ByStatus does not project the attribute Body")
}
