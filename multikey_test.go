package sortkey_test

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/sortkeydb/sortkey/sortkeytest"
)

// Multi-attribute GSI keys: up to four HASH attributes, then up to four
// RANGE ones, each keeping its type.

func keyElems(hashes, ranges []string) []types.KeySchemaElement {
	var ks []types.KeySchemaElement
	for _, h := range hashes {
		ks = append(ks, types.KeySchemaElement{AttributeName: aws.String(h), KeyType: types.KeyTypeHash})
	}
	for _, r := range ranges {
		ks = append(ks, types.KeySchemaElement{AttributeName: aws.String(r), KeyType: types.KeyTypeRange})
	}
	return ks
}

// mkDefs defines each "name:type" attribute.
func mkDefs(attrs ...string) []types.AttributeDefinition {
	var out []types.AttributeDefinition
	for _, a := range attrs {
		name, typ, _ := strings.Cut(a, ":")
		out = append(out, types.AttributeDefinition{AttributeName: aws.String(name), AttributeType: types.ScalarAttributeType(typ)})
	}
	return out
}

func gsi(name string, ks []types.KeySchemaElement) types.GlobalSecondaryIndex {
	return types.GlobalSecondaryIndex{IndexName: aws.String(name), KeySchema: ks,
		Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll}}
}

// createOrders creates table orders keyed by id, with GSI byPlace over
// (tenant S, area N) then (yr N, tag B, label S).
func createOrders(t *testing.T, c *dynamodb.Client, withIndex bool) {
	t.Helper()
	in := &dynamodb.CreateTableInput{TableName: aws.String("orders"), BillingMode: types.BillingModePayPerRequest,
		AttributeDefinitions: mkDefs("id:S"), KeySchema: keyElems([]string{"id"}, nil)}
	if withIndex {
		in.AttributeDefinitions = mkDefs("id:S", "tenant:S", "area:N", "yr:N", "tag:B", "label:S")
		in.GlobalSecondaryIndexes = []types.GlobalSecondaryIndex{gsi("byPlace", placeKey())}
	}
	if _, err := c.CreateTable(ctx, in); err != nil {
		t.Fatal(err)
	}
}

func placeKey() []types.KeySchemaElement {
	return keyElems([]string{"tenant", "area"}, []string{"yr", "tag", "label"})
}

func bin(b ...byte) types.AttributeValue { return &types.AttributeValueMemberB{Value: b} }

// order is an item of orders; a nil value leaves the attribute out.
func order(id string, tenant, area, yr, tag, label types.AttributeValue) map[string]types.AttributeValue {
	it := map[string]types.AttributeValue{"id": s(id)}
	for k, v := range map[string]types.AttributeValue{"tenant": tenant, "area": area, "yr": yr, "tag": tag, "label": label} {
		if v != nil {
			it[k] = v
		}
	}
	return it
}

// loadOrders writes items in an order unrelated to the index's; o5 lacks
// a key attribute and o6 is in another partition.
func loadOrders(t *testing.T, c *dynamodb.Client) {
	t.Helper()
	for _, it := range []map[string]types.AttributeValue{
		order("o1", s("acme"), n("1"), n("2025"), bin(1), s("b")),
		order("o2", s("acme"), n("1"), n("2024"), bin(2), s("a")),
		order("o3", s("acme"), n("1"), n("2025"), bin(0, 1), s("z")),
		order("o4", s("acme"), n("1"), n("2025"), bin(1), s("a")),
		order("o5", s("acme"), n("1"), n("2025"), nil, s("a")),
		order("o6", s("acme"), n("2"), n("2025"), bin(1), s("a")),
		order("o7", s("acme"), n("1"), n("-3"), bin(9), s("q")),
		order("o8", s("acme"), n("1"), n("2025"), bin(1), s("ab")),
	} {
		if _, err := c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("orders"), Item: it}); err != nil {
			t.Fatal(err)
		}
	}
}

