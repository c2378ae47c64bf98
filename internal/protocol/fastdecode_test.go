package protocol

import (
	"bytes"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/sortkeydb/sortkey/internal/attr"
)

// fastTypes are the inputs decodeFast covers, each with realistic bodies
// shaped as the SDKs send them; these must take the fast path.
var fastTypes = []struct {
	name   string
	new    func() any
	bodies []string
}{
	{"ExecuteStatement", func() any { return new(ExecuteStatementInput) }, []string{
		`{"Statement":"SELECT * FROM \"Bench\" WHERE pk = 'user#1' AND sk = 1"}`,
		`{"Statement":"UPDATE T SET a = ? WHERE pk = ?","Parameters":[{"N":"1"},{"L":[{"S":"x"},{"NULL":true}]}],` +
			`"ConsistentRead":true,"Limit":10,"NextToken":"abc","ReturnConsumedCapacity":"TOTAL","ReturnValuesOnConditionCheckFailure":"ALL_OLD"}`,
		`{"Statement":"SELECT * FROM T","Parameters":[]}`,
	}},
	{"GetItem", func() any { return new(GetItemInput) }, []string{
		`{"TableName":"Bench","Key":{"pk":{"S":"user#42"},"sk":{"N":"42"}}}`,
		`{"TableName":"Bench","Key":{"pk":{"S":"user#42"}},"ConsistentRead":true,"ProjectionExpression":"#n, age",` +
			`"ExpressionAttributeNames":{"#n":"name"},"ReturnConsumedCapacity":"TOTAL"}`,
		`{"AttributesToGet":["a","b"],"ConsistentRead":false,"Key":{"pk":{"S":"caf\u00e9 \ud83d\ude00"}},"TableName":"T"}`,
		"{\n  \"TableName\" : \"Bench\",\n  \"Key\" : { \"pk\" : { \"S\" : \"x\" } }\n}\n",
	}},
	{"PutItem", func() any { return new(PutItemInput) }, []string{
		`{"TableName":"Bench","Item":` + benchItemJSON + `}`,
		`{"TableName":"Bench","Item":{"pk":{"S":"a"},"b":{"B":"AAEC"},"n":{"NULL":true},"l":{"L":[{"N":"1"},{"S":"é"}]}},` +
			`"ConditionExpression":"attribute_not_exists(pk) OR #v \u003c :v","ExpressionAttributeNames":{"#v":"v"},` +
			`"ExpressionAttributeValues":{":v":{"N":"3"}},"ReturnValues":"ALL_OLD","ReturnConsumedCapacity":"INDEXES",` +
			`"ReturnItemCollectionMetrics":"SIZE","ReturnValuesOnConditionCheckFailure":"ALL_OLD"}`,
	}},
	{"UpdateItem", func() any { return new(UpdateItemInput) }, []string{
		`{"TableName":"Bench","Key":{"pk":{"S":"user#1"},"sk":{"N":"1"}},"UpdateExpression":"SET age = age + :one",` +
			`"ConditionExpression":"attribute_exists(pk) AND age >= :zero","ExpressionAttributeValues":{":one":{"N":"1"},":zero":{"N":"0"}}}`,
		`{"TableName":"T","Key":{"pk":{"S":"k"}},"UpdateExpression":"SET #a = list_append(#a, :l) REMOVE #b",` +
			`"ExpressionAttributeNames":{"#a":"a","#b":"b"},"ExpressionAttributeValues":{":l":{"L":[{"S":"x"}]}},"ReturnValues":"UPDATED_NEW"}`,
	}},
	{"DeleteItem", func() any { return new(DeleteItemInput) }, []string{
		`{"TableName":"Bench","Key":{"pk":{"S":"user#42"},"sk":{"N":"42"}}}`,
		`{"TableName":"Bench","Key":{"pk":{"S":"user#42"}},"ConditionExpression":"attribute_exists(pk)","ReturnValues":"ALL_OLD"}`,
	}},
	{"Query", func() any { return new(QueryInput) }, []string{
		`{"TableName":"Bench","KeyConditionExpression":"pk = :p AND sk BETWEEN :a AND :b","FilterExpression":"active = :t",` +
			`"ExpressionAttributeValues":{":p":{"S":"p42"},":a":{"N":"1"},":b":{"N":"100"},":t":{"BOOL":true}},"Limit":25,` +
			`"ExclusiveStartKey":{"pk":{"S":"p42"},"sk":{"N":"7"}}}`,
		`{"TableName":"Bench","IndexName":"gsi1","KeyConditionExpression":"#g = :g","ExpressionAttributeNames":{"#g":"g"},` +
			`"ExpressionAttributeValues":{":g":{"S":"x"}},"ScanIndexForward":false,"Select":"COUNT","ConsistentRead":false,` +
			`"ProjectionExpression":"pk","ReturnConsumedCapacity":"NONE","Limit":-0}`,
	}},
	{"Scan", func() any { return new(ScanInput) }, []string{
		`{"TableName":"Bench"}`,
		`{"TableName":"Bench","IndexName":"gsi1","FilterExpression":"#t = :t","ExpressionAttributeNames":{"#t":"type"},` +
			`"ExpressionAttributeValues":{":t":{"S":"order"}},"Limit":100,"Segment":3,"TotalSegments":8,` +
			`"ExclusiveStartKey":{"pk":{"S":"p1"},"sk":{"N":"2"}},"ProjectionExpression":"pk, sk","ReturnConsumedCapacity":"TOTAL"}`,
	}},
	{"BatchWriteItem", func() any { return new(BatchWriteItemInput) }, []string{
		`{"RequestItems":{"Bench":[{"PutRequest":{"Item":` + benchItemJSON + `}},{"DeleteRequest":{"Key":{"pk":{"S":"a"},"sk":{"N":"1"}}}}],` +
			`"Other":[{"PutRequest":{"Item":{"pk":{"S":"b"}}}}]},"ReturnConsumedCapacity":"TOTAL","ReturnItemCollectionMetrics":"SIZE"}`,
		`{"RequestItems":{"Bench":[]}}`,
	}},
}

