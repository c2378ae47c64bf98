package validate

import (
	"encoding/json"
	"errors"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/sortkeydb/sortkey/internal/apierr"
	"github.com/sortkeydb/sortkey/internal/protocol"
)

// base is a valid CreateTable request; cases edit its JSON.
const base = `{"TableName":"tbl","KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},{"AttributeName":"sk","KeyType":"RANGE"}],
"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},{"AttributeName":"sk","AttributeType":"S"}],
"BillingMode":"PAY_PER_REQUEST"}`

func decode(t *testing.T, s string, out any) {
	t.Helper()
	if err := json.Unmarshal([]byte(s), out); err != nil {
		t.Fatalf("bad fixture %s: %v", s, err)
	}
}

// patch overlays the members of extra on base.
func patch(t *testing.T, extra string) *protocol.CreateTableInput {
	t.Helper()
	return overlay[protocol.CreateTableInput](t, base, extra)
}

// overlay is the request body with extra's members set over it (a null
// member removed), decoded as a T.
func overlay[T any](t *testing.T, body, extra string) *T {
	t.Helper()
	m := map[string]any{}
	decode(t, body, &m)
	x := map[string]any{}
	decode(t, extra, &x)
	for k, v := range x {
		if v == nil {
			delete(m, k)
			continue
		}
		m[k] = v
	}
	b, _ := json.Marshal(m)
	in := new(T)
	decode(t, string(b), in)
	return in
}

func wantMessage(t *testing.T, err error, code apierr.Code, want string) {
	t.Helper()
	var e *apierr.Error
	if !errors.As(err, &e) {
		t.Fatalf("got %v, want %s %q", err, code, want)
	}
	if e.Code != code || e.Message != want {
		t.Fatalf("got %s %q\nwant %s %q", e.Code, e.Message, code, want)
	}
}

const gsi = `{"IndexName":"gs1","KeySchema":[{"AttributeName":"gk","KeyType":"HASH"}],"Projection":{"ProjectionType":"ALL"}}`

const defsWithGK = `"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},{"AttributeName":"sk","AttributeType":"S"},{"AttributeName":"gk","AttributeType":"S"}]`