// placeIDs queries byPlace in partition (acme, 1) with cond added, both
// directions, returning the forward order's ids after checking the
// reverse order is its reverse.
func placeIDs(t *testing.T, c *dynamodb.Client, cond string, vals map[string]types.AttributeValue) []string {
	t.Helper()
	forward := placeQuery(t, c, cond, vals, true)
	backward := placeQuery(t, c, cond, vals, false)
	slices.Reverse(backward)
	if !slices.Equal(forward, backward) {
		t.Fatalf("%s: forward %v, backward reversed %v", cond, forward, backward)
	}
	return forward
}

func placeQuery(t *testing.T, c *dynamodb.Client, cond string, vals map[string]types.AttributeValue, forward bool) []string {
	t.Helper()
	out, err := c.Query(ctx, placeInput(cond, vals, forward))
	if err != nil {
		t.Fatalf("%s: %v", cond, err)
	}
	return ids(out.Items)
}

func placeInput(cond string, vals map[string]types.AttributeValue, forward bool) *dynamodb.QueryInput {
	all := map[string]types.AttributeValue{":t": s("acme"), ":r": n("1")}
	for k, v := range vals {
		all[k] = v
	}
	expr := "tenant = :t AND area = :r"
	if cond != "" {
		expr = cond + " AND " + expr // clauses in any order
	}
	return &dynamodb.QueryInput{TableName: aws.String("orders"), IndexName: aws.String("byPlace"),
		KeyConditionExpression: aws.String(expr), ExpressionAttributeValues: all, ScanIndexForward: aws.Bool(forward)}
}

func ids(items []map[string]types.AttributeValue) []string {
	out := []string{}
	for _, it := range items {
		out = append(out, it["id"].(*types.AttributeValueMemberS).Value)
	}
	return out
}

// TestMultiKeyGSIOrderAndConditions: the index holds only items with every
// key attribute, sorted by yr (number), tag (bytes), then label (string);
// every allowed key condition shape selects its part of that order.
func TestMultiKeyGSIOrderAndConditions(t *testing.T) {
	c := sortkeytest.New(t).Client()
	createOrders(t, c, true)
	loadOrders(t, c)
	all := []string{"o7", "o2", "o3", "o4", "o8", "o1"}
	for _, q := range []struct {
		cond string
		vals map[string]types.AttributeValue
		want []string
	}{
		{"", nil, all},
		{"yr = :y", map[string]types.AttributeValue{":y": n("2025")}, all[2:]},
		{"yr < :y", map[string]types.AttributeValue{":y": n("2025")}, all[:2]},
		{"yr BETWEEN :a AND :b", map[string]types.AttributeValue{":a": n("-3"), ":b": n("2024")}, all[:2]},
		{"tag = :g AND yr = :y", map[string]types.AttributeValue{":y": n("2025"), ":g": bin(1)}, []string{"o4", "o8", "o1"}},
		{"yr = :y AND tag > :g", map[string]types.AttributeValue{":y": n("2025"), ":g": bin(0, 1)}, []string{"o4", "o8", "o1"}},
		{"yr = :y AND begins_with(tag, :g)", map[string]types.AttributeValue{":y": n("2025"), ":g": bin(0)}, []string{"o3"}},
		{"yr = :y AND tag = :g AND label = :m", map[string]types.AttributeValue{":y": n("2025"), ":g": bin(1), ":m": s("a")}, []string{"o4"}},
		{"yr = :y AND tag = :g AND begins_with(label, :m)", map[string]types.AttributeValue{":y": n("2025"), ":g": bin(1), ":m": s("a")}, []string{"o4", "o8"}},
		{"yr = :y AND tag = :g AND label >= :m", map[string]types.AttributeValue{":y": n("2025"), ":g": bin(1), ":m": s("ab")}, []string{"o8", "o1"}},
		{"yr = :y AND tag = :g AND label <= :m", map[string]types.AttributeValue{":y": n("2025"), ":g": bin(1), ":m": s("ab")}, []string{"o4", "o8"}},
	} {
		if got := placeIDs(t, c, q.cond, q.vals); !slices.Equal(got, q.want) {
			t.Errorf("%s: got %v, want %v", q.cond, got, q.want)
		}
	}
}

