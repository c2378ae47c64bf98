package sortkey_test

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go"

	"github.com/sortkeydb/sortkey/sortkeytest"
)

// baseItem is the item every expression case starts from: one attribute of
// each shape the cases need.
func baseItem(t *testing.T) map[string]types.AttributeValue {
	t.Helper()
	it := av(t, map[string]any{
		"pk": "k", "n": 5, "s": "hello", "b": []byte("bin"), "flag": true, "nul": nil,
		"l": []any{1, "two", map[string]any{"m": 1}}, "m": map[string]any{"a": map[string]any{"b": "deep"}},
		"dot.name": "dotted",
	})
	it["ss"] = &types.AttributeValueMemberSS{Value: []string{"x", "y"}}
	it["ns"] = &types.AttributeValueMemberNS{Value: []string{"1", "2"}}
	return it
}

func av(t *testing.T, m map[string]any) map[string]types.AttributeValue {
	t.Helper()
	out, err := attributevalue.MarshalMap(m)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// vals are the expression attribute values every condition case may use.
func vals(t *testing.T) map[string]types.AttributeValue {
	v := av(t, map[string]any{":one": 1, ":five": 5, ":ten": 10, ":three": 3, ":hello": "hello", ":he": "he",
		":ell": "ell", ":x": "x", ":two": "two", ":a": "a", ":sfive": "5", ":dotted": "dotted", ":SS": "SS", ":N": "N"})
	return v
}

func TestConditionExpressions(t *testing.T) {
	c := sortkeytest.New(t).Client()
	createSimple(t, c, "cond")
	cases := []struct {
		cond  string
		names map[string]string
		pass  bool
	}{
		{"n = :five", nil, true}, {"n <> :five", nil, false}, {"n < :ten", nil, true}, {"n <= :five", nil, true},
		{"n > :ten", nil, false}, {"n >= :five", nil, true}, {"s = :sfive", nil, false}, {"n = :sfive", nil, false},
		{"s < :five", nil, false}, {"n BETWEEN :one AND :ten", nil, true}, {"n BETWEEN :one AND :three", nil, false},
		{"s IN (:a, :hello)", nil, true}, {"s IN (:a, :x)", nil, false},
		{"attribute_exists(m.a.b)", nil, true}, {"attribute_exists(m.a.c)", nil, false},
		{"attribute_not_exists(absent)", nil, true}, {"attribute_exists(l[2].m)", nil, true}, {"attribute_exists(l[3])", nil, false},
		{"attribute_type(ss, :SS)", nil, true}, {"attribute_type(n, :SS)", nil, false}, {"attribute_type(n, :N)", nil, true},
		{"begins_with(s, :he)", nil, true}, {"begins_with(s, :ell)", nil, false},
		{"contains(s, :ell)", nil, true}, {"contains(ss, :x)", nil, true}, {"contains(l, :two)", nil, true}, {"contains(l, :x)", nil, false},
		{"size(s) = :five", nil, true}, {"size(l) = :three", nil, true}, {"size(m) = :one", nil, true}, {"size(ss) > :one", nil, true},
		{"NOT n = :five", nil, false}, {"n = :five AND s = :hello", nil, true}, {"n = :ten OR s = :hello", nil, true},
		{"n = :ten OR s = :hello AND n = :ten", nil, false}, {"(n = :ten OR s = :hello) AND n = :five", nil, true},
		{"NOT (n = :ten) AND s = :hello", nil, true},
		{"#dn = :dotted", map[string]string{"#dn": "dot.name"}, true},
		{"#n = :five", map[string]string{"#n": "n"}, true},
		{"attribute_exists(#nul) AND attribute_exists(flag)", map[string]string{"#nul": "nul"}, true},
	}
	for _, tc := range cases {
		t.Run(tc.cond, func(t *testing.T) {
			if err := put(c, "cond", baseItem(t)); err != nil {
				t.Fatal(err)
			}
			_, err := c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("cond"), Item: baseItem(t),
				ConditionExpression: aws.String(tc.cond), ExpressionAttributeNames: tc.names,
				ExpressionAttributeValues: usedValues(t, tc.cond)})
			var ccf *types.ConditionalCheckFailedException
			switch {
			case tc.pass && err != nil:
				t.Fatalf("want pass, got %v", err)
			case !tc.pass && !errors.As(err, &ccf):
				t.Fatalf("want ConditionalCheckFailed, got %v", err)
			}
		})
	}
}

