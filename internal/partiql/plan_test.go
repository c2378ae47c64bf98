package partiql

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/sortkeydb/sortkey/internal/attr"
	"github.com/sortkeydb/sortkey/internal/protocol"
)

// TestPlans maps statements to the native request each runs as, written
// as that request's JSON.
func TestPlans(t *testing.T) {
	k := keys{partition: "pk", sort: "sk"}
	cases := []struct{ stmt, want string }{
		{`SELECT * FROM "T" WHERE pk = 'a' AND sk = 1`,
			`{"Get":{"TableName":"T","Key":{"pk":{"S":"a"},"sk":{"N":"1"}}}}`},
		{`SELECT a, b.c[2] FROM "T" WHERE sk = 1 AND pk = 'a'`,
			`{"Get":{"TableName":"T","Key":{"pk":{"S":"a"},"sk":{"N":"1"}},"ProjectionExpression":"a, b.c[2]"}}`},
		{`SELECT * FROM "T" WHERE pk = 'a'`,
			`{"Query":{"TableName":"T","KeyConditionExpression":"pk = :v0"}}`},
		{`SELECT * FROM "T"."I" WHERE pk = 'a' AND sk = 1`,
			`{"Query":{"TableName":"T","IndexName":"I","KeyConditionExpression":"pk = :v0 AND sk = :v1"}}`},
		{`SELECT * FROM "T" WHERE x > 2 AND pk = 'a' AND begins_with(sk, 'p') ORDER BY sk DESC`,
			`{"Query":{"TableName":"T","FilterExpression":"x > :v2","KeyConditionExpression":"pk = :v0 AND begins_with(sk, :v1)","ScanIndexForward":false}}`},
		{`SELECT * FROM "T" WHERE pk = 'a' AND sk > 1 AND sk < 5`,
			`{"Scan":{"TableName":"T","FilterExpression":"pk = :v0 AND sk > :v1 AND sk < :v2"}}`},
		{`SELECT * FROM "T" WHERE pk = 'a' OR pk = 'b'`,
			`{"Scan":{"TableName":"T","FilterExpression":"pk = :v0 OR pk = :v1"}}`},
		{`SELECT * FROM "T"`, `{"Scan":{"TableName":"T"}}`},
		{`INSERT INTO "T" VALUE {'pk': 'a', 'sk': 1}`,
			`{"Put":{"TableName":"T","Item":{"pk":{"S":"a"},"sk":{"N":"1"}},"ConditionExpression":"attribute_not_exists(pk)"}}`},
		{`UPDATE "T" SET "size" = 3 REMOVE r WHERE pk = 'a' AND sk = 1 AND v = 2 RETURNING MODIFIED OLD *`,
			`{"Update":{"TableName":"T","Key":{"pk":{"S":"a"},"sk":{"N":"1"}},"UpdateExpression":"SET #n0 = :v0 REMOVE r","ReturnValues":"UPDATED_OLD","ConditionExpression":"attribute_exists(pk) AND v = :v1","ExpressionAttributeNames":{"#n0":"size"}}}`},
		{`DELETE FROM "T" WHERE pk = 'a' AND sk = 1 AND v = 2`,
			`{"Delete":{"TableName":"T","Key":{"pk":{"S":"a"},"sk":{"N":"1"}},"ConditionExpression":"attribute_not_exists(pk) OR v = :v0"}}`},
	}
	for _, tc := range cases {
		if got := planJSON(t, tc.stmt, k); got != tc.want {
			t.Errorf("%s\n got %s\nwant %s", tc.stmt, got, tc.want)
		}
	}
}

// planJSON plans stmt and writes the plan without its values, which the
// expression texts already show by placeholder.
func planJSON(t *testing.T, stmt string, k keys) string {
	t.Helper()
	st, err := Parse(stmt, nil)
	if err != nil {
		t.Fatalf("%s: %v", stmt, err)
	}
	p, err := PlanStatement(st, k)
	if err != nil {
		t.Fatalf("%s: %v", stmt, err)
	}
	if v := valuesOf(p); v != nil {
		*v = nil
	}
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(p)
	return strings.TrimSpace(b.String())
}

func valuesOf(p *Plan) *attr.Item {
	switch {
	case p.Query != nil:
		return (*attr.Item)(&p.Query.ExpressionAttributeValues)
	case p.Scan != nil:
		return (*attr.Item)(&p.Scan.ExpressionAttributeValues)
	case p.Update != nil:
		return (*attr.Item)(&p.Update.ExpressionAttributeValues)
	case p.Delete != nil:
		return (*attr.Item)(&p.Delete.ExpressionAttributeValues)
	}
	return nil
}

func TestParseErrors(t *testing.T) {
	for stmt, want := range map[string]string{
		`SELECT`:                                          msgMalformed + msgTerm,
		`SELECT * FROM T WHERE a = 1 b`:                   msgMalformed + msgTrailing,
		`SELECT * FROM T WHERE a = ?`:                     msgParamNumber + "1e99999999999",
		`SELECT * FROM T /* open`:                         msgMalformed,
		`SELECT * FROM T WHERE a = <<1, 'x'>>`:            msgSetMixed,
		`SELECT * FROM T WHERE exists(a)`:                 msgMalformed + msgUnsupport + "EXISTS outside ExecuteTransaction",
		`UPDATE T SET a = set_add(b, <<1>>) WHERE pk = 1`: msgMalformed + msgUnsupport + "set_add whose first argument is not the path set",
		`SELECT * FROM T WHERE ` + repeat("(", 40) + "a = 1" + repeat(")", 40): msgNesting,
	} {
		_, err := Parse(stmt, nil)
		if strings.Contains(stmt, "?") {
			_, err = Parse(stmt, []attr.Value{{N: ptr("1e99999999999")}})
		}
		if err == nil || err.Error() != "ValidationException: "+want {
			t.Errorf("%s: got %v, want %s", stmt, err, want)
		}
	}
}

func repeat(s string, n int) string {
	out := ""
	for range n {
		out += s
	}
	return out
}

// FuzzParse holds the parser to never panicking, and to planning whatever
// it accepts.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		`SELECT a, b.c[1] FROM "T"."I" WHERE pk = 'x' AND sk BETWEEN 1 AND 2 ORDER BY sk DESC`,
		`INSERT INTO "T" VALUE {'a': [1, -2.5e3, true, null, {'b': <<'x'>>}]}`,
		`UPDATE "T" SET a = list_append(a, [?]) REMOVE b WHERE pk = 1 AND NOT c IS MISSING RETURNING ALL NEW *`,
		`DELETE FROM "T" WHERE pk = 1 AND (x IN [1, 2] OR contains(y, 'z')) RETURNING ALL OLD *`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		st, err := Parse(s, []attr.Value{{S: ptr("p")}})
		if err == nil {
			_, _ = PlanStatement(st, keys{partition: "pk", sort: "sk"})
		}
	})
}

func TestMultiAttributeKeysRefused(t *testing.T) {
	s := func(name, kind string) protocol.KeySchemaElement {
		return protocol.KeySchemaElement{AttributeName: ptr(name), KeyType: ptr(kind)}
	}
	if !multiAttribute([]protocol.KeySchemaElement{s("a", "HASH"), s("b", "HASH")}) ||
		!multiAttribute([]protocol.KeySchemaElement{s("a", "HASH"), s("b", "RANGE"), s("c", "RANGE")}) ||
		multiAttribute([]protocol.KeySchemaElement{s("a", "HASH"), s("b", "RANGE")}) {
		t.Fatal("multi-attribute key schemas misjudged")
	}
}
