package validate

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/sortkeydb/sortkey/internal/apierr"
	"github.com/sortkeydb/sortkey/internal/protocol"
)

// vecIndex is a valid vector index; vi overlays members on it.
const vecIndex = `{"IndexName":"vec1","VectorAttribute":{"AttributeName":"emb"},"Dimensions":3,"DistanceFunction":"COSINE","Projection":{"ProjectionType":"ALL"}}`

// vi returns vecIndex with the members of extra set (null removes one).
func vi(extra string) string {
	m := map[string]any{}
	x := map[string]any{}
	if json.Unmarshal([]byte(vecIndex), &m) != nil || json.Unmarshal([]byte(extra), &x) != nil {
		panic("bad fixture " + extra)
	}
	for k, v := range x {
		if v == nil {
			delete(m, k)
			continue
		}
		m[k] = v
	}
	b, _ := json.Marshal(m)
	return string(b)
}

// withVectors is a CreateTable member list: vector indexes and the
// definitions pk, sk and the extra ones named.
func withVectors(indexes []string, defs ...string) string {
	all := []string{`{"AttributeName":"pk","AttributeType":"S"}`, `{"AttributeName":"sk","AttributeType":"S"}`}
	for _, d := range defs {
		all = append(all, `{"AttributeName":"`+d+`","AttributeType":"S"}`)
	}
	return `{"AttributeDefinitions":[` + strings.Join(all, ",") + `],"VectorIndexes":[` + strings.Join(indexes, ",") + `]}`
}

// schema is a SearchSchema of one HASH (if hash != "") and the filters.
func schema(hash string, filters ...string) string {
	var els []string
	if hash != "" {
		els = append(els, `{"AttributeName":"`+hash+`","SearchSchemaElementType":"HASH"}`)
	}
	for _, f := range filters {
		els = append(els, `{"AttributeName":"`+f+`","SearchSchemaElementType":"INLINE_FILTER"}`)
	}
	return `{"SearchSchema":[` + strings.Join(els, ",") + `]}`
}

func named(n int, prefix string) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = prefix + strconv.Itoa(i)
	}
	return out
}