// checkSame decodes body by Decode's decoders and by encoding/json alone,
// and fails unless both give the same value and the same error. They must
// agree on every body, valid text or not, since both turn bad text into
// U+FFFD alike; Decode itself refuses that text first (checkTextRule).
func checkSame(t *testing.T, body []byte, newIn func() any) {
	t.Helper()
	got, want := newIn(), newIn()
	var err, werr error
	if len(bytes.TrimSpace(body)) > 0 {
		err, werr = decode(body, got), decodeJSON(body, want)
	}
	if fmt.Sprint(err) != fmt.Sprint(werr) {
		t.Fatalf("%q: error %v, encoding/json %v", body, err, werr)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%q:\n got %#v\nwant %#v", body, got, want)
	}
	checkTextRule(t, body, newIn(), err, got)
}

func TestFastPathTakesSDKBodies(t *testing.T) {
	for _, ft := range fastTypes {
		for _, body := range ft.bodies {
			if !decodeFast([]byte(body), ft.new()) {
				t.Errorf("%s: fast path not taken for %s", ft.name, body)
			}
			checkSame(t, []byte(body), ft.new)
		}
	}
}

func TestFastPathLeavesTheRestToEncodingJSON(t *testing.T) {
	bodies := []string{
		`{"tablename":"T","Key":{"pk":{"S":"a"}}}`,                      // case-mismatched
		`{"TableName":null,"Key":{"pk":{"S":"a"}}}`,                     // null
		`{"TableName":"T","Key":null}`,                                  // null item
		`{"TableName":"T","TableName":"U"}`,                             // duplicate
		`{"TableName":"T","Key":{"a":{"S":"x"}},"Key":{"b":{"S":"y"}}}`, // duplicate that merges
		`{"TableName":"T","Bogus":[1,{"x":null}]}`,                      // unknown
		`{"Ta\u0062leName":"T"}`,                                        // escaped name
		`{"TableName":"T","Expected":{"a":{"Exists":false}}}`,           // legacy
		`{"TableName":"T","KeyConditions":{"a":{"ComparisonOperator":"EQ","AttributeValueList":[{"S":"x"}]}}}`,
		`{"TableName":"T","AttributeUpdates":{"a":{"Action":"DELETE"}}}`,
		`{"TableName":"T","ScanFilter":{"a":{"ComparisonOperator":"NULL"}}}`, `{"TableName":"T","Segment":-1.0}`,
		`{"TableName":"T","Limit":1.5}`, `{"TableName":"T","Limit":1e2}`, `{"TableName":"T","Limit":99999999999999999999}`,
		`{"TableName":"T","Limit":01}`, `{"TableName":"T","Limit":"1"}`, `{"TableName":1}`, `{"TableName":"T","ConsistentRead":"true"}`,
		`{"TableName":"T"} x`, `{"TableName":"T"`, `{"TableName":"T",}`, `[]`, `"x"`, `{"TableName":"\x01"}`,
		`{"TableName":"\q"}`, `{"TableName":"T","Key":{"a":{"S":"x","Z":tru}}}`, `{"TableName":"T","Key":{"a":{"S":"x","Z":01}}}`,
		`{"TableName":"T","Key":{"a":{"S":1}}}`, `{"TableName":"T","Key":{"a":{"B":"!"}}}`, `{"TableName":"T","Key":{"a":{"S":"\u12"}}}`,
		`{"TableName":"T","AttributesToGet":["a",null]}`, `{"TableName":"T","ExpressionAttributeNames":{"#a":null}}`,
		`{"RequestItems":{"T":[null]}}`, `{"RequestItems":{"T":null}}`, `{"RequestItems":{"T":[{"putrequest":{}}]}}`,
		`{"RequestItems":{"T":[{"PutRequest":null}]}}`, `{"RequestItems":{"T":[{"PutRequest":{"Item":{},"Item":{}}}]}}`,
		`{"RequestItems":{"T":[{"PutRequest":{"Item":{}}},]}}`, `{"RequestItems":[]}`,
		`{"TableName":"T","Key":` + strings.Repeat(`{"a":{"M":`, 300) + `{}` + strings.Repeat(`}}`, 300) + `}`,
	}
	for _, ft := range fastTypes {
		for _, body := range bodies {
			if decodeFast([]byte(body), ft.new()) {
				t.Errorf("%s: fast path taken for %s", ft.name, body)
			}
			checkSame(t, []byte(body), ft.new)
		}
	}
}

