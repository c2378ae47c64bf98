package sortkey_test

import (
	"reflect"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/sortkeydb/sortkey/sortkeytest"
)

// The member order DynamoDB Local returns (docs/COMPATIBILITY.md, sets):
// strings by code point, numbers by value, binaries by signed bytes.
var (
	canonicalSS = []string{"10", "9", "AAA", "B", "aa", "mm", "zz", "zzz", "é"}
	canonicalNS = []string{"-5", "0.01", "1.5", "9", "10", "100"}
	canonicalBS = [][]byte{{0x80}, {0xFF}, {0x00}, {0x01}}
)

// scrambledSets is an item whose sets are written in no particular order.
func scrambledSets() map[string]types.AttributeValue {
	return map[string]types.AttributeValue{
		"pk": s("p"), "sk": s("s"),
		"ss": &types.AttributeValueMemberSS{Value: []string{"zz", "é", "9", "aa", "10", "AAA", "B", "mm", "zzz"}},
		"ns": &types.AttributeValueMemberNS{Value: []string{"100", "9", "1.5", "-5", "10", "0.01"}},
		"bs": &types.AttributeValueMemberBS{Value: [][]byte{{0x01}, {0xFF}, {0x00}, {0x80}}},
	}
}

func wantCanonicalSets(t *testing.T, where string, it map[string]types.AttributeValue) {
	t.Helper()
	ss, _ := it["ss"].(*types.AttributeValueMemberSS)
	ns, _ := it["ns"].(*types.AttributeValueMemberNS)
	bs, _ := it["bs"].(*types.AttributeValueMemberBS)
	if ss == nil || ns == nil || bs == nil {
		t.Fatalf("%s: sets missing from %v", where, it)
	}
	if !reflect.DeepEqual(ss.Value, canonicalSS) || !reflect.DeepEqual(ns.Value, canonicalNS) || !reflect.DeepEqual(bs.Value, canonicalBS) {
		t.Errorf("%s: got SS %q NS %q BS %x", where, ss.Value, ns.Value, bs.Value)
	}
}

func TestSetMembersComeBackInDynamoDBLocalOrder(t *testing.T) {
	c := sortkeytest.New(t).Client()
	createTyped(t, c, "sets", types.ScalarAttributeTypeS)
	if err := put(c, "sets", scrambledSets()); err != nil {
		t.Fatal(err)
	}
	key := map[string]types.AttributeValue{"pk": s("p"), "sk": s("s")}
	got, err := c.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("sets"), Key: key})
	if err != nil {
		t.Fatal(err)
	}
	wantCanonicalSets(t, "GetItem", got.Item)
	q := queryAll(t, c, &dynamodb.QueryInput{TableName: aws.String("sets"), KeyConditionExpression: aws.String("pk = :p"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":p": s("p")}})
	wantCanonicalSets(t, "Query", q[0])
	sc := scanAll(t, c, &dynamodb.ScanInput{TableName: aws.String("sets")})
	wantCanonicalSets(t, "Scan", sc[0])
}

// TestSetAddKeepsCanonicalOrder adds members, in no order, to sets that
// exist and to sets that do not, and checks what ReturnValues and GetItem
// show.
func TestSetAddKeepsCanonicalOrder(t *testing.T) {
	c := sortkeytest.New(t).Client()
	createTyped(t, c, "sets", types.ScalarAttributeTypeS)
	key := map[string]types.AttributeValue{"pk": s("p"), "sk": s("s")}
	add := func(ss []string, ns []string, bs [][]byte) map[string]types.AttributeValue {
		out, err := c.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String("sets"), Key: key,
			UpdateExpression: aws.String("ADD ss :ss, ns :ns, bs :bs"), ReturnValues: types.ReturnValueUpdatedNew,
			ExpressionAttributeValues: map[string]types.AttributeValue{
				":ss": &types.AttributeValueMemberSS{Value: ss},
				":ns": &types.AttributeValueMemberNS{Value: ns},
				":bs": &types.AttributeValueMemberBS{Value: bs},
			}})
		if err != nil {
			t.Fatal(err)
		}
		return out.Attributes
	}
	add([]string{"zz", "é", "9", "aa"}, []string{"100", "9", "1.5"}, [][]byte{{0x01}, {0xFF}})
	wantCanonicalSets(t, "ADD UPDATED_NEW", add([]string{"10", "AAA", "B", "mm", "zzz", "aa"}, []string{"-5", "10", "0.01"}, [][]byte{{0x00}, {0x80}}))
	got, err := c.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("sets"), Key: key})
	if err != nil {
		t.Fatal(err)
	}
	wantCanonicalSets(t, "GetItem after ADD", got.Item)
}
