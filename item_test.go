package sortkey_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/sortkeydb/sortkey/sortkeytest"
)

func s(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
func n(v string) types.AttributeValue { return &types.AttributeValueMemberN{Value: v} }

// everyType is an item holding one attribute of each of DynamoDB's ten types,
// nested ones included.
func everyType() map[string]types.AttributeValue {
	return map[string]types.AttributeValue{
		"Artist":    s("Acme Band"),
		"SongTitle": s("Happy Day"),
		"str":       s("héllo ✓"),
		"emptyStr":  s(""),
		"num":       n("-12.5"),
		"bin":       &types.AttributeValueMemberB{Value: []byte{0, 1, 2, 255}},
		"emptyBin":  &types.AttributeValueMemberB{Value: []byte{}},
		"bool":      &types.AttributeValueMemberBOOL{Value: true},
		"null":      &types.AttributeValueMemberNULL{Value: true},
		"map": &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{
			"inner": &types.AttributeValueMemberL{Value: []types.AttributeValue{n("1"), s("two")}},
			"empty": &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{}},
		}},
		"list":   &types.AttributeValueMemberL{Value: []types.AttributeValue{}},
		"strSet": &types.AttributeValueMemberSS{Value: []string{"a", "b"}},
		"numSet": &types.AttributeValueMemberNS{Value: []string{"1", "2.5"}},
		"binSet": &types.AttributeValueMemberBS{Value: [][]byte{{1}, {2}}},
	}
}

func musicKey() map[string]types.AttributeValue {
	return map[string]types.AttributeValue{"Artist": s("Acme Band"), "SongTitle": s("Happy Day")}
}

func TestPutGetDeleteEveryType(t *testing.T) {
	c := sortkeytest.New(t).Client()
	createMusic(t, c, "Music")
	item := everyType()
	if _, err := c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("Music"), Item: item}); err != nil {
		t.Fatal(err)
	}
	got, err := c.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("Music"), Key: musicKey(), ConsistentRead: aws.Bool(true)})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got.Item, item) {
		t.Fatalf("round trip differs:\n got %#v\nwant %#v", got.Item, item)
	}
	del, err := c.DeleteItem(ctx, &dynamodb.DeleteItemInput{TableName: aws.String("Music"), Key: musicKey(), ReturnValues: types.ReturnValueAllOld})
	if err != nil || !reflect.DeepEqual(del.Attributes, item) {
		t.Fatalf("DeleteItem ALL_OLD: %v %v", err, del)
	}
	got, err = c.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("Music"), Key: musicKey()})
	if err != nil || got.Item != nil {
		t.Fatalf("after delete: %v %v", err, got.Item)
	}
}

func TestPutReturnsOldItemAndCountsItems(t *testing.T) {
	c := sortkeytest.New(t).Client()
	createSimple(t, c, "tbl")
	put := func(v string) *dynamodb.PutItemOutput {
		out, err := c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("tbl"), ReturnValues: types.ReturnValueAllOld,
			Item: map[string]types.AttributeValue{"pk": s("k"), "v": s(v)}})
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	if out := put("one"); out.Attributes != nil {
		t.Fatalf("first put returned %v", out.Attributes)
	}
	if out := put("two"); out.Attributes["v"].(*types.AttributeValueMemberS).Value != "one" {
		t.Fatalf("second put returned %v", out.Attributes)
	}
	d, err := c.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String("tbl")})
	if err != nil || *d.Table.ItemCount != 1 || *d.Table.TableSizeBytes != int64(len("pk")+1+len("v")+3) {
		t.Fatalf("count %d size %d err %v", *d.Table.ItemCount, *d.Table.TableSizeBytes, err)
	}
}

func TestNumbersComeBackNormalized(t *testing.T) {
	c := sortkeytest.New(t).Client()
	createSimple(t, c, "tbl")
	cases := map[string]string{"1.50": "1.5", "-0": "0", "1e3": "1000", "0.000120": "0.00012", "+7": "7"}
	for in, want := range cases {
		_, err := c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("tbl"),
			Item: map[string]types.AttributeValue{"pk": s(in), "n": n(in)}})
		if err != nil {
			t.Fatalf("put %s: %v", in, err)
		}
		got, err := c.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("tbl"), Key: map[string]types.AttributeValue{"pk": s(in)}})
		if err != nil || got.Item["n"].(*types.AttributeValueMemberN).Value != want {
			t.Errorf("%s came back as %v (%v), want %s", in, got.Item["n"], err, want)
		}
	}
}

func TestGetItemAttributesToGet(t *testing.T) {
	c := sortkeytest.New(t).Client()
	createMusic(t, c, "Music")
	if _, err := c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("Music"), Item: everyType()}); err != nil {
		t.Fatal(err)
	}
	got, err := c.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("Music"), Key: musicKey(), AttributesToGet: []string{"num", "missing", "bool"}})
	if err != nil || len(got.Item) != 2 || got.Item["num"] == nil || got.Item["bool"] == nil {
		t.Fatalf("projection: %v %v", err, got.Item)
	}
}