// TestMultiKeyGSIRefusedConditions: every partition attribute needs =, and
// sort attributes are read left to right with one final condition.
func TestMultiKeyGSIRefusedConditions(t *testing.T) {
	c := sortkeytest.New(t).Client()
	createOrders(t, c, true)
	gap := "RANGE key attributes %s must have equality conditions specified in the query because a condition is present on key attribute %s"
	for _, q := range []struct {
		expr string
		vals map[string]types.AttributeValue
		want string
	}{
		// facts 18.1, 18.2: each HASH attribute needs an equality.
		{"tenant = :t", map[string]types.AttributeValue{":t": s("acme")}, "HASH key attributes tenant, area must have equality conditions specified in the query"},
		{"tenant = :t AND area > :r", map[string]types.AttributeValue{":t": s("acme"), ":r": n("1")}, "HASH key attributes tenant, area must have equality conditions specified in the query"},
		{"tenant = :t AND area BETWEEN :r AND :r", map[string]types.AttributeValue{":t": s("acme"), ":r": n("1")}, "HASH key attributes tenant, area must have equality conditions specified in the query"},
		{"tenant = :t AND area = :r AND tag = :g", map[string]types.AttributeValue{":t": s("acme"), ":r": n("1"), ":g": bin(1)}, fmt.Sprintf(gap, "yr", "tag")},
		{"tenant = :t AND area = :r AND yr = :y AND label = :m", map[string]types.AttributeValue{":t": s("acme"), ":r": n("1"), ":y": n("1"), ":m": s("a")}, fmt.Sprintf(gap, "tag", "label")},
		{"tenant = :t AND area = :r AND yr > :y AND tag = :g", map[string]types.AttributeValue{":t": s("acme"), ":r": n("1"), ":y": n("1"), ":g": bin(1)}, fmt.Sprintf(gap, "yr", "tag")},
	} {
		_, err := c.Query(ctx, &dynamodb.QueryInput{TableName: aws.String("orders"), IndexName: aws.String("byPlace"),
			KeyConditionExpression: aws.String(q.expr), ExpressionAttributeValues: q.vals})
		wantAPIError(t, err, "ValidationException", q.want)
	}
}

// TestMultiKeyGSIPaging: each LastEvaluatedKey holds the table key and
// every index key attribute, and resumes where the page stopped.
func TestMultiKeyGSIPaging(t *testing.T) {
	c := sortkeytest.New(t).Client()
	createOrders(t, c, true)
	loadOrders(t, c)
	for _, forward := range []bool{true, false} {
		in := placeInput("", nil, forward)
		in.Limit = aws.Int32(2)
		var got []string
		for {
			out, err := c.Query(ctx, in)
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, ids(out.Items)...)
			if out.LastEvaluatedKey == nil {
				break
			}
			if len(out.LastEvaluatedKey) != 6 {
				t.Fatalf("LastEvaluatedKey %v", out.LastEvaluatedKey)
			}
			in.ExclusiveStartKey = out.LastEvaluatedKey
		}
		if want := placeQuery(t, c, "", nil, forward); !slices.Equal(got, want) {
			t.Errorf("forward %v: pages %v, one query %v", forward, got, want)
		}
	}
}

// TestMultiKeyGSIStartKeyNeedsEveryAttribute: a start key without one of
// the index's key attributes is not a key of the index.
func TestMultiKeyGSIStartKeyNeedsEveryAttribute(t *testing.T) {
	c := sortkeytest.New(t).Client()
	createOrders(t, c, true)
	in := placeInput("", nil, true)
	in.ExclusiveStartKey = order("o1", s("acme"), n("1"), n("2025"), nil, s("b"))
	_, err := c.Query(ctx, in)
	wantAPIError(t, err, "ValidationException", "The provided starting key is invalid")
}