func TestCreateTable(t *testing.T) {
	v1 := "1 validation error detected: "
	cases := []struct{ name, extra, want string }{
		{"null name", `{"TableName":null}`, "The parameter 'TableName' is required but was not present in the request"},
		{"empty name", `{"TableName":""}`, v1 + "Value '' at 'tableName' failed to satisfy constraint: Member must have length greater than or equal to 1"},
		{"short name", `{"TableName":"ab"}`, v1 + "Value 'ab' at 'tableName' failed to satisfy constraint: Member must have length greater than or equal to 3"},
		{"long name", `{"TableName":"` + strings.Repeat("a", 256) + `"}`, v1 + "Value '" + strings.Repeat("a", 256) + "' at 'tableName' failed to satisfy constraint: Member must have length less than or equal to 255"},
		{"bad name", `{"TableName":"a b"}`, v1 + "Value 'a b' at 'tableName' failed to satisfy constraint: Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+"},
		{"two errors", `{"TableName":"ab","KeySchema":null}`, "2 validation errors detected: Value 'ab' at 'tableName' failed to satisfy constraint: Member must have length greater than or equal to 3; Value null at 'keySchema' failed to satisfy constraint: Member must not be null"},
		{"empty keys", `{"KeySchema":[]}`, v1 + "Value '[]' at 'keySchema' failed to satisfy constraint: Member must have length greater than or equal to 1"},
		{"three keys", `{"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},{"AttributeName":"sk","KeyType":"RANGE"},{"AttributeName":"x","KeyType":"RANGE"}]}`,
			v1 + "Value '[KeySchemaElement(attributeName=pk, keyType=HASH), KeySchemaElement(attributeName=sk, keyType=RANGE), KeySchemaElement(attributeName=x, keyType=RANGE)]' at 'keySchema' failed to satisfy constraint: Member must have length less than or equal to 2"},
		{"key type", `{"KeySchema":[{"AttributeName":"pk","KeyType":"SORT"}]}`, v1 + "Value 'SORT' at 'keySchema.1.member.keyType' failed to satisfy constraint: Member must satisfy enum value set: [HASH, RANGE]"},
		{"attr type", `{"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"M"},{"AttributeName":"sk","AttributeType":"S"}]}`, v1 + "Value 'M' at 'attributeDefinitions.1.member.attributeType' failed to satisfy constraint: Member must satisfy enum value set: [B, N, S]"},
		{"null defs", `{"AttributeDefinitions":null}`, v1 + "Value null at 'attributeDefinitions' failed to satisfy constraint: Member must not be null"},
		{"zero capacity", `{"BillingMode":null,"ProvisionedThroughput":{"ReadCapacityUnits":0,"WriteCapacityUnits":0}}`,
			"2 validation errors detected: Value '0' at 'provisionedThroughput.writeCapacityUnits' failed to satisfy constraint: Member must have value greater than or equal to 1; Value '0' at 'provisionedThroughput.readCapacityUnits' failed to satisfy constraint: Member must have value greater than or equal to 1"},
		{"billing enum", `{"BillingMode":"FREE"}`, v1 + "Value 'FREE' at 'billingMode' failed to satisfy constraint: Member must satisfy enum value set: [PROVISIONED, PAY_PER_REQUEST]"},
		{"gsi name", `{` + defsWithGK + `,"GlobalSecondaryIndexes":[{"IndexName":"g","KeySchema":[{"AttributeName":"gk","KeyType":"HASH"}],"Projection":{"ProjectionType":"ALL"}}]}`,
			v1 + "Value 'g' at 'globalSecondaryIndexes.1.member.indexName' failed to satisfy constraint: Member must have length greater than or equal to 3"},
		{"gsi projection null", `{` + defsWithGK + `,"GlobalSecondaryIndexes":[{"IndexName":"gs1","KeySchema":[{"AttributeName":"gk","KeyType":"HASH"}]}]}`,
			v1 + "Value null at 'globalSecondaryIndexes.1.member.projection' failed to satisfy constraint: Member must not be null"},
		{"projection enum", `{` + defsWithGK + `,"GlobalSecondaryIndexes":[{"IndexName":"gs1","KeySchema":[{"AttributeName":"gk","KeyType":"HASH"}],"Projection":{"ProjectionType":"SOME"}}]}`,
			v1 + "Value 'SOME' at 'globalSecondaryIndexes.1.member.projection.projectionType' failed to satisfy constraint: Member must satisfy enum value set: [ALL, KEYS_ONLY, INCLUDE]"},
		{"stream enabled null", `{"StreamSpecification":{}}`, v1 + "Value null at 'streamSpecification.streamEnabled' failed to satisfy constraint: Member must not be null"},
		{"stream enum", `{"StreamSpecification":{"StreamEnabled":true,"StreamViewType":"ALL"}}`, v1 + "Value 'ALL' at 'streamSpecification.streamViewType' failed to satisfy constraint: Member must satisfy enum value set: [NEW_IMAGE, OLD_IMAGE, NEW_AND_OLD_IMAGES, KEYS_ONLY]"},
		{"table class", `{"TableClass":"COLD"}`, v1 + "Value 'COLD' at 'tableClass' failed to satisfy constraint: Member must satisfy enum value set: [STANDARD, STANDARD_INFREQUENT_ACCESS]"},
		{"sse type", `{"SSESpecification":{"Enabled":true,"SSEType":"RSA"}}`, v1 + "Value 'RSA' at 'sseSpecification.sseType' failed to satisfy constraint: Member must satisfy enum value set: [AES256, KMS]"},
		{"tag key", `{"Tags":[{"Key":"","Value":"v"}]}`, v1 + "Value '' at 'tags.1.member.key' failed to satisfy constraint: Member must have length greater than or equal to 1"},
		{"first not hash", `{"KeySchema":[{"AttributeName":"sk","KeyType":"RANGE"},{"AttributeName":"pk","KeyType":"HASH"}]}`, "Invalid KeySchema: The first KeySchemaElement is not a HASH key type"},
		{"second not range", `{"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},{"AttributeName":"sk","KeyType":"HASH"}]}`, "Invalid KeySchema: The second KeySchemaElement is not a RANGE key type"},
		{"same name", `{"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},{"AttributeName":"pk","KeyType":"RANGE"}]}`, "Invalid KeySchema: Some index key attribute have no definition"},
		{"undefined key", `{"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}]}`, "Invalid KeySchema: Some index key attribute have no definition"},
		{"extra def", `{"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},{"AttributeName":"sk","AttributeType":"S"},{"AttributeName":"x","AttributeType":"S"}]}`,
			invalid + "Number of attributes in KeySchema does not exactly match number of attributes defined in AttributeDefinitions"},
		{"duplicate def", `{"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},{"AttributeName":"pk","AttributeType":"N"}]}`, invalid + "Duplicate AttributeName in AttributeDefinitions: pk"},
		{"unused def", `{"KeySchema":[{"AttributeName":"key","KeyType":"HASH"},{"AttributeName":"assignedTo","KeyType":"RANGE"}],"AttributeDefinitions":[{"AttributeName":"key","AttributeType":"S"},{"AttributeName":"assignedTo","AttributeType":"S"},{"AttributeName":"roles","AttributeType":"S"},{"AttributeName":"tt","AttributeType":"S"}],"GlobalSecondaryIndexes":[{"IndexName":"Index2","KeySchema":[{"AttributeName":"tt","KeyType":"HASH"}],"Projection":{"ProjectionType":"ALL"}}]}`,
			invalid + "Some AttributeDefinitions are not used. AttributeDefinitions: [key, assignedTo, roles, tt], keys used: [tt, key, assignedTo]"},
		{"undefined index key", `{"GlobalSecondaryIndexes":[` + gsi + `]}`, invalid + "Some index key attributes are not defined in AttributeDefinitions. Keys: [gk, sk, pk], AttributeDefinitions: [pk, sk]"},
		{"provisioned without throughput", `{"BillingMode":null}`, invalid + "ReadCapacityUnits and WriteCapacityUnits must both be specified when BillingMode is PROVISIONED"},
		{"on demand with throughput", `{"ProvisionedThroughput":{"ReadCapacityUnits":1,"WriteCapacityUnits":1}}`, invalid + "Neither ReadCapacityUnits nor WriteCapacityUnits can be specified when BillingMode is PAY_PER_REQUEST"},
		{"gsi without throughput", `{"BillingMode":"PROVISIONED","ProvisionedThroughput":{"ReadCapacityUnits":1,"WriteCapacityUnits":1},` + defsWithGK + `,"GlobalSecondaryIndexes":[` + gsi + `]}`, invalid + "ProvisionedThroughput is not specified for index: gs1"},
		{"gsi with throughput", `{` + defsWithGK + `,"GlobalSecondaryIndexes":[{"IndexName":"gs1","KeySchema":[{"AttributeName":"gk","KeyType":"HASH"}],"Projection":{"ProjectionType":"ALL"},"ProvisionedThroughput":{"ReadCapacityUnits":1,"WriteCapacityUnits":1}}]}`,
			invalid + "ProvisionedThroughput should not be specified for index: gs1 when BillingMode is PAY_PER_REQUEST"},
		{"include without attrs", `{` + defsWithGK + `,"GlobalSecondaryIndexes":[{"IndexName":"gs1","KeySchema":[{"AttributeName":"gk","KeyType":"HASH"}],"Projection":{"ProjectionType":"INCLUDE"}}]}`,
			invalid + "ProjectionType is INCLUDE, but NonKeyAttributes is not specified"},
		{"all with attrs", `{` + defsWithGK + `,"GlobalSecondaryIndexes":[{"IndexName":"gs1","KeySchema":[{"AttributeName":"gk","KeyType":"HASH"}],"Projection":{"ProjectionType":"ALL","NonKeyAttributes":["a"]}}]}`,
			invalid + "ProjectionType is ALL, but NonKeyAttributes is specified"},
		{"gsi first not hash", `{` + defsWithGK + `,"GlobalSecondaryIndexes":[{"IndexName":"gs1","KeySchema":[{"AttributeName":"gk","KeyType":"RANGE"}],"Projection":{"ProjectionType":"ALL"}}]}`,
			"Invalid KeySchema: The first KeySchemaElement is not a HASH key type"},
		{"duplicate index", `{` + defsWithGK + `,"GlobalSecondaryIndexes":[` + gsi + `,` + gsi + `]}`, invalid + "Duplicate index name: gs1"},
		{"lsi on hash table", `{"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},{"AttributeName":"sk","AttributeType":"S"}],"LocalSecondaryIndexes":[{"IndexName":"ls1","KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},{"AttributeName":"sk","KeyType":"RANGE"}],"Projection":{"ProjectionType":"ALL"}}]}`,
			invalid + "Table KeySchema does not have a range key, which is required when specifying a LocalSecondaryIndex"},
		{"lsi other hash", `{` + defsWithGK + `,"LocalSecondaryIndexes":[{"IndexName":"ls1","KeySchema":[{"AttributeName":"gk","KeyType":"HASH"},{"AttributeName":"sk","KeyType":"RANGE"}],"Projection":{"ProjectionType":"ALL"}}]}`,
			invalid + "Index KeySchema does not have the same leading hash key as table KeySchema for index: ls1. index hash key: gk, table hash key: pk"},
		{"lsi no range", `{"LocalSecondaryIndexes":[{"IndexName":"ls1","KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],"Projection":{"ProjectionType":"ALL"}}]}`,
			invalid + "Index KeySchema does not have a range key for index: ls1"},
		// facts 19.1: a repeated index key name comes before unused definitions.
		{"gsi key twice, unused def", `{"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},{"AttributeName":"sk","AttributeType":"S"},{"AttributeName":"gk","AttributeType":"S"},{"AttributeName":"b","AttributeType":"S"}],"GlobalSecondaryIndexes":[{"IndexName":"gs1","KeySchema":[{"AttributeName":"gk","KeyType":"HASH"},{"AttributeName":"gk","KeyType":"HASH"}],"Projection":{"ProjectionType":"ALL"}}]}`,
			"The KeySchema contains multiple key attributes with the same name"},
		// facts 19.2: an LSI naming the hash key twice is "same name", not fact 9's text.
		{"lsi key twice", `{"LocalSecondaryIndexes":[{"IndexName":"hello","KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},{"AttributeName":"pk","KeyType":"RANGE"}],"Projection":{"ProjectionType":"ALL"}}]}`,
			"The KeySchema contains multiple key attributes with the same name"},
		// facts 19.3: a projected attribute listed twice.
		{"duplicate non-key", `{` + defsWithGK + `,"GlobalSecondaryIndexes":[{"IndexName":"gs1","KeySchema":[{"AttributeName":"gk","KeyType":"HASH"}],"Projection":{"ProjectionType":"INCLUDE","NonKeyAttributes":["a","a"]}}]}`,
			invalid + "Duplicate NonKeyAttributes in Projection: a"},
		{"stream disabled with view", `{"StreamSpecification":{"StreamEnabled":false,"StreamViewType":"NEW_IMAGE"}}`, invalid + "Table is being created with a stream disabled, UpdateViewType should not be specified"},
		{"stream enabled without view", `{"StreamSpecification":{"StreamEnabled":true}}`, invalid + "You must specify a StreamViewType when enabling a stream"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			wantMessage(t, CreateTable(patch(t, c.extra)), apierr.Validation, c.want)
		})
	}
}