func TestCreateTableVectorIndexes(t *testing.T) {
	v1 := "1 validation error detected: "
	at := func(member string) string {
		return "' at 'vectorIndexes.1.member." + member + "' failed to satisfy constraint: "
	}
	one := func(extra string, defs ...string) string { return withVectors([]string{vi(extra)}, defs...) }
	seventeen := named(17, "f")
	var six []string
	for i := range 6 {
		six = append(six, vi(`{"IndexName":"vec`+strconv.Itoa(i)+`"}`))
	}
	var wide []string // 5 indexes of 20 NonKeyAttributes: 5 × (20 + the vector) = 105
	nka, _ := json.Marshal(named(20, "a"))
	for i := range 5 {
		wide = append(wide, vi(`{"IndexName":"vec`+strconv.Itoa(i)+`","Projection":{"ProjectionType":"INCLUDE","NonKeyAttributes":`+string(nka)+`}}`))
	}
	cases := []struct{ name, extra, want string }{
		// The model's constraints, reported together.
		{"short index name", one(`{"IndexName":"v"}`), v1 + "Value 'v" + at("indexName") + "Member must have length greater than or equal to 3"},
		{"index name pattern", one(`{"IndexName":"vec 1"}`), v1 + "Value 'vec 1" + at("indexName") + "Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+"},
		{"no vector attribute", one(`{"VectorAttribute":null}`), v1 + "Value null at 'vectorIndexes.1.member.vectorAttribute' failed to satisfy constraint: Member must not be null"},
		{"no vector attribute name", one(`{"VectorAttribute":{}}`), v1 + "Value null at 'vectorIndexes.1.member.vectorAttribute.attributeName' failed to satisfy constraint: Member must not be null"},
		{"empty vector attribute name", one(`{"VectorAttribute":{"AttributeName":""}}`), v1 + "Value '" + at("vectorAttribute.attributeName") + "Member must have length greater than or equal to 1"},
		{"no dimensions", one(`{"Dimensions":null}`), v1 + "Value null at 'vectorIndexes.1.member.dimensions' failed to satisfy constraint: Member must not be null"},
		{"zero dimensions", one(`{"Dimensions":0}`), v1 + "Value '0" + at("dimensions") + "Member must have value greater than or equal to 1"},
		{"no distance function", one(`{"DistanceFunction":null}`), v1 + "Value null at 'vectorIndexes.1.member.distanceFunction' failed to satisfy constraint: Member must not be null"},
		{"distance function", one(`{"DistanceFunction":"MANHATTAN"}`), v1 + "Value 'MANHATTAN" + at("distanceFunction") + "Member must satisfy enum value set: [COSINE, EUCLIDEAN, DOT_PRODUCT]"},
		{"no projection", one(`{"Projection":null}`), v1 + "Value null at 'vectorIndexes.1.member.projection' failed to satisfy constraint: Member must not be null"},
		{"empty search schema", one(`{"SearchSchema":[]}`), v1 + "Value '[]" + at("searchSchema") + "Member must have length greater than or equal to 1"},
		{"element type", one(`{"SearchSchema":[{"AttributeName":"tenant","SearchSchemaElementType":"RANGE"}]}`, "tenant"),
			v1 + "Value 'RANGE" + at("searchSchema.1.member.searchSchemaElementType") + "Member must satisfy enum value set: [HASH, INLINE_FILTER]"},
		{"element name", one(`{"SearchSchema":[{"SearchSchemaElementType":"HASH"}]}`), v1 + "Value null at 'vectorIndexes.1.member.searchSchema.1.member.attributeName' failed to satisfy constraint: Member must not be null"},
		{"three errors", one(`{"IndexName":"v","Dimensions":null,"DistanceFunction":"L1"}`),
			"3 validation errors detected: Value 'v" + at("indexName") + "Member must have length greater than or equal to 3; " +
				"Value null at 'vectorIndexes.1.member.dimensions' failed to satisfy constraint: Member must not be null; " +
				"Value 'L1" + at("distanceFunction") + "Member must satisfy enum value set: [COSINE, EUCLIDEAN, DOT_PRODUCT]"},

		// The rules, one at a time.
		{"provisioned", `{"BillingMode":"PROVISIONED","ProvisionedThroughput":{"ReadCapacityUnits":1,"WriteCapacityUnits":1},"VectorIndexes":[` + vecIndex + `]}`, MsgVectorOnDemand},
		{"billing absent is provisioned", `{"BillingMode":null,"ProvisionedThroughput":{"ReadCapacityUnits":1,"WriteCapacityUnits":1},"VectorIndexes":[` + vecIndex + `]}`, MsgVectorOnDemand},
		{"six indexes", withVectors(six), invalid + "VectorIndex count exceeds the per-table limit of 5"},
		{"too many dimensions", one(`{"Dimensions":16001}`), invalid + "Dimensions for vector index: vec1 exceeds the limit of 16000"},
		{"two hashes", one(`{"SearchSchema":[{"AttributeName":"tenant","SearchSchemaElementType":"HASH"},{"AttributeName":"shop","SearchSchemaElementType":"HASH"}]}`, "tenant", "shop"),
			invalid + "SearchSchema for vector index: vec1 has more than one HASH element"},
		{"seventeen filters", one(schema("", seventeen...), seventeen...), invalid + "SearchSchema for vector index: vec1 has more than 16 INLINE_FILTER elements"},
		{"attribute twice", one(schema("tenant", "tenant"), "tenant"), invalid + "Duplicate AttributeName in SearchSchema for vector index: vec1: tenant"},
		{"vector in search schema", one(schema("emb")), invalid + "The vector attribute emb of vector index: vec1 cannot be in its SearchSchema"},
		{"search attribute undefined", one(schema("tenant")), "One element in SearchSchema is not defined in attribute definitions"},
		{"filter undefined", one(schema("tenant", "color"), "tenant"), "One element in SearchSchema is not defined in attribute definitions"},
		{"vector defined", one(`{}`, "emb"), invalid + "The vector attribute emb of vector index: vec1 cannot be in AttributeDefinitions: a vector is a list of numbers (L), not S, N or B"},
		{"vector is the table key", one(`{"VectorAttribute":{"AttributeName":"sk"}}`), invalid + "The vector attribute sk is a key attribute of the table or of an index"},
		{"vector is a GSI key", `{` + defsWithGK + `,"GlobalSecondaryIndexes":[` + gsi + `],"VectorIndexes":[` + vi(`{"VectorAttribute":{"AttributeName":"gk"}}`) + `]}`,
			invalid + "The vector attribute gk is a key attribute of the table or of an index"},
		{"dimensions differ", withVectors([]string{vecIndex, vi(`{"IndexName":"vec2","Dimensions":4}`)}), invalid + "Vector indexes on attribute emb must all have the same Dimensions: index vec1 has 3"},
		{"include without attributes", one(`{"Projection":{"ProjectionType":"INCLUDE"}}`), invalid + "ProjectionType is INCLUDE, but NonKeyAttributes is not specified"},
		{"keys only with attributes", one(`{"Projection":{"ProjectionType":"KEYS_ONLY","NonKeyAttributes":["a"]}}`), invalid + "ProjectionType is KEYS_ONLY, but NonKeyAttributes is specified"},
		{"no projection type", one(`{"Projection":{}}`), invalid + "Unknown ProjectionType: null"},
		{"same name twice", withVectors([]string{vecIndex, vecIndex}), invalid + "Duplicate index name: vec1"},
		{"same name as a GSI", `{` + defsWithGK + `,"GlobalSecondaryIndexes":[` + gsi + `],"VectorIndexes":[` + vi(`{"IndexName":"gs1"}`) + `]}`, invalid + "Duplicate index name: gs1"},
		{"projected attributes", withVectors(wide), invalid + "Number of projected attributes in all indexes exceeds limit of 100, number of projected attributes: 105"},
		{"unused definition", one(schema("tenant"), "tenant", "spare"),
			invalid + "Number of attributes in KeySchema does not exactly match number of attributes defined in AttributeDefinitions"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			wantMessage(t, CreateTable(patch(t, c.extra)), apierr.Validation, c.want)
		})
	}
}