// TestMultiKeyGSIScanAndDescribe: a Scan of the index returns its members
// only; DescribeTable echoes the key schema as given.
func TestMultiKeyGSIScanAndDescribe(t *testing.T) {
	c := sortkeytest.New(t).Client()
	createOrders(t, c, true)
	loadOrders(t, c)
	out, err := c.Scan(ctx, &dynamodb.ScanInput{TableName: aws.String("orders"), IndexName: aws.String("byPlace")})
	if err != nil {
		t.Fatal(err)
	}
	got := ids(out.Items)
	slices.Sort(got)
	if want := []string{"o1", "o2", "o3", "o4", "o6", "o7", "o8"}; !slices.Equal(got, want) {
		t.Errorf("scan: got %v, want %v", got, want)
	}
	d, err := c.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String("orders")})
	if err != nil {
		t.Fatal(err)
	}
	if ks := d.Table.GlobalSecondaryIndexes[0].KeySchema; fmt.Sprint(keyNames(ks)) != fmt.Sprint(keyNames(placeKey())) {
		t.Errorf("key schema %v", keyNames(ks))
	}
}

func keyNames(ks []types.KeySchemaElement) []string {
	var out []string
	for _, k := range ks {
		out = append(out, *k.AttributeName+" "+string(k.KeyType))
	}
	return out
}

// TestMultiKeyGSIWriteTypeCheck: each index key attribute is type-checked
// on write, with the message naming it.
func TestMultiKeyGSIWriteTypeCheck(t *testing.T) {
	c := sortkeytest.New(t).Client()
	createOrders(t, c, true)
	_, err := c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("orders"),
		Item: order("o1", s("acme"), n("1"), n("2025"), s("x"), s("a"))})
	wantAPIError(t, err, "ValidationException", "One or more parameter values were invalid: Type mismatch for Index Key tag Expected: B Actual: S IndexName: byPlace")
}

// TestMultiKeyGSIOnlineCreation: UpdateTable adds the index over existing
// items, which the backfill enters in the compound order.
func TestMultiKeyGSIOnlineCreation(t *testing.T) {
	c := sortkeytest.New(t).Client()
	createOrders(t, c, false)
	loadOrders(t, c)
	_, err := c.UpdateTable(ctx, &dynamodb.UpdateTableInput{TableName: aws.String("orders"),
		AttributeDefinitions: mkDefs("id:S", "tenant:S", "area:N", "yr:N", "tag:B", "label:S"),
		GlobalSecondaryIndexUpdates: []types.GlobalSecondaryIndexUpdate{{Create: &types.CreateGlobalSecondaryIndexAction{
			IndexName: aws.String("byPlace"), KeySchema: placeKey(), Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll}}}}})
	if err != nil {
		t.Fatal(err)
	}
	waitActive(t, c, "orders", "byPlace")
	if got, want := placeIDs(t, c, "", nil), []string{"o7", "o2", "o3", "o4", "o8", "o1"}; !slices.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}