// usedValues keeps only the values an expression names: DynamoDB refuses
// unused ones.
func usedValues(t *testing.T, exprs ...string) map[string]types.AttributeValue {
	out := map[string]types.AttributeValue{}
	for k, v := range vals(t) {
		for _, e := range exprs {
			if containsToken(e, k) {
				out[k] = v
			}
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

func containsToken(e, tok string) bool {
	for i := strings.Index(e, tok); i >= 0; i = indexFrom(e, tok, i+1) {
		end := i + len(tok)
		if end == len(e) || !isNameByte(e[end]) {
			return true
		}
	}
	return false
}

func indexFrom(s, sub string, from int) int {
	if j := strings.Index(s[from:], sub); j >= 0 {
		return from + j
	}
	return -1
}

func isNameByte(b byte) bool {
	return b == '_' || b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z'
}

func TestConditionFailureReturnsOldItem(t *testing.T) {
	c := sortkeytest.New(t).Client()
	createSimple(t, c, "cond")
	if err := put(c, "cond", baseItem(t)); err != nil {
		t.Fatal(err)
	}
	_, err := c.DeleteItem(ctx, &dynamodb.DeleteItemInput{TableName: aws.String("cond"), Key: map[string]types.AttributeValue{"pk": s("k")},
		ConditionExpression: aws.String("attribute_not_exists(pk)"), ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld})
	var ccf *types.ConditionalCheckFailedException
	if !errors.As(err, &ccf) || ccf.ErrorMessage() != "The conditional request failed" || !reflect.DeepEqual(ccf.Item, baseItem(t)) {
		t.Fatalf("got %v with item %v", err, ccf)
	}
	got, _ := c.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("cond"), Key: map[string]types.AttributeValue{"pk": s("k")}})
	if got.Item == nil {
		t.Fatal("a failed conditional delete deleted the item")
	}
}

func TestUpdateExpressions(t *testing.T) {
	c := sortkeytest.New(t).Client()
	createSimple(t, c, "upd")
	cases := []struct {
		update string
		values map[string]any
		want   func(it map[string]types.AttributeValue) // edits the base item into the expected one
	}{
		{"SET n = n + :v", map[string]any{":v": 1}, func(it map[string]types.AttributeValue) { it["n"] = n("6") }},
		{"SET n = n - :v", map[string]any{":v": 10}, func(it map[string]types.AttributeValue) { it["n"] = n("-5") }},
		{"SET n = :v - n", map[string]any{":v": 0.5}, func(it map[string]types.AttributeValue) { it["n"] = n("-4.5") }},
		{"SET fresh = if_not_exists(fresh, :v), n = if_not_exists(n, :v)", map[string]any{":v": 0},
			func(it map[string]types.AttributeValue) { it["fresh"] = n("0") }},
		{"SET l = list_append(l, :v)", map[string]any{":v": []any{"end"}}, func(it map[string]types.AttributeValue) {
			l := it["l"].(*types.AttributeValueMemberL)
			l.Value = append(l.Value, s("end"))
		}},
		{"SET l = list_append(:v, l)", map[string]any{":v": []any{"start"}}, func(it map[string]types.AttributeValue) {
			l := it["l"].(*types.AttributeValueMemberL)
			l.Value = append([]types.AttributeValue{s("start")}, l.Value...)
		}},
		{"SET l[10] = :v", map[string]any{":v": "past end"}, func(it map[string]types.AttributeValue) {
			l := it["l"].(*types.AttributeValueMemberL)
			l.Value = append(l.Value, s("past end"))
		}},
		{"SET l[1] = :v", map[string]any{":v": "TWO"}, func(it map[string]types.AttributeValue) {
			it["l"].(*types.AttributeValueMemberL).Value[1] = s("TWO")
		}},
		{"SET m.a.c = :v", map[string]any{":v": "new"}, func(it map[string]types.AttributeValue) {
			it["m"].(*types.AttributeValueMemberM).Value["a"].(*types.AttributeValueMemberM).Value["c"] = s("new")
		}},
		{"REMOVE s, m.a.b", nil, func(it map[string]types.AttributeValue) {
			delete(it, "s")
			delete(it["m"].(*types.AttributeValueMemberM).Value["a"].(*types.AttributeValueMemberM).Value, "b")
		}},
		{"REMOVE l[0], l[1]", nil, func(it map[string]types.AttributeValue) {
			l := it["l"].(*types.AttributeValueMemberL)
			l.Value = l.Value[2:]
		}},
		{"ADD n :v, newnum :v", map[string]any{":v": 2}, func(it map[string]types.AttributeValue) {
			it["n"], it["newnum"] = n("7"), n("2")
		}},
		{"ADD ss :v", map[string]any{":v": &types.AttributeValueMemberSS{Value: []string{"z", "x"}}}, func(it map[string]types.AttributeValue) {
			it["ss"] = &types.AttributeValueMemberSS{Value: []string{"x", "y", "z"}}
		}},
		{"DELETE ss :v", map[string]any{":v": &types.AttributeValueMemberSS{Value: []string{"x", "absent"}}}, func(it map[string]types.AttributeValue) {
			it["ss"] = &types.AttributeValueMemberSS{Value: []string{"y"}}
		}},
		{"DELETE ss :v", map[string]any{":v": &types.AttributeValueMemberSS{Value: []string{"x", "y"}}}, func(it map[string]types.AttributeValue) {
			delete(it, "ss")
		}},
		{"SET #a = :v REMOVE flag ADD ns :w", map[string]any{":v": "A", ":w": &types.AttributeValueMemberNS{Value: []string{"3"}}},
			func(it map[string]types.AttributeValue) {
				it["a"] = s("A")
				delete(it, "flag")
				it["ns"] = &types.AttributeValueMemberNS{Value: []string{"1", "2", "3"}}
			}},
	}
	for _, tc := range cases {
		t.Run(tc.update, func(t *testing.T) {
			if err := put(c, "upd", baseItem(t)); err != nil {
				t.Fatal(err)
			}
			in := &dynamodb.UpdateItemInput{TableName: aws.String("upd"), Key: map[string]types.AttributeValue{"pk": s("k")},
				UpdateExpression: aws.String(tc.update), ReturnValues: types.ReturnValueAllNew}
			if strings.Contains(tc.update, "#a") {
				in.ExpressionAttributeNames = map[string]string{"#a": "a"}
			}
			if tc.values != nil {
				in.ExpressionAttributeValues = marshalValues(t, tc.values)
			}
			out, err := c.UpdateItem(ctx, in)
			if err != nil {
				t.Fatal(err)
			}
			want := baseItem(t)
			tc.want(want)
			if !sameItem(out.Attributes, want) {
				t.Fatalf("ALL_NEW:\n got %v\nwant %v", dump(out.Attributes), dump(want))
			}
		})
	}
}

func marshalValues(t *testing.T, m map[string]any) map[string]types.AttributeValue {
	out := map[string]types.AttributeValue{}
	for k, v := range m {
		if a, ok := v.(types.AttributeValue); ok {
			out[k] = a
			continue
		}
		mv, err := attributevalue.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		out[k] = mv
	}
	return out
}

// sameItem compares items with sets as sets.
func sameItem(a, b map[string]types.AttributeValue) bool {
	var x, y map[string]any
	if attributevalue.UnmarshalMap(a, &x) != nil || attributevalue.UnmarshalMap(b, &y) != nil {
		return false
	}
	return reflect.DeepEqual(normalizeSets(x), normalizeSets(y))
}

func normalizeSets(v any) any {
	switch t := v.(type) {
	case map[string]any:
		for k, e := range t {
			t[k] = normalizeSets(e)
		}
	case []any:
		for i, e := range t {
			t[i] = normalizeSets(e)
		}
	case []string:
		m := map[string]bool{}
		for _, s := range t {
			m[s] = true
		}
		return m
	case []float64:
		m := map[float64]bool{}
		for _, f := range t {
			m[f] = true
		}
		return m
	}
	return v
}

func dump(it map[string]types.AttributeValue) any {
	var m map[string]any
	_ = attributevalue.UnmarshalMap(it, &m)
	return m
}

func TestUpdateItemReturnValuesAndUpsert(t *testing.T) {
	c := sortkeytest.New(t).Client()
	createSimple(t, c, "upd")
	key := map[string]types.AttributeValue{"pk": s("new")}
	out, err := c.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String("upd"), Key: key,
		UpdateExpression: aws.String("ADD visits :one SET note = :n"), ReturnValues: types.ReturnValueUpdatedNew,
		ExpressionAttributeValues: av(t, map[string]any{":one": 1, ":n": "hi"})})
	if err != nil {
		t.Fatal(err)
	}
	if !sameItem(out.Attributes, av(t, map[string]any{"visits": 1, "note": "hi"})) {
		t.Fatalf("UPDATED_NEW %v", dump(out.Attributes))
	}
	out, err = c.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String("upd"), Key: key,
		UpdateExpression: aws.String("ADD visits :one"), ReturnValues: types.ReturnValueUpdatedOld,
		ExpressionAttributeValues: av(t, map[string]any{":one": 1})})
	if err != nil || !sameItem(out.Attributes, av(t, map[string]any{"visits": 1})) {
		t.Fatalf("UPDATED_OLD %v %v", err, dump(out.Attributes))
	}
	out, err = c.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String("upd"), Key: key,
		UpdateExpression: aws.String("REMOVE note"), ReturnValues: types.ReturnValueAllOld})
	if err != nil || !sameItem(out.Attributes, av(t, map[string]any{"pk": "new", "visits": 2, "note": "hi"})) {
		t.Fatalf("ALL_OLD %v %v", err, dump(out.Attributes))
	}
}