func TestCreateTableValid(t *testing.T) {
	for _, extra := range []string{`{}`, `{"TableName":"arn:aws:dynamodb:us-east-1:000000000000:table/tbl"}`,
		`{` + defsWithGK + `,"GlobalSecondaryIndexes":[` + gsi + `],"LocalSecondaryIndexes":[{"IndexName":"ls1","KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},{"AttributeName":"gk","KeyType":"RANGE"}],"Projection":{"ProjectionType":"INCLUDE","NonKeyAttributes":["a"]}}],"StreamSpecification":{"StreamEnabled":true,"StreamViewType":"NEW_IMAGE"},"Tags":[{"Key":"k","Value":""}]}`,
	} {
		if err := CreateTable(patch(t, extra)); err != nil {
			t.Errorf("%s: %v", extra, err)
		}
	}
}

func TestLimits(t *testing.T) {
	var nka []string
	for i := 0; i < 20; i++ {
		nka = append(nka, "a"+strconv.Itoa(i)) // distinct: a name listed twice is refused first
	}
	b, _ := json.Marshal(nka)
	var idx []string
	for _, n := range []string{"g01", "g02", "g03", "g04", "g05", "g06"} {
		idx = append(idx, `{"IndexName":"`+n+`","KeySchema":[{"AttributeName":"gk","KeyType":"HASH"}],"Projection":{"ProjectionType":"INCLUDE","NonKeyAttributes":`+string(b)+`}}`)
	}
	in := patch(t, `{`+defsWithGK+`,"GlobalSecondaryIndexes":[`+strings.Join(idx, ",")+`]}`)
	wantMessage(t, CreateTable(in), apierr.Validation, invalid+"Number of projected attributes in all indexes exceeds limit of 100, number of projected attributes: 120")
	var many []string
	for i := 0; i < 21; i++ {
		many = append(many, `{"IndexName":"g`+strings.Repeat("x", i+2)+`","KeySchema":[{"AttributeName":"gk","KeyType":"HASH"}],"Projection":{"ProjectionType":"ALL"}}`)
	}
	in = patch(t, `{`+defsWithGK+`,"GlobalSecondaryIndexes":[`+strings.Join(many, ",")+`]}`)
	wantMessage(t, CreateTable(in), apierr.Validation, invalid+"GlobalSecondaryIndex count exceeds the per-table limit of 20")
}