// TestMultiKeyGSISchemaErrors: the key schema rules of CreateTable and
// UpdateTable, with DynamoDB's texts; tables and LSIs keep two elements.
func TestMultiKeyGSISchemaErrors(t *testing.T) {
	c := sortkeytest.New(t).Client()
	h, r := types.KeyTypeHash, types.KeyTypeRange
	elems := func(pairs ...any) []types.KeySchemaElement {
		var ks []types.KeySchemaElement
		for i := 0; i < len(pairs); i += 2 {
			ks = append(ks, types.KeySchemaElement{AttributeName: aws.String(pairs[i].(string)), KeyType: pairs[i+1].(types.KeyType)})
		}
		return ks
	}
	for _, tc := range []struct {
		ks   []types.KeySchemaElement
		want string
	}{
		{elems("a", r, "b", h), "Invalid KeySchema: The first KeySchemaElement is not a HASH key type"},
		{elems("a", h, "b", r, "c", h), "One or more parameter values were invalid: All HASH key attributes must precede RANGE key attributes in the KeySchema"},
		{elems("a", h, "b", h, "c", h, "d", h, "e", h), "One or more parameter values were invalid: The KeySchema exceeds the maximum allowed number of HASH key attributes"},
		{elems("a", h, "b", r, "c", r, "d", r, "e", r, "f", r), "One or more parameter values were invalid: The KeySchema exceeds the maximum allowed number of RANGE key attributes"},
		{elems("a", h, "b", r, "a", r), "The KeySchema contains multiple key attributes with the same name"},
	} {
		_, err := c.CreateTable(ctx, &dynamodb.CreateTableInput{TableName: aws.String("bad"), BillingMode: types.BillingModePayPerRequest,
			AttributeDefinitions: definedOnce(tc.ks), KeySchema: keyElems([]string{"pk"}, nil),
			GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{gsi("gx1", tc.ks)}})
		wantAPIError(t, err, "ValidationException", tc.want)
	}
	createOrders(t, c, false)
	_, err := c.UpdateTable(ctx, &dynamodb.UpdateTableInput{TableName: aws.String("orders"), AttributeDefinitions: mkDefs("a:S", "b:S", "c:S", "d:S", "e:S"),
		GlobalSecondaryIndexUpdates: []types.GlobalSecondaryIndexUpdate{{Create: &types.CreateGlobalSecondaryIndexAction{IndexName: aws.String("gx1"),
			KeySchema: elems("a", h, "b", h, "c", h, "d", h, "e", h), Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll}}}}})
	wantAPIError(t, err, "ValidationException", "One or more parameter values were invalid: The KeySchema exceeds the maximum allowed number of HASH key attributes")
}

// definedOnce defines pk and each attribute of ks as strings.
func definedOnce(ks []types.KeySchemaElement) []types.AttributeDefinition {
	names := []string{"pk:S"}
	for _, k := range ks {
		if n := *k.AttributeName + ":S"; !slices.Contains(names, n) {
			names = append(names, n)
		}
	}
	return mkDefs(names...)
}

// TestMultiKeyOnlyForGSIs: a table's key schema, and an LSI's, stay at
// two elements.
func TestMultiKeyOnlyForGSIs(t *testing.T) {
	c := sortkeytest.New(t).Client()
	_, err := c.CreateTable(ctx, &dynamodb.CreateTableInput{TableName: aws.String("bad"), BillingMode: types.BillingModePayPerRequest,
		AttributeDefinitions: mkDefs("a:S", "b:S", "c:S"), KeySchema: keyElems([]string{"a"}, []string{"b", "c"})})
	wantAPIError(t, err, "ValidationException", "1 validation error detected: Value '[KeySchemaElement(attributeName=a, keyType=HASH), "+
		"KeySchemaElement(attributeName=b, keyType=RANGE), KeySchemaElement(attributeName=c, keyType=RANGE)]' at 'keySchema' failed to satisfy constraint: "+
		"Member must have length less than or equal to 2")
}

// TestMultiKeyGSILegacyKeyConditions: KeyConditions follow the same rules,
// with as many conditions as the index has key attributes.
func TestMultiKeyGSILegacyKeyConditions(t *testing.T) {
	c := sortkeytest.New(t).Client()
	createOrders(t, c, true)
	loadOrders(t, c)
	cond := func(op types.ComparisonOperator, vs ...types.AttributeValue) types.Condition {
		return types.Condition{ComparisonOperator: op, AttributeValueList: vs}
	}
	conds := map[string]types.Condition{"tenant": cond("EQ", s("acme")), "area": cond("EQ", n("1")),
		"yr": cond("EQ", n("2025")), "tag": cond("EQ", bin(1)), "label": cond("BEGINS_WITH", s("a"))}
	in := &dynamodb.QueryInput{TableName: aws.String("orders"), IndexName: aws.String("byPlace"), KeyConditions: conds}
	out, err := c.Query(ctx, in)
	if err != nil {
		t.Fatal(err)
	}
	if got := ids(out.Items); !slices.Equal(got, []string{"o4", "o8"}) {
		t.Errorf("got %v", got)
	}
	delete(conds, "tag")
	_, err = c.Query(ctx, in)
	wantAPIError(t, err, "ValidationException", "RANGE key attributes tag must have equality conditions specified in the query because a condition is present on key attribute label")
	conds["tag"], conds["id"] = cond("EQ", bin(1)), cond("EQ", s("o1"))
	_, err = c.Query(ctx, in)
	wantAPIError(t, err, "ValidationException", "Conditions can be of length 1 or 2 only")
}

