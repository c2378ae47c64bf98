package sortkey_test

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/sortkeydb/sortkey/sortkeytest"
)

// createTyped creates table name keyed pk (S) and sk of the given type.
func createTyped(t *testing.T, c *dynamodb.Client, name string, skType types.ScalarAttributeType) {
	t.Helper()
	_, err := c.CreateTable(ctx, &dynamodb.CreateTableInput{
		TableName: aws.String(name),
		AttributeDefinitions: []types.AttributeDefinition{
			{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS},
			{AttributeName: aws.String("sk"), AttributeType: skType},
		},
		KeySchema: []types.KeySchemaElement{
			{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash},
			{AttributeName: aws.String("sk"), KeyType: types.KeyTypeRange},
		},
		BillingMode: types.BillingModePayPerRequest,
	})
	if err != nil {
		t.Fatal(err)
	}
}

func queryAll(t *testing.T, c *dynamodb.Client, in *dynamodb.QueryInput) []map[string]types.AttributeValue {
	t.Helper()
	var out []map[string]types.AttributeValue
	p := dynamodb.NewQueryPaginator(c, in)
	for p.HasMorePages() {
		page, err := p.NextPage(ctx)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, page.Items...)
	}
	return out
}

func strs(items []map[string]types.AttributeValue, attr string) string {
	var parts []string
	for _, it := range items {
		switch v := it[attr].(type) {
		case *types.AttributeValueMemberS:
			parts = append(parts, v.Value)
		case *types.AttributeValueMemberN:
			parts = append(parts, v.Value)
		case *types.AttributeValueMemberB:
			parts = append(parts, fmt.Sprintf("%x", v.Value))
		default:
			parts = append(parts, "?")
		}
	}
	return strings.Join(parts, ",")
}

func TestSortOrderOfEveryKeyType(t *testing.T) {
	c := sortkeytest.New(t).Client()
	cases := []struct {
		typ  types.ScalarAttributeType
		vals []types.AttributeValue
		want string
	}{
		{types.ScalarAttributeTypeN, []types.AttributeValue{n("10"), n("-1e3"), n("2.5"), n("-0.001"), n("0"), n("1e-5"), n("-2.5"), n("9.99e125"), n("-9.99e125"), n("100")},
			"-999" + strings.Repeat("0", 123) + ",-1000,-2.5,-0.001,0,0.00001,2.5,10,100,999" + strings.Repeat("0", 123)},
		{types.ScalarAttributeTypeS, []types.AttributeValue{s("b"), s("a"), s("é"), s("aa"), s("Z"), s("日本"), s("a\u0000b")},
			"Z,a,a\u0000b,aa,b,é,日本"},
		{types.ScalarAttributeTypeB, []types.AttributeValue{&types.AttributeValueMemberB{Value: []byte{0xff}}, &types.AttributeValueMemberB{Value: []byte{0}},
			&types.AttributeValueMemberB{Value: []byte{0, 0}}, &types.AttributeValueMemberB{Value: []byte{0x7f}}, &types.AttributeValueMemberB{Value: []byte{0x80, 1}}},
			"00,0000,7f,8001,ff"},
	}
	for _, tc := range cases {
		t.Run(string(tc.typ), func(t *testing.T) {
			name := "sort" + string(tc.typ)
			createTyped(t, c, name, tc.typ)
			for _, v := range tc.vals {
				if err := put(c, name, map[string]types.AttributeValue{"pk": s("p"), "sk": v}); err != nil {
					t.Fatal(err)
				}
			}
			q := &dynamodb.QueryInput{TableName: aws.String(name), KeyConditionExpression: aws.String("pk = :p"),
				ExpressionAttributeValues: map[string]types.AttributeValue{":p": s("p")}}
			if got := strs(queryAll(t, c, q), "sk"); got != tc.want {
				t.Fatalf("forward:\n got %s\nwant %s", got, tc.want)
			}
			q.ScanIndexForward = aws.Bool(false)
			back := queryAll(t, c, q)
			sort.SliceStable(back, func(i, j int) bool { return i > j })
			if got := strs(back, "sk"); got != tc.want {
				t.Fatalf("backward reversed:\n got %s\nwant %s", got, tc.want)
			}
		})
	}
}