// A non-zero input gets what encoding/json merges into it.
func TestFastPathNeedsZeroInput(t *testing.T) {
	in := &GetItemInput{Key: attr.Item{"a": {}}}
	if decodeFast([]byte(`{"TableName":"T"}`), in) {
		t.Fatal("fast path taken into a non-zero input")
	}
}

// TestFastTables holds the member tables to the structs: every json name
// encoding/json sees is in the table or one of the legacy members left out,
// and each member, alone and with all the others, decodes as encoding/json
// decodes it.
func TestFastTables(t *testing.T) {
	legacy := []string{"Expected", "AttributeUpdates", "KeyConditions", "QueryFilter", "ScanFilter"}
	tables := map[string]any{"GetItem": getItemMembers, "PutItem": putItemMembers, "UpdateItem": updateItemMembers,
		"DeleteItem": deleteItemMembers, "Query": queryMembers, "Scan": scanMembers,
		"BatchWriteItem": batchWriteItemMembers, "ExecuteStatement": executeStatementMembers}
	for _, ft := range fastTypes {
		names := reflect.ValueOf(tables[ft.name]).MapKeys()
		inTable := map[string]bool{}
		for _, n := range names {
			inTable[n.String()] = true
		}
		var all []string
		for name, typ := range jsonFields(reflect.TypeOf(ft.new()).Elem()) {
			if !inTable[name] {
				if !slices.Contains(legacy, name) {
					t.Errorf("%s: member %s missing from the table", ft.name, name)
				}
				continue
			}
			delete(inTable, name)
			member := fmt.Sprintf("%q:%s", name, sampleJSON(t, typ))
			all = append(all, member)
			body := []byte("{" + member + "}")
			if !decodeFast(body, ft.new()) {
				t.Errorf("%s: fast path not taken for %s", ft.name, body)
			}
			checkSame(t, body, ft.new)
		}
		for name := range inTable {
			t.Errorf("%s: table has %s, which is no member", ft.name, name)
		}
		body := []byte("{" + strings.Join(all, ",") + "}")
		if !decodeFast(body, ft.new()) {
			t.Errorf("%s: fast path not taken for %s", ft.name, body)
		}
		checkSame(t, body, ft.new)
	}
}