func TestItemErrors(t *testing.T) {
	c := sortkeytest.New(t).Client()
	createMusic(t, c, "Music")
	cases := []struct {
		name string
		call func() error
		code string
		msg  string
	}{
		{"wrong key type", func() error {
			return put(c, "Music", map[string]types.AttributeValue{"Artist": n("1"), "SongTitle": s("x")})
		}, "ValidationException", "One or more parameter values were invalid: Type mismatch for key Artist expected: S actual: N"},
		{"missing key", func() error {
			return put(c, "Music", map[string]types.AttributeValue{"Artist": s("a")})
		}, "ValidationException", "One or more parameter values were invalid: Missing the key SongTitle in the item"},
		{"empty key", func() error {
			return put(c, "Music", map[string]types.AttributeValue{"Artist": s(""), "SongTitle": s("x")})
		}, "ValidationException", "One or more parameter values are not valid. The AttributeValue for a key attribute cannot contain an empty string value. Key: Artist"},
		{"oversized item", func() error {
			return put(c, "Music", map[string]types.AttributeValue{"Artist": s("a"), "SongTitle": s("x"), "big": s(strings.Repeat("x", 400*1024))})
		}, "ValidationException", "Item size has exceeded the maximum allowed size"},
		{"hash key too long", func() error {
			return put(c, "Music", map[string]types.AttributeValue{"Artist": s(strings.Repeat("a", 2049)), "SongTitle": s("x")})
		}, "ValidationException", "One or more parameter values were invalid: Size of hashkey has exceeded the maximum size limit of2048 bytes"},
		{"range key too long", func() error {
			return put(c, "Music", map[string]types.AttributeValue{"Artist": s("a"), "SongTitle": s(strings.Repeat("x", 1025))})
		}, "ValidationException", "One or more parameter values were invalid: Aggregated size of all range keys has exceeded the size limit of 1024 bytes"},
		{"index key wrong type", func() error {
			return put(c, "Music", map[string]types.AttributeValue{"Artist": s("a"), "SongTitle": s("x"), "Genre": n("3")})
		}, "ValidationException", "One or more parameter values were invalid: Type mismatch for Index Key Genre Expected: S Actual: N IndexName: ByGenre"},
		{"unknown table put", func() error {
			return put(c, "Nope", map[string]types.AttributeValue{"Artist": s("a")})
		}, "ResourceNotFoundException", "Requested resource not found"},
		{"unknown table get", func() error {
			_, err := c.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("Nope"), Key: musicKey()})
			return err
		}, "ResourceNotFoundException", "Requested resource not found"},
		{"get with partial key", func() error {
			_, err := c.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("Music"), Key: map[string]types.AttributeValue{"Artist": s("a")}})
			return err
		}, "ValidationException", "The provided key element does not match the schema"},
		{"get with wrong key type", func() error {
			_, err := c.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("Music"), Key: map[string]types.AttributeValue{"Artist": s("a"), "SongTitle": n("1")}})
			return err
		}, "ValidationException", "The provided key element does not match the schema"},
		{"delete with extra attribute", func() error {
			k := musicKey()
			k["extra"] = s("x")
			_, err := c.DeleteItem(ctx, &dynamodb.DeleteItemInput{TableName: aws.String("Music"), Key: k})
			return err
		}, "ValidationException", "The provided key element does not match the schema"},
		{"empty string set", func() error {
			return put(c, "Music", map[string]types.AttributeValue{"Artist": s("a"), "SongTitle": s("x"), "ss": &types.AttributeValueMemberSS{Value: []string{}}})
		}, "ValidationException", "1 validation error detected: One or more parameter values were invalid: An string set  may not be empty"},
		{"too many digits", func() error {
			return put(c, "Music", map[string]types.AttributeValue{"Artist": s("a"), "SongTitle": s("x"), "n": n("1234567890123456789012345678901234567890")})
		}, "ValidationException", "1 validation error detected: Attempting to store more than 38 significant digits in a Number"},
		{"table by ARN", func() error {
			return put(c, "arn:aws:dynamodb:us-east-1:000000000000:table/Nope", musicKey())
		}, "ResourceNotFoundException", "Requested resource not found"},
		{"put ReturnValues ALL_NEW", func() error {
			_, err := c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("Music"), Item: musicKey(), ReturnValues: types.ReturnValueAllNew})
			return err
		}, "ValidationException", "ReturnValues can only be ALL_OLD or NONE"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) { wantAPIError(t, tc.call(), tc.code, tc.msg) })
	}
	d, err := c.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String("Music")})
	if err != nil || *d.Table.ItemCount != 0 {
		t.Fatalf("a refused write changed the table: %v %d items", err, *d.Table.ItemCount)
	}
}

func put(c *dynamodb.Client, table string, item map[string]types.AttributeValue) error {
	_, err := c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(table), Item: item})
	return err
}

func TestAnyCredentialsAndRegionSeeOneDatabase(t *testing.T) {
	srv := sortkeytest.New(t)
	createSimple(t, srv.Client(), "shared")
	other := srv.Client(func(o *dynamodb.Options) { o.Region = "eu-west-3" })
	out, err := other.ListTables(ctx, &dynamodb.ListTablesInput{})
	if err != nil || len(out.TableNames) != 1 || out.TableNames[0] != "shared" {
		t.Fatalf("another region sees %v (%v)", out, err)
	}
}

func TestTableNameMayBeAnARN(t *testing.T) {
	c := sortkeytest.New(t).Client()
	arn := createMusic(t, c, "Music").TableArn
	if err := put(c, *arn, musicKey()); err != nil {
		t.Fatal(err)
	}
	got, err := c.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("Music"), Key: musicKey()})
	if err != nil || got.Item == nil {
		t.Fatalf("item put by ARN not found by name: %v", err)
	}
}