func TestExpressionErrors(t *testing.T) {
	c := sortkeytest.New(t).Client()
	createSimple(t, c, "upd")
	if err := put(c, "upd", baseItem(t)); err != nil {
		t.Fatal(err)
	}
	key := map[string]types.AttributeValue{"pk": s("k")}
	update := func(expr string, names map[string]string, values map[string]any) error {
		in := &dynamodb.UpdateItemInput{TableName: aws.String("upd"), Key: key, UpdateExpression: aws.String(expr), ExpressionAttributeNames: names}
		if values != nil {
			in.ExpressionAttributeValues = marshalValues(t, values)
		}
		_, err := c.UpdateItem(ctx, in)
		return err
	}
	cases := []struct {
		name string
		err  error
		msg  string // exact, or a prefix ending in "..."
	}{
		{"wrong operand type", update("SET s = s + :v", nil, map[string]any{":v": 1}),
			"An operand in the update expression has an incorrect data type"},
		{"key attribute", update("SET pk = :v", nil, map[string]any{":v": "x"}),
			"One or more parameter values were invalid: Cannot update attribute pk. This attribute is part of the key"},
		{"two SET clauses", update("SET a = :v SET b = :v", nil, map[string]any{":v": "x"}),
			`1 validation error detected: Invalid UpdateExpression: The "SET" section can only be used once in an update expression;`},
		{"overlapping paths", update("SET m.a = :v REMOVE m.a.b", nil, map[string]any{":v": "x"}),
			"1 validation error detected: Invalid UpdateExpression: Two document paths overlap with each other;..."},
		{"unused value", update("SET a = :v", nil, map[string]any{":v": "x", ":w": "y"}),
			"1 validation error detected: Value provided in ExpressionAttributeValues unused in expressions: keys: {:w}"},
		{"undefined name", update("SET #a = :v", nil, map[string]any{":v": "x"}),
			"1 validation error detected: Invalid UpdateExpression: An expression attribute name used in the document path is not defined; attribute name: #a"},
		{"undefined value", update("SET a = :v", nil, nil),
			"1 validation error detected: Invalid UpdateExpression: An expression attribute value used in expression is not defined; attribute value: :v"},
		{"reserved word", update("SET name = :v", nil, map[string]any{":v": "x"}),
			"1 validation error detected: Invalid UpdateExpression: Attribute name is a reserved keyword; reserved keyword: name"},
		{"syntax error", update("SET a = ", nil, nil), "1 validation error detected: Invalid UpdateExpression: Syntax error;..."},
		{"operand type checked without an item", func() error {
			_, err := c.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String("upd"), Key: map[string]types.AttributeValue{"pk": s("none")},
				UpdateExpression: aws.String("SET l = list_append(l, :v)"), ExpressionAttributeValues: marshalValues(t, map[string]any{":v": "str"})})
			return err
		}(), "1 validation error detected: Invalid UpdateExpression: Incorrect operand type for operator or function; operator or function: list_append, operand type: S"},
		{"invalid attribute_type", func() error {
			_, err := c.DeleteItem(ctx, &dynamodb.DeleteItemInput{TableName: aws.String("upd"), Key: key,
				ConditionExpression: aws.String("attribute_type(n, :t)"), ExpressionAttributeValues: marshalValues(t, map[string]any{":t": "NUMBER"})})
			return err
		}(), "1 validation error detected: Invalid ConditionExpression: Invalid attribute type name found;..."},
		{"names without expression", func() error {
			_, err := c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("upd"), Item: key, ExpressionAttributeNames: map[string]string{"#a": "a"}})
			return err
		}(), "ExpressionAttributeNames can only be specified when using expressions"},
		{"mixed legacy and expression", func() error {
			_, err := c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("upd"), Item: key,
				ConditionExpression: aws.String("attribute_exists(pk)"),
				Expected:            map[string]types.ExpectedAttributeValue{"pk": {Exists: aws.Bool(true), Value: s("k")}}})
			return err
		}(), "Can not use both expression and non-expression parameters in the same request: Non-expression parameters: {Expected} Expression parameters: {ConditionExpression}"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var ae smithy.APIError
			if !errors.As(tc.err, &ae) || ae.ErrorCode() != "ValidationException" {
				t.Fatalf("want ValidationException, got %v", tc.err)
			}
			if p, ok := strings.CutSuffix(tc.msg, "..."); ok && strings.HasPrefix(ae.ErrorMessage(), p) || ae.ErrorMessage() == tc.msg {
				return
			}
			t.Fatalf("message %q\n    want %q", ae.ErrorMessage(), tc.msg)
		})
	}
	got, _ := c.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("upd"), Key: key})
	if !sameItem(got.Item, baseItem(t)) {
		t.Fatalf("a refused update changed the item: %v", dump(got.Item))
	}
}