func TestUpdateTable(t *testing.T) {
	create := func(name string) string {
		return `{"Create":{"IndexName":"` + name + `","KeySchema":[{"AttributeName":"gk","KeyType":"HASH"}],"Projection":{"ProjectionType":"ALL"}}}`
	}
	cases := []struct {
		name, in string
		code     apierr.Code
		want     string
	}{
		{"nothing", `{"TableName":"tbl"}`, apierr.Validation, "At least one of ProvisionedThroughput, BillingMode, UpdateStreamEnabled, GlobalSecondaryIndexUpdates or SSESpecification or ReplicaUpdates is required"},
		{"null name", `{"BillingMode":"PAY_PER_REQUEST"}`, apierr.Validation, "The parameter 'TableName' is required but was not present in the request"},
		{"on demand with throughput", `{"TableName":"tbl","BillingMode":"PAY_PER_REQUEST","ProvisionedThroughput":{"ReadCapacityUnits":1,"WriteCapacityUnits":1}}`, apierr.Validation,
			invalid + "Neither ReadCapacityUnits nor WriteCapacityUnits can be specified when BillingMode is PAY_PER_REQUEST"},
		{"two creates", `{"TableName":"tbl","AttributeDefinitions":[{"AttributeName":"gk","AttributeType":"S"}],"GlobalSecondaryIndexUpdates":[` + create("gs1") + `,` + create("gs2") + `]}`, apierr.LimitExceeded,
			"Subscriber limit exceeded: Only 1 online index can be created or deleted simultaneously per table"},
		{"same index twice", `{"TableName":"tbl","GlobalSecondaryIndexUpdates":[{"Delete":{"IndexName":"gs1"}},{"Delete":{"IndexName":"gs1"}}]}`, apierr.Validation,
			invalid + "Only one global secondary index update per index is allowed simultaneously. Index: gs1"},
		// facts 16.2: a new index's keys need AttributeDefinitions even when the table knows them.
		{"no definitions", `{"TableName":"tbl","GlobalSecondaryIndexUpdates":[` + create("gs1") + `]}`, apierr.Validation,
			invalid + "Some index key attributes are not defined in AttributeDefinitions. Keys: [gk], AttributeDefinitions: []"},
		{"undefined key", `{"TableName":"tbl","AttributeDefinitions":[{"AttributeName":"x","AttributeType":"S"}],"GlobalSecondaryIndexUpdates":[` + create("gs1") + `]}`, apierr.Validation, "Invalid KeySchema: Some index key attribute have no definition"},
		// facts 17.2: Create and Delete in one element.
		{"create and delete", `{"TableName":"tbl","AttributeDefinitions":[{"AttributeName":"gk","AttributeType":"S"}],"GlobalSecondaryIndexUpdates":[{"Create":{"IndexName":"ind","KeySchema":[{"AttributeName":"gk","KeyType":"HASH"}],"Projection":{"ProjectionType":"ALL"}},"Delete":{"IndexName":"xyz"}}]}`, apierr.Validation,
			invalid + "Only one of GlobalSecondaryIndexUpdate.Create, GlobalSecondaryIndexUpdate.Update or GlobalSecondaryIndexUpdate.Delete can be specified"},
		// facts 17.3: two online index changes in one request.
		{"two deletes", `{"TableName":"tbl","GlobalSecondaryIndexUpdates":[{"Delete":{"IndexName":"gs1"}},{"Delete":{"IndexName":"gs2"}}]}`, apierr.LimitExceeded,
			"Subscriber limit exceeded: Only 1 online index can be created or deleted simultaneously per table"},
		{"create then delete", `{"TableName":"tbl","AttributeDefinitions":[{"AttributeName":"gk","AttributeType":"S"}],"GlobalSecondaryIndexUpdates":[` + create("gs1") + `,{"Delete":{"IndexName":"gs2"}}]}`, apierr.LimitExceeded,
			"Subscriber limit exceeded: Only 1 online index can be created or deleted simultaneously per table"},
		// facts 19.1/19.2: a repeated index key name is "same name".
		{"index key twice", `{"TableName":"tbl","AttributeDefinitions":[{"AttributeName":"gk","AttributeType":"S"}],"GlobalSecondaryIndexUpdates":[{"Create":{"IndexName":"ind","KeySchema":[{"AttributeName":"gk","KeyType":"HASH"},{"AttributeName":"gk","KeyType":"RANGE"}],"Projection":{"ProjectionType":"ALL"}}}]}`, apierr.Validation,
			"The KeySchema contains multiple key attributes with the same name"},
		{"create index name", `{"TableName":"tbl","GlobalSecondaryIndexUpdates":[{"Create":{"KeySchema":[{"AttributeName":"gk","KeyType":"HASH"}],"Projection":{"ProjectionType":"ALL"}}}]}`, apierr.Validation,
			"1 validation error detected: Value null at 'globalSecondaryIndexUpdates.1.member.create.indexName' failed to satisfy constraint: Member must not be null"},
		{"empty action", `{"TableName":"tbl","GlobalSecondaryIndexUpdates":[{}]}`, apierr.Validation,
			invalid + "One of GlobalSecondaryIndexUpdate.Create, GlobalSecondaryIndexUpdate.Update or GlobalSecondaryIndexUpdate.Delete must be specified"},
		{"on demand index throughput", `{"TableName":"tbl","BillingMode":"PAY_PER_REQUEST","AttributeDefinitions":[{"AttributeName":"gk","AttributeType":"S"}],"GlobalSecondaryIndexUpdates":[{"Create":{"IndexName":"gs1","KeySchema":[{"AttributeName":"gk","KeyType":"HASH"}],"Projection":{"ProjectionType":"ALL"},"ProvisionedThroughput":{"ReadCapacityUnits":1,"WriteCapacityUnits":1}}}]}`, apierr.Validation,
			invalid + "Neither ReadCapacityUnits nor WriteCapacityUnits can be specified for index: gs1 when BillingMode is PAY_PER_REQUEST"},
		{"stream without view", `{"TableName":"tbl","StreamSpecification":{"StreamEnabled":true}}`, apierr.Validation, invalid + "You must specify a StreamViewType when enabling a stream"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			in := &protocol.UpdateTableInput{}
			decode(t, c.in, in)
			wantMessage(t, UpdateTable(in), c.code, c.want)
		})
	}
	ok := &protocol.UpdateTableInput{}
	decode(t, `{"TableName":"tbl","AttributeDefinitions":[{"AttributeName":"gk","AttributeType":"S"}],"GlobalSecondaryIndexUpdates":[`+create("gs1")+`,{"Update":{"IndexName":"gs2","ProvisionedThroughput":{"ReadCapacityUnits":1,"WriteCapacityUnits":1}}}]}`, ok)
	if err := UpdateTable(ok); err != nil {
		t.Fatal(err)
	}
}