func TestCreateTableVectorIndexesValid(t *testing.T) {
	sixteen := named(16, "f")
	nka, _ := json.Marshal(named(19, "a"))
	cases := []struct{ name, extra string }{
		{"one index", withVectors([]string{vecIndex})},
		// Definitions that only a search schema uses are used.
		{"hash and filters", withVectors([]string{vi(schema("tenant", "color", "size"))}, "tenant", "color", "size")},
		{"sixteen filters", withVectors([]string{vi(schema("", sixteen...))}, sixteen...)},
		{"largest dimensions", withVectors([]string{vi(`{"Dimensions":16000}`)})},
		{"five indexes, two on one attribute", withVectors([]string{vecIndex, vi(`{"IndexName":"vec2","DistanceFunction":"DOT_PRODUCT"}`),
			vi(`{"IndexName":"vec3","VectorAttribute":{"AttributeName":"emb2"},"Dimensions":7}`), vi(`{"IndexName":"vec4","DistanceFunction":"EUCLIDEAN"}`), vi(`{"IndexName":"vec5"}`)})},
		// 5 × (19 + the vector) = 100, and HASH elements do not count.
		{"projected attributes at the limit", withVectors([]string{
			vi(`{"IndexName":"vec1","Projection":{"ProjectionType":"INCLUDE","NonKeyAttributes":` + string(nka) + `},"SearchSchema":[{"AttributeName":"tenant","SearchSchemaElementType":"HASH"}]}`),
			vi(`{"IndexName":"vec2","Projection":{"ProjectionType":"INCLUDE","NonKeyAttributes":` + string(nka) + `}}`),
			vi(`{"IndexName":"vec3","Projection":{"ProjectionType":"INCLUDE","NonKeyAttributes":` + string(nka) + `}}`),
			vi(`{"IndexName":"vec4","Projection":{"ProjectionType":"INCLUDE","NonKeyAttributes":` + string(nka) + `}}`),
			vi(`{"IndexName":"vec5","Projection":{"ProjectionType":"INCLUDE","NonKeyAttributes":` + string(nka) + `}}`)}, "tenant")},
		{"with a GSI", `{` + defsWithGK + `,"GlobalSecondaryIndexes":[` + gsi + `],"VectorIndexes":[` + vecIndex + `]}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if err := CreateTable(patch(t, c.extra)); err != nil {
				t.Fatal(err)
			}
		})
	}
}

func TestUnusedDefinitionsListSearchSchema(t *testing.T) {
	in := patch(t, `{`+defsWithGK[:len(defsWithGK)-1]+`,{"AttributeName":"tenant","AttributeType":"S"},{"AttributeName":"spare","AttributeType":"S"}],"GlobalSecondaryIndexes":[`+gsi+`],"VectorIndexes":[`+vi(schema("tenant"))+`]}`)
	wantMessage(t, CreateTable(in), apierr.Validation,
		invalid+"Some AttributeDefinitions are not used. AttributeDefinitions: [pk, sk, gk, tenant, spare], keys used: [gk, sk, pk, tenant]")
}

func TestUpdateTableVectorIndexUpdates(t *testing.T) {
	v1 := "1 validation error detected: "
	create := func(extra string) string { return `{"Create":` + vi(extra) + `}` }
	req := func(members string) string { return `{"TableName":"tbl",` + members + `}` }
	tenant := `"AttributeDefinitions":[{"AttributeName":"tenant","AttributeType":"S"}]`
	cases := []struct{ name, in, want string }{
		{"create model", req(`"VectorIndexUpdates":[` + create(`{"Dimensions":0}`) + `]`),
			v1 + "Value '0' at 'vectorIndexUpdates.1.member.create.dimensions' failed to satisfy constraint: Member must have value greater than or equal to 1"},
		{"delete without name", req(`"VectorIndexUpdates":[{"Delete":{}}]`),
			v1 + "Value null at 'vectorIndexUpdates.1.member.delete.indexName' failed to satisfy constraint: Member must not be null"},
		{"empty entry", req(`"VectorIndexUpdates":[{}]`), invalid + "One of VectorIndexUpdate.Create or VectorIndexUpdate.Delete must be specified"},
		{"create and delete", req(`"VectorIndexUpdates":[{"Create":` + vecIndex + `,"Delete":{"IndexName":"vec2"}}]`),
			invalid + "Only one of VectorIndexUpdate.Create or VectorIndexUpdate.Delete can be specified"},
		{"two entries", req(`"VectorIndexUpdates":[{"Delete":{"IndexName":"vec1"}},{"Delete":{"IndexName":"vec2"}}]`),
			invalid + "Only one vector index can be created or deleted per UpdateTable request"},
		{"with GSI updates", req(`"GlobalSecondaryIndexUpdates":[{"Delete":{"IndexName":"gs1"}}],"VectorIndexUpdates":[{"Delete":{"IndexName":"vec1"}}]`),
			invalid + "VectorIndexUpdates and GlobalSecondaryIndexUpdates cannot be specified in the same request"},
		{"to provisioned", req(`"BillingMode":"PROVISIONED","ProvisionedThroughput":{"ReadCapacityUnits":1,"WriteCapacityUnits":1},"VectorIndexUpdates":[` + create(`{}`) + `]`), MsgVectorOnDemand},
		// As for a GSI's keys: the table's own definitions do not count.
		{"search schema without definitions", req(`"VectorIndexUpdates":[` + create(schema("tenant")) + `]`), MsgSearchSchemaUndefined},
		{"search schema undefined", req(tenant + `,"VectorIndexUpdates":[` + create(schema("tenant", "color")) + `]`), MsgSearchSchemaUndefined},
		{"too many dimensions", req(`"VectorIndexUpdates":[` + create(`{"Dimensions":16001}`) + `]`), invalid + "Dimensions for vector index: vec1 exceeds the limit of 16000"},
		{"vector defined", req(`"AttributeDefinitions":[{"AttributeName":"emb","AttributeType":"B"}],"VectorIndexUpdates":[` + create(`{}`) + `]`),
			invalid + "The vector attribute emb of vector index: vec1 cannot be in AttributeDefinitions: a vector is a list of numbers (L), not S, N or B"},
		{"include without attributes", req(`"VectorIndexUpdates":[` + create(`{"Projection":{"ProjectionType":"INCLUDE"}}`) + `]`), invalid + "ProjectionType is INCLUDE, but NonKeyAttributes is not specified"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			in := &protocol.UpdateTableInput{}
			decode(t, c.in, in)
			wantMessage(t, UpdateTable(in), apierr.Validation, c.want)
		})
	}
	for _, ok := range []string{
		req(`"VectorIndexUpdates":[` + create(`{}`) + `]`),
		req(tenant + `,"VectorIndexUpdates":[` + create(schema("tenant")) + `]`),
		req(`"BillingMode":"PAY_PER_REQUEST","VectorIndexUpdates":[` + create(`{}`) + `]`),
		req(`"VectorIndexUpdates":[{"Delete":{"IndexName":"vec1"}}]`),
	} {
		in := &protocol.UpdateTableInput{}
		decode(t, ok, in)
		if err := UpdateTable(in); err != nil {
			t.Errorf("%s: %v", ok, err)
		}
	}
}

// search is a valid SearchVectors request; searchWith overlays members.
const search = `{"TableName":"tbl","IndexName":"vec1","SearchVector":[{"N":"0.1"},{"N":"-2"},{"N":"3e5"}],"TopK":10}`

func searchWith(t *testing.T, extra string) *protocol.SearchVectorsInput {
	t.Helper()
	return overlay[protocol.SearchVectorsInput](t, search, extra)
}

func TestSearchVectors(t *testing.T) {
	v1 := "1 validation error detected: "
	long := `[` + strings.TrimSuffix(strings.Repeat(`{"N":"1"},`, 16001), ",") + `]`
	cases := []struct{ name, extra, want string }{
		{"no table", `{"TableName":null}`, v1 + "Value null at 'tableName' failed to satisfy constraint: Member must not be null"},
		{"short table", `{"TableName":"ab"}`, v1 + "Value 'ab' at 'tableName' failed to satisfy constraint: Member must have length greater than or equal to 3"},
		{"no index", `{"IndexName":null}`, v1 + "Value null at 'indexName' failed to satisfy constraint: Member must not be null"},
		{"index pattern", `{"IndexName":"vec/1"}`, v1 + "Value 'vec/1' at 'indexName' failed to satisfy constraint: Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+"},
		{"no search vector", `{"SearchVector":null}`, v1 + "Value null at 'searchVector' failed to satisfy constraint: Member must not be null"},
		{"empty search vector", `{"SearchVector":[]}`, v1 + "Value '[]' at 'searchVector' failed to satisfy constraint: Member must have length greater than or equal to 1"},
		{"no TopK", `{"TopK":null}`, v1 + "Value null at 'topK' failed to satisfy constraint: Member must not be null"},
		{"capacity enum", `{"ReturnConsumedCapacity":"SOME"}`, v1 + "Value 'SOME' at 'returnConsumedCapacity' failed to satisfy constraint: Member must satisfy enum value set: [INDEXES, TOTAL, NONE]"},
		{"two errors", `{"IndexName":null,"TopK":null}`, "2 validation errors detected: Value null at 'indexName' failed to satisfy constraint: Member must not be null; Value null at 'topK' failed to satisfy constraint: Member must not be null"},
		{"TopK zero", `{"TopK":0}`, "Provided TopK value is out of valid range"},
		{"TopK 101", `{"TopK":101}`, "Provided TopK value is out of valid range"},
		{"TopK negative", `{"TopK":-1}`, "Provided TopK value is out of valid range"},
		{"too long", `{"SearchVector":` + long + `}`, "The SearchVector has 16001 elements, which exceeds the limit of 16000"},
		{"string element", `{"SearchVector":[{"N":"1"},{"S":"2"}]}`, "Invalid SearchVector: element 1 is not a number (N)"},
		{"beyond float32", `{"SearchVector":[{"N":"1e39"}]}`, "Invalid SearchVector: element 0 is outside the float32 range"},
		{"not a number", `{"SearchVector":[{"N":"abc"}]}`, "The parameter cannot be converted to a numeric value: abc"},
		{"empty element", `{"SearchVector":[{}]}`, "Supplied AttributeValue is empty, must contain exactly one of the supported datatypes"},
		{"names unused", `{"ExpressionAttributeNames":{"#a":"a"}}`, "ExpressionAttributeNames can only be specified when using expressions"},
		{"values unused", `{"ExpressionAttributeValues":{":a":{"S":"a"}}}`, "ExpressionAttributeValues can only be specified when using expressions: SearchConditionExpression is null"},
		{"empty names", `{"ExpressionAttributeNames":{},"ProjectionExpression":"a"}`, "ExpressionAttributeNames must not be empty"},
		{"empty values", `{"ExpressionAttributeValues":{},"SearchConditionExpression":"a = :a"}`, "ExpressionAttributeValues must not be empty"},
		{"bad value", `{"ExpressionAttributeValues":{":a":{"SS":[]}},"SearchConditionExpression":"a = :a"}`, "One or more parameter values were invalid: An string set  may not be empty"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			wantMessage(t, SearchVectors(searchWith(t, c.extra)), apierr.Validation, c.want)
		})
	}
}

func TestSearchVectorsValid(t *testing.T) {
	for _, extra := range []string{
		`{}`,
		`{"TableName":"arn:aws:dynamodb:us-east-1:000000000000:table/tbl","TopK":1}`,
		`{"TopK":100,"ReturnConsumedCapacity":"TOTAL"}`,
		// More precision than float32 holds is accepted and rounded.
		`{"SearchVector":[{"N":"0.12345678901234567890123456789012345678"}]}`,
		`{"SearchVector":[{"N":"3.4e38"},{"N":"-3.4e38"},{"N":"1e-130"}]}`,
		`{"ProjectionExpression":"#t, score","ExpressionAttributeNames":{"#t":"title"}}`,
		`{"SearchConditionExpression":"#c = :c","ExpressionAttributeNames":{"#c":"color"},"ExpressionAttributeValues":{":c":{"S":"red"}}}`,
	} {
		if err := SearchVectors(searchWith(t, extra)); err != nil {
			t.Errorf("%s: %v", extra, err)
		}
	}
}

// FuzzVectorRequests sends any body the protocol decoder accepts through
// the validators of the three requests that carry vector members: none
// may panic, whatever members are missing.
func FuzzVectorRequests(f *testing.F) {
	f.Add([]byte(patchJSON(withVectors([]string{vi(schema("tenant", "color"))}, "tenant", "color"))))
	f.Add([]byte(`{"TableName":"tbl","AttributeDefinitions":[{"AttributeName":"tenant","AttributeType":"S"}],"VectorIndexUpdates":[{"Create":` + vi(schema("tenant")) + `}]}`))
	f.Add([]byte(`{"TableName":"tbl","VectorIndexUpdates":[{"Create":{"SearchSchema":[{}],"VectorAttribute":{}},"Delete":{}}]}`))
	f.Add([]byte(`{"VectorIndexes":[{"SearchSchema":[{}],"Projection":{}}],"BillingMode":"PAY_PER_REQUEST"}`))
	f.Add([]byte(search))
	f.Add([]byte(`{"TableName":"tbl","IndexName":"vec1","SearchVector":[{"N":"1e400"},{"L":[]},{}],"TopK":0,"ExpressionAttributeValues":{}}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		ct := &protocol.CreateTableInput{}
		if protocol.Decode(body, ct) == nil {
			_ = CreateTable(ct)
		}
		ut := &protocol.UpdateTableInput{}
		if protocol.Decode(body, ut) == nil {
			_ = UpdateTable(ut)
		}
		sv := &protocol.SearchVectorsInput{}
		if protocol.Decode(body, sv) == nil {
			_ = SearchVectors(sv)
		}
	})
}

// patchJSON is base with the members of extra, as patch builds it.
func patchJSON(extra string) string {
	m := map[string]any{}
	x := map[string]any{}
	_ = json.Unmarshal([]byte(base), &m)
	_ = json.Unmarshal([]byte(extra), &x)
	for k, v := range x {
		m[k] = v
	}
	b, _ := json.Marshal(m)
	return string(b)
}