// TestMultiKeyGSIUpdatesMoveEntries: changing a sort attribute moves the
// item within the index; removing a key attribute takes it out; a
// transaction's writes are type-checked like a PutItem's.
func TestMultiKeyGSIUpdatesMoveEntries(t *testing.T) {
	c := sortkeytest.New(t).Client()
	createOrders(t, c, true)
	loadOrders(t, c)
	key := map[string]types.AttributeValue{"id": s("o7")}
	_, err := c.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String("orders"), Key: key,
		UpdateExpression: aws.String("SET yr = :y"), ExpressionAttributeValues: map[string]types.AttributeValue{":y": n("3000")}})
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String("orders"), Key: map[string]types.AttributeValue{"id": s("o3")},
		UpdateExpression: aws.String("REMOVE tag")})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := placeIDs(t, c, "", nil), []string{"o2", "o4", "o8", "o1", "o7"}; !slices.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
	_, err = c.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{{Put: &types.Put{
		TableName: aws.String("orders"), Item: order("o9", s("acme"), n("1"), s("2025"), bin(1), s("a"))}}}})
	// facts 34.3: an item that does not fit cancels the transaction.
	var tc *types.TransactionCanceledException
	if !errors.As(err, &tc) || len(tc.CancellationReasons) != 1 || aws.ToString(tc.CancellationReasons[0].Code) != "ValidationError" ||
		aws.ToString(tc.CancellationReasons[0].Message) != "One or more parameter values were invalid: Type mismatch for Index Key yr Expected: N Actual: S IndexName: byPlace" {
		t.Fatalf("want a ValidationError cancellation, got %v", err)
	}
}

// TestMultiKeyGSIReadChecks: a filter may not read any index key
// attribute; a start key must hold the values held equal; a parallel Scan
// of the index splits it without loss.
func TestMultiKeyGSIReadChecks(t *testing.T) {
	c := sortkeytest.New(t).Client()
	createOrders(t, c, true)
	loadOrders(t, c)
	in := placeInput("", nil, true)
	in.FilterExpression, in.ExpressionAttributeValues[":x"] = aws.String("label = :x"), s("a")
	_, err := c.Query(ctx, in)
	wantAPIError(t, err, "ValidationException", "Filter Expression can only contain non-primary key attributes: Primary key attribute: label")
	in = placeInput("yr = :y AND tag >= :g", map[string]types.AttributeValue{":y": n("2025"), ":g": bin(1)}, true)
	in.ExclusiveStartKey = order("o2", s("acme"), n("1"), n("2024"), bin(2), s("a"))
	_, err = c.Query(ctx, in)
	wantAPIError(t, err, "ValidationException", "The provided starting key does not match the range key predicate")
	var got []string
	for seg := range int32(3) {
		out, err := c.Scan(ctx, &dynamodb.ScanInput{TableName: aws.String("orders"), IndexName: aws.String("byPlace"),
			Segment: aws.Int32(seg), TotalSegments: aws.Int32(3)})
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, ids(out.Items)...)
	}
	slices.Sort(got)
	if want := []string{"o1", "o2", "o3", "o4", "o6", "o7", "o8"}; !slices.Equal(got, want) {
		t.Errorf("segments: got %v, want %v", got, want)
	}
}