func TestOtherOperations(t *testing.T) {
	v1 := "1 validation error detected: "
	name := "tbl"
	long := strings.Repeat("a", 1025)
	wantMessage(t, TableName(nil, "tableName"), apierr.Validation, "The parameter 'TableName' is required but was not present in the request")
	wantMessage(t, TableName(&long, "tableName"), apierr.Validation, v1+"Value '"+long+"' at 'tableName' failed to satisfy constraint: Member must have length less than or equal to 1024")
	if err := TableName(&name, "tableName"); err != nil {
		t.Fatal(err)
	}
	zero, big := int64(0), int64(101)
	wantMessage(t, ListTables(&protocol.ListTablesInput{Limit: &zero}), apierr.Validation, v1+"Value '0' at 'limit' failed to satisfy constraint: Member must have value greater than or equal to 1")
	wantMessage(t, ListTables(&protocol.ListTablesInput{Limit: &big}), apierr.Validation, v1+"Value '101' at 'limit' failed to satisfy constraint: Member must have value less than or equal to 100")
	short := "ab"
	wantMessage(t, ListTables(&protocol.ListTablesInput{ExclusiveStartTableName: &short}), apierr.Validation, v1+"Value 'ab' at 'exclusiveStartTableName' failed to satisfy constraint: Member must have length greater than or equal to 3")
	wantMessage(t, ListTagsOfResource(&protocol.ListTagsOfResourceInput{}), apierr.Validation, v1+"Value null at 'resourceArn' failed to satisfy constraint: Member must not be null")
	arn := "arn:aws:dynamodb:us-east-1:000000000000:table/tbl"
	tags := &protocol.TagResourceInput{}
	decode(t, `{"ResourceArn":"`+arn+`","Tags":[{"Key":"`+strings.Repeat("k", 129)+`","Value":"`+strings.Repeat("v", 257)+`"}]}`, tags)
	wantMessage(t, TagResource(tags), apierr.Validation, "2 validation errors detected: Value '"+strings.Repeat("k", 129)+"' at 'tags.1.member.key' failed to satisfy constraint: Member must have length less than or equal to 128; Value '"+strings.Repeat("v", 257)+"' at 'tags.1.member.value' failed to satisfy constraint: Member must have length less than or equal to 256")
	tags.Tags = nil
	for i := 0; i < 51; i++ {
		k, v := "k"+strings.Repeat("x", i), "v"
		tags.Tags = append(tags.Tags, protocol.Tag{Key: &k, Value: &v})
	}
	wantMessage(t, TagResource(tags), apierr.Validation, invalid+"The number of tags exceeds the limit of 50")
	wantMessage(t, UntagResource(&protocol.UntagResourceInput{ResourceArn: &arn, TagKeys: []string{""}}), apierr.Validation, v1+"Value '' at 'tagKeys.1.member' failed to satisfy constraint: Member must have length greater than or equal to 1")
}