// jsonFields names the members encoding/json decodes into t, promoting
// untagged embedded structs' fields.
func jsonFields(t reflect.Type) map[string]reflect.Type {
	out := map[string]reflect.Type{}
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if f.Anonymous && name == "" {
			for n, typ := range jsonFields(f.Type) {
				out[n] = typ
			}
			continue
		}
		if name != "-" && f.IsExported() {
			out[name] = f.Type
		}
	}
	return out
}

func sampleJSON(t *testing.T, typ reflect.Type) string {
	switch typ {
	case reflect.TypeFor[*string]():
		return `"x \u00e9\n\ud83d\ude00"`
	case reflect.TypeFor[*bool]():
		return "true"
	case reflect.TypeFor[*int64]():
		return "-9223372036854775808"
	case reflect.TypeFor[attr.Item]():
		return `{"a":{"S":"b","N":"1","SS":["x"],"M":{"c":{"BOOL":false}}}}`
	case reflect.TypeFor[map[string]string]():
		return `{"#a":"b","#c":"d","#a":"e"}`
	case reflect.TypeFor[[]string]():
		return `["a","b\t"]`
	case reflect.TypeFor[[]attr.Value]():
		return `[{"S":"a"},{"M":{"c":{"BOOL":false}}},{"NULL":true}]`
	case reflect.TypeFor[map[string][]WriteRequest]():
		return `{"t":[{"PutRequest":{"Item":{"a":{"S":"b"}}},"DeleteRequest":{"Key":{"a":{"N":"1"}}}}],"u":[],"t":[{}]}`
	}
	t.Fatalf("no sample for %v", typ)
	return ""
}

func fuzzFast(f *testing.F, newIn func() any) {
	for _, ft := range fastTypes {
		for _, body := range ft.bodies {
			f.Add([]byte(body))
		}
	}
	f.Add([]byte(`{"TableName":"T","Limit":1.5,"Key":{"a":{"S":"x","Z":[1,true,null,"\u0041"]}}}`))
	f.Add([]byte(`{"TableName":"T","Expected":{"a":{"Value":{"S":1}}},"tablename":null}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		checkSame(t, body, newIn)
	})
}

func FuzzFastGetItem(f *testing.F)    { fuzzFast(f, func() any { return new(GetItemInput) }) }
func FuzzFastPutItem(f *testing.F)    { fuzzFast(f, func() any { return new(PutItemInput) }) }
func FuzzFastUpdateItem(f *testing.F) { fuzzFast(f, func() any { return new(UpdateItemInput) }) }
func FuzzFastDeleteItem(f *testing.F) { fuzzFast(f, func() any { return new(DeleteItemInput) }) }
func FuzzFastQuery(f *testing.F)      { fuzzFast(f, func() any { return new(QueryInput) }) }
func FuzzFastBatchWriteItem(f *testing.F) {
	fuzzFast(f, func() any { return new(BatchWriteItemInput) })
}
func FuzzFastScan(f *testing.F) { fuzzFast(f, func() any { return new(ScanInput) }) }

func FuzzFastExecuteStatement(f *testing.F) {
	fuzzFast(f, func() any { return new(ExecuteStatementInput) })
}