func TestQueryKeyConditions(t *testing.T) {
	c := sortkeytest.New(t).Client()
	createTyped(t, c, "kcq", types.ScalarAttributeTypeS)
	for _, sk := range []string{"A#1", "A#2", "B#1", "B#2", "B#3", "C"} {
		if err := put(c, "kcq", map[string]types.AttributeValue{"pk": s("p"), "sk": s(sk), "v": n("1")}); err != nil {
			t.Fatal(err)
		}
	}
	if err := put(c, "kcq", map[string]types.AttributeValue{"pk": s("other"), "sk": s("B#1")}); err != nil {
		t.Fatal(err)
	}
	cases := map[string]string{
		"pk = :p":                              "A#1,A#2,B#1,B#2,B#3,C",
		"pk = :p AND sk = :b1":                 "B#1",
		"pk = :p AND sk < :b1":                 "A#1,A#2",
		"pk = :p AND sk <= :b1":                "A#1,A#2,B#1",
		"pk = :p AND sk > :b1":                 "B#2,B#3,C",
		"pk = :p AND sk >= :b1":                "B#1,B#2,B#3,C",
		"pk = :p AND sk BETWEEN :a2 AND :b2":   "A#2,B#1,B#2",
		"pk = :p AND begins_with(sk, :b)":      "B#1,B#2,B#3",
		":p = pk AND :b1 < sk":                 "B#2,B#3,C",
		"pk = :p AND begins_with(sk, :absent)": "",
	}
	vals := map[string]types.AttributeValue{":p": s("p"), ":b1": s("B#1"), ":a2": s("A#2"), ":b2": s("B#2"), ":b": s("B#"), ":absent": s("Z")}
	for cond, want := range cases {
		used := map[string]types.AttributeValue{}
		for k, v := range vals {
			if containsToken(cond, k) {
				used[k] = v
			}
		}
		got := strs(queryAll(t, c, &dynamodb.QueryInput{TableName: aws.String("kcq"), KeyConditionExpression: aws.String(cond),
			ExpressionAttributeValues: used}), "sk")
		if got != want {
			t.Errorf("%s: got %q want %q", cond, got, want)
		}
	}
	out, err := c.Query(ctx, &dynamodb.QueryInput{TableName: aws.String("kcq"), KeyConditionExpression: aws.String("pk = :p"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":p": s("p")}, ScanIndexForward: aws.Bool(false), Limit: aws.Int32(2)})
	if err != nil || strs(out.Items, "sk") != "C,B#3" || out.LastEvaluatedKey == nil || out.ScannedCount != 2 {
		t.Fatalf("newest two: %v %v %v", err, strs(out.Items, "sk"), out.LastEvaluatedKey)
	}
}

func TestQueryFilterCountsAndSelect(t *testing.T) {
	c := sortkeytest.New(t).Client()
	createTyped(t, c, "flt", types.ScalarAttributeTypeN)
	for i := 0; i < 10; i++ {
		if err := put(c, "flt", map[string]types.AttributeValue{"pk": s("p"), "sk": n(fmt.Sprint(i)), "even": &types.AttributeValueMemberBOOL{Value: i%2 == 0}}); err != nil {
			t.Fatal(err)
		}
	}
	out, err := c.Query(ctx, &dynamodb.QueryInput{TableName: aws.String("flt"), KeyConditionExpression: aws.String("pk = :p"),
		FilterExpression: aws.String("even = :t"), Limit: aws.Int32(5),
		ExpressionAttributeValues: map[string]types.AttributeValue{":p": s("p"), ":t": &types.AttributeValueMemberBOOL{Value: true}}})
	if err != nil || out.Count != 3 || out.ScannedCount != 5 || strs(out.Items, "sk") != "0,2,4" {
		t.Fatalf("filter with limit: %v count %d scanned %d %s", err, out.Count, out.ScannedCount, strs(out.Items, "sk"))
	}
	cnt, err := c.Query(ctx, &dynamodb.QueryInput{TableName: aws.String("flt"), KeyConditionExpression: aws.String("pk = :p"),
		Select: types.SelectCount, ExpressionAttributeValues: map[string]types.AttributeValue{":p": s("p")}})
	if err != nil || cnt.Count != 10 || cnt.Items != nil {
		t.Fatalf("COUNT: %v %d %v", err, cnt.Count, cnt.Items)
	}
	proj, err := c.Query(ctx, &dynamodb.QueryInput{TableName: aws.String("flt"), KeyConditionExpression: aws.String("pk = :p"),
		ProjectionExpression: aws.String("sk"), Limit: aws.Int32(1), ExpressionAttributeValues: map[string]types.AttributeValue{":p": s("p")}})
	if err != nil || len(proj.Items) != 1 || len(proj.Items[0]) != 1 {
		t.Fatalf("projection: %v %v", err, proj.Items)
	}
}