func FuzzCreateTable(f *testing.F) {
	f.Add([]byte(base))
	f.Add([]byte(`{"TableName":"tbl","KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},{"AttributeName":"gk","AttributeType":"S"}],"GlobalSecondaryIndexes":[` + gsi + `],"LocalSecondaryIndexes":[{"IndexName":"ls1","KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],"Projection":{}}],"StreamSpecification":{"StreamEnabled":true}}`))
	f.Add([]byte(`{"KeySchema":[{},{}],"GlobalSecondaryIndexes":[{}],"LocalSecondaryIndexes":[{"KeySchema":[]}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		in := &protocol.CreateTableInput{}
		if json.Unmarshal(data, in) != nil {
			return
		}
		_ = CreateTable(in)
		up := &protocol.UpdateTableInput{}
		if json.Unmarshal(data, up) == nil {
			_ = UpdateTable(up)
		}
	})
}

// TestValidNameMatchesThePattern holds the hand-written check to the
// pattern DynamoDB prints.
func TestValidNameMatchesThePattern(t *testing.T) {
	re := regexp.MustCompile(`^` + namePattern + `$`)
	for _, s := range []string{"", "a", "Table_1.x-y", "a b", "é", "t\x00", "-", ".", "ZZ", "a/b", "a\n", "\xff"} {
		if got, want := validName(s), re.MatchString(s); got != want {
			t.Errorf("validName(%q) = %v, pattern says %v", s, got, want)
		}
	}
	for c := 0; c < 256; c++ {
		s := string([]byte{byte(c)})
		if got, want := validName(s), re.MatchString(s); got != want {
			t.Errorf("validName(%q) = %v, pattern says %v", s, got, want)
		}
	}
}