func TestGetItemProjectionExpression(t *testing.T) {
	c := sortkeytest.New(t).Client()
	createSimple(t, c, "proj")
	if err := put(c, "proj", baseItem(t)); err != nil {
		t.Fatal(err)
	}
	got, err := c.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("proj"), Key: map[string]types.AttributeValue{"pk": s("k")},
		ProjectionExpression: aws.String("m.a.b, l[1], #d, absent"), ExpressionAttributeNames: map[string]string{"#d": "dot.name"}})
	if err != nil {
		t.Fatal(err)
	}
	want := av(t, map[string]any{"m": map[string]any{"a": map[string]any{"b": "deep"}}, "l": []any{"two"}, "dot.name": "dotted"})
	if !sameItem(got.Item, want) {
		t.Fatalf("projection %v", dump(got.Item))
	}
}

func TestLegacyParameters(t *testing.T) {
	c := sortkeytest.New(t).Client()
	createSimple(t, c, "leg")
	key := map[string]types.AttributeValue{"pk": s("k")}
	_, err := c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("leg"), Item: baseItem(t),
		Expected: map[string]types.ExpectedAttributeValue{"pk": {Exists: aws.Bool(false)}}})
	if err != nil {
		t.Fatalf("Expected Exists=false on a new item: %v", err)
	}
	_, err = c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("leg"), Item: baseItem(t),
		Expected: map[string]types.ExpectedAttributeValue{"pk": {Exists: aws.Bool(false)}}})
	var ccf *types.ConditionalCheckFailedException
	if !errors.As(err, &ccf) {
		t.Fatalf("Expected Exists=false on an existing item: %v", err)
	}
	out, err := c.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String("leg"), Key: key, ReturnValues: types.ReturnValueAllNew,
		Expected: map[string]types.ExpectedAttributeValue{
			"n": {ComparisonOperator: types.ComparisonOperatorGt, AttributeValueList: []types.AttributeValue{n("1")}},
			"s": {ComparisonOperator: types.ComparisonOperatorBeginsWith, AttributeValueList: []types.AttributeValue{s("he")}},
		},
		AttributeUpdates: map[string]types.AttributeValueUpdate{
			"n":    {Action: types.AttributeActionAdd, Value: n("10")},
			"s":    {Action: types.AttributeActionPut, Value: s("bye")},
			"flag": {Action: types.AttributeActionDelete},
			"ss":   {Action: types.AttributeActionDelete, Value: &types.AttributeValueMemberSS{Value: []string{"x"}}},
			"l":    {Action: types.AttributeActionAdd, Value: &types.AttributeValueMemberL{Value: []types.AttributeValue{s("more")}}},
		}})
	if err != nil {
		t.Fatal(err)
	}
	want := baseItem(t)
	want["n"], want["s"], want["ss"] = n("15"), s("bye"), &types.AttributeValueMemberSS{Value: []string{"y"}}
	delete(want, "flag")
	l := want["l"].(*types.AttributeValueMemberL)
	l.Value = append(l.Value, s("more"))
	if !sameItem(out.Attributes, want) {
		t.Fatalf("legacy update:\n got %v\nwant %v", dump(out.Attributes), dump(want))
	}
	_, err = c.DeleteItem(ctx, &dynamodb.DeleteItemInput{TableName: aws.String("leg"), Key: key, ConditionalOperator: types.ConditionalOperatorOr,
		Expected: map[string]types.ExpectedAttributeValue{
			"n": {ComparisonOperator: types.ComparisonOperatorEq, AttributeValueList: []types.AttributeValue{n("0")}},
			"s": {Value: s("nope")},
		}})
	if !errors.As(err, &ccf) {
		t.Fatalf("OR of two false conditions: %v", err)
	}
}