// TestMultiKeyNotForLSIs: an LSI's key schema stays at two elements.
func TestMultiKeyNotForLSIs(t *testing.T) {
	c := sortkeytest.New(t).Client()
	_, err := c.CreateTable(ctx, &dynamodb.CreateTableInput{TableName: aws.String("bad"), BillingMode: types.BillingModePayPerRequest,
		AttributeDefinitions: mkDefs("a:S", "b:S", "c:S", "d:S"), KeySchema: keyElems([]string{"a"}, []string{"b"}),
		LocalSecondaryIndexes: []types.LocalSecondaryIndex{{IndexName: aws.String("lsi"), KeySchema: keyElems([]string{"a"}, []string{"c", "d"}),
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll}}}})
	wantAPIError(t, err, "ValidationException", "1 validation error detected: Value '[KeySchemaElement(attributeName=a, keyType=HASH), "+
		"KeySchemaElement(attributeName=c, keyType=RANGE), KeySchemaElement(attributeName=d, keyType=RANGE)]' at 'localSecondaryIndexes.1.member.keySchema' "+
		"failed to satisfy constraint: Member must have length less than or equal to 2")
}

// TestMultiKeyRolesArePerIndex: the same four attributes are HASH in one
// index and RANGE in the other; conditions only on gsi_swapped's RANGE
// attributes miss its HASH equalities, while its own HASH ones serve
// (facts 18.5, rule 16).
func TestMultiKeyRolesArePerIndex(t *testing.T) {
	c := sortkeytest.New(t).Client()
	ks := func(h1, h2, r1, r2 string) []types.KeySchemaElement {
		return []types.KeySchemaElement{{AttributeName: aws.String(h1), KeyType: types.KeyTypeHash}, {AttributeName: aws.String(h2), KeyType: types.KeyTypeHash},
			{AttributeName: aws.String(r1), KeyType: types.KeyTypeRange}, {AttributeName: aws.String(r2), KeyType: types.KeyTypeRange}}
	}
	all := &types.Projection{ProjectionType: types.ProjectionTypeAll}
	_, err := c.CreateTable(ctx, &dynamodb.CreateTableInput{TableName: aws.String("roles"), BillingMode: types.BillingModePayPerRequest,
		AttributeDefinitions: attrDefs("p", "h1", "h2", "r1", "r2"), KeySchema: keySchema("p", ""),
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{
			{IndexName: aws.String("gsi_normal"), KeySchema: ks("h1", "h2", "r1", "r2"), Projection: all},
			{IndexName: aws.String("gsi_swapped"), KeySchema: ks("r1", "r2", "h1", "h2"), Projection: all}}})
	if err != nil {
		t.Fatal(err)
	}
	vals := map[string]types.AttributeValue{":a": s("a"), ":b": s("b"), ":c": s("c"), ":d": s("d")}
	for _, q := range []struct{ index, cond, want string }{
		{"gsi_swapped", "h1 = :a AND h2 = :b", "HASH key attributes r1, r2 must have equality conditions specified in the query"},
		{"gsi_swapped", "r1 = :c AND r2 = :d", ""},
		{"gsi_swapped", "r1 = :c AND r2 = :d AND h1 = :a AND h2 = :b", ""},
		{"gsi_normal", "h1 = :a AND h2 = :b", ""},
		{"gsi_normal", "r1 = :c AND r2 = :d", "HASH key attributes h1, h2 must have equality conditions specified in the query"},
	} {
		used := map[string]types.AttributeValue{}
		for k, v := range vals {
			if strings.Contains(q.cond, k) {
				used[k] = v
			}
		}
		_, err := c.Query(ctx, &dynamodb.QueryInput{TableName: aws.String("roles"), IndexName: aws.String(q.index),
			KeyConditionExpression: aws.String(q.cond), ExpressionAttributeValues: used})
		if q.want == "" && err != nil {
			t.Errorf("%s %s: %v", q.index, q.cond, err)
		} else if q.want != "" {
			wantAPIError(t, err, "ValidationException", q.want)
		}
	}
}