// TestExpressionFunctionAndSyntaxRules checks facts 23 and 28 through the
// server: attribute_type's operands, contains(x, x), redundant parentheses
// and the operator limit (not a nesting limit), bare names that start with
// '_' or a digit, and list indexes out of range, in every expression kind
// that can hold them, whether or not an item is read.
func TestExpressionFunctionAndSyntaxRules(t *testing.T) {
	srv := sortkeytest.New(t)
	createSimple(t, srv.Client(), "hhh")
	createTyped(t, srv.Client(), "tbl", types.ScalarAttributeTypeS)
	const key = `"TableName":"hhh","Key":{"pk":{"S":"a"}}`
	update := func(cond, vals string) string {
		return `{` + key + `,"UpdateExpression":"SET z = :val","ConditionExpression":"` + cond + `","ExpressionAttributeValues":{":val":{"N":"0"}` + vals + `}}`
	}
	nested := func(levels int) string {
		return "a<b " + strings.Repeat("or (a<b ", levels) + strings.Repeat(")", levels)
	}
	query := `"TableName":"tbl","KeyConditionExpression":"pk = :p","ExpressionAttributeValues":{":p":{"S":"empty"}}`
	runRawCases(t, srv, []rawCase{
		{name: "seed", op: "PutItem", body: `{"TableName":"hhh","Item":{"pk":{"S":"a"},"a":{"N":"1"},"b":{"N":"2"},"s":{"S":"hello"},"s1":{"S":"hello"},"t":{"S":"N"},"l":{"L":[{"N":"7"},{"N":"42"}]}}}`},
		{name: "facts 23.1 attribute_type of a value", op: "UpdateItem", body: update("attribute_type (:val, :type)", `,":type":{"S":"N"}`)},
		{name: "facts 23.2 attribute_type of two paths", op: "UpdateItem", body: update("attribute_type (a, t)", ""), code: validation,
			msg: oneError + "Invalid ConditionExpression: Operator or function requires a value placeholder; operator or function: attribute_type"},
		{name: "facts 23.3 filter on an empty partition", op: "Query", body: `{` + query + `,"FilterExpression":"attribute_type(s, i)"}`, code: validation,
			msg: "Invalid FilterExpression: Operator or function requires a value placeholder; operator or function: attribute_type"},
		{name: "facts 23.3 scan filter", op: "Scan", body: `{"TableName":"tbl","FilterExpression":"attribute_type(s, i)"}`, code: validation, part: "attribute_type"},
		{name: "facts 23.4 contains of two paths", op: "UpdateItem", body: `{` + key + `,"UpdateExpression":"SET z = :val","ConditionExpression":"contains(s, s1)","ExpressionAttributeValues":{":val":{"N":"0"}}}`},
		{name: "facts 23.4 contains of one path twice", op: "UpdateItem", body: `{` + key + `,"UpdateExpression":"SET z = :val","ConditionExpression":"contains(s, s)","ExpressionAttributeValues":{":val":{"N":"0"}}}`, code: validation,
			msg: oneError + "Invalid ConditionExpression: The first operand must be distinct from the second operand; operator or function: contains"},
		{name: "facts 23.5 redundant parentheses", op: "UpdateItem", body: `{` + key + `,"ConditionExpression":"((pk <> :p))","ExpressionAttributeValues":{":p":{"S":"x"}}}`, code: validation,
			msg: oneError + "Invalid ConditionExpression: The expression has redundant parentheses;"},
		{name: "facts 23.5 one pair", op: "UpdateItem", body: `{` + key + `,"ConditionExpression":"(pk <> :p)","ExpressionAttributeValues":{":p":{"S":"x"}}}`},
		{name: "facts 23.5 a pair in a pair", op: "UpdateItem", body: `{` + key + `,"ConditionExpression":"((pk <> :p) and pk <> :p)","ExpressionAttributeValues":{":p":{"S":"x"}}}`},
		{name: "facts 23.5 filter", op: "Query", body: `{` + query + `,"FilterExpression":"((a = :p))"}`, code: validation,
			msg: "Invalid FilterExpression: The expression has redundant parentheses;"},
		{name: "facts 23.6 149 levels", op: "UpdateItem", body: update(nested(149), "")},
		{name: "facts 23.6 454 levels", op: "UpdateItem", body: update(nested(454), ""), code: validation,
			msg: oneError + "Invalid ConditionExpression: The expression contains too many operators; operator count: 301"},
		{name: "facts 28.1 SET _123", op: "UpdateItem", body: `{` + key + `,"UpdateExpression":"SET _123 = :val1","ExpressionAttributeValues":{":val1":{"N":"1"}}}`, code: validation,
			msg: oneError + `Invalid UpdateExpression: Syntax error; token: "_", near: "SET _123"`},
		{name: "facts 28.1 SET #_ and :_", op: "UpdateItem", body: `{` + key + `,"UpdateExpression":"SET #_ = :_, #123 = :123","ExpressionAttributeNames":{"#_":"x","#123":"y"},"ExpressionAttributeValues":{":_":{"N":"1"},":123":{"N":"2"}}}`},
		{name: "facts 28.1 SET A123_", op: "UpdateItem", body: `{` + key + `,"UpdateExpression":"SET Alpha_Numeric_123 = :v, A123_ = :v","ExpressionAttributeValues":{":v":{"N":"1"}}}`},
		{name: "facts 28.1 filter _a", op: "Scan", body: `{"TableName":"tbl","FilterExpression":"_a = :v","ExpressionAttributeValues":{":v":{"N":"1"}}}`, code: validation,
			msg: `Invalid FilterExpression: Syntax error; token: "_", near: "_a"`},
		{name: "facts 28.2 _f()", op: "UpdateItem", body: `{` + key + `,"UpdateExpression":"SET a = _f(b,c,d)"}`, code: validation,
			msg: oneError + `Invalid UpdateExpression: Syntax error; token: "_", near: "= _f"`},
		{name: "facts 28.3 index out of range", op: "GetItem", body: `{` + key + `,"ProjectionExpression":"l[99999999999999]"}`, code: validation,
			msg: "Invalid ProjectionExpression: List index is not within the allowable range; index: [99999999999999]"},
		{name: "facts 28.3 index past the end", op: "GetItem", body: `{` + key + `,"ProjectionExpression":"l[999]"}`},
	})
	out, err := srv.Client().GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("hhh"), Key: avMap{"pk": s("a")}})
	if err != nil {
		t.Fatal(err)
	}
	if z, ok := out.Item["z"].(*types.AttributeValueMemberN); !ok || z.Value != "0" {
		t.Errorf("z = %v, want 0 (facts 23.1, 23.6)", out.Item["z"])
	}
}
