package access

import (
	"slices"
	"testing"
)

// forAllValues is IAM's ForAllValues:StringEquals on one key: true when the
// key is absent or every request value is in the policy's list.
func forAllValues(c Check, key string, allowed ...string) bool {
	for _, v := range c.Keys[key] {
		if !slices.Contains(allowed, v) {
			return false
		}
	}
	return true
}

// The tenant-isolation policy of the guide's LeadingKeys example, for
// tenant "t1", over every way of touching Orders: only requests confined
// to t1's partitions pass it, and the scans, which name none.
func TestTenantIsolation(t *testing.T) {
	cases := []struct {
		op, body string
		allowed  bool
	}{
		{"GetItem", `{"TableName":"Orders","Key":{"pk":{"S":"t1"},"sk":{"N":"1"}}}`, true},
		{"GetItem", `{"TableName":"Orders","Key":{"pk":{"S":"t2"},"sk":{"N":"1"}}}`, false},
		{"GetItem", `{"TableName":"Gone","Key":{"pk":{"S":"t1"}}}`, false},
		{"Query", `{"TableName":"Orders","KeyConditionExpression":"pk = :p","ExpressionAttributeValues":{":p":{"S":"t1"}}}`, true},
		{"Query", `{"TableName":"Orders","IndexName":"GSI1","KeyConditionExpression":"gpk = :p",
			"ExpressionAttributeValues":{":p":{"S":"t2"}}}`, false},
		// A Scan and a full-scan SELECT name no partition, so a policy
		// that lists their actions under a LeadingKeys condition grants
		// them every partition, as on DynamoDB: the guide's LeadingKeys
		// example leaves Scan out for that reason.
		{"Scan", `{"TableName":"Orders"}`, true},
		{"BatchWriteItem", `{"RequestItems":{"Orders":[{"PutRequest":{"Item":{"pk":{"S":"t1"},"sk":{"N":"1"}}}},
			{"DeleteRequest":{"Key":{"pk":{"S":"t2"},"sk":{"N":"1"}}}}]}}`, false},
		{"BatchGetItem", `{"RequestItems":{"Orders":{"Keys":[{"pk":{"S":"t1"},"sk":{"N":"1"}}]}}}`, true},
		{"TransactWriteItems", `{"TransactItems":[{"Put":{"TableName":"Orders","Item":{"pk":{"S":"t1"},"sk":{"N":"1"}}}},
			{"ConditionCheck":{"TableName":"Orders","Key":{"pk":{"S":"t2"},"sk":{"N":"1"}},"ConditionExpression":"attribute_exists(pk)"}}]}`, false},
		{"ExecuteStatement", stmt(`SELECT * FROM "Orders" WHERE pk = 't1'`), true},
		{"ExecuteStatement", stmt(`SELECT * FROM "Orders" WHERE sk = 1`), true},
		{"ExecuteStatement", stmt(`SELECT * FROM "Orders" WHERE pk = 't1' OR pk = 't2'`), false},
		{"ExecuteStatement", stmt(`INSERT INTO "Orders" VALUE {'pk': 't2', 'sk': 1}`), false},
	}
	for _, tc := range cases {
		checks, err := Describe(tc.op, decode(t, tc.op, tc.body), testCatalog{})
		if err != nil {
			t.Fatalf("%s %s: %v", tc.op, tc.body, err)
		}
		allowed := len(checks) > 0
		for _, c := range checks {
			allowed = allowed && forAllValues(c, KeyLeadingKeys, "t1")
		}
		if allowed != tc.allowed {
			t.Errorf("%s %s: allowed = %v, want %v", tc.op, tc.body, allowed, tc.allowed)
		}
	}
}

// The guide's attribute-restricting policy (ForAllValues Attributes plus
// StringEqualsIfExists Select = SPECIFIC_ATTRIBUTES and ReturnValues in
// NONE/UPDATED_*) refuses whole-item reads and writes that return old
// items.
func TestAttributeRestriction(t *testing.T) {
	allowedAttrs := []string{"pk", "sk", "a", "b"}
	ifExists := func(c Check, key string, vals ...string) bool {
		got, ok := c.Keys[key]
		return !ok || len(got) == 1 && slices.Contains(vals, got[0])
	}
	cases := []struct {
		op, body string
		allowed  bool
	}{
		{"GetItem", `{"TableName":"Orders",` + okey + `,"ProjectionExpression":"a, b"}`, true},
		{"GetItem", `{"TableName":"Orders",` + okey + `}`, false},
		{"GetItem", `{"TableName":"Orders",` + okey + `,"ProjectionExpression":"a, secret"}`, false},
		{"Query", `{"TableName":"Orders","KeyConditionExpression":"pk = :p","ExpressionAttributeValues":{":p":{"S":"t1"}},
			"Select":"SPECIFIC_ATTRIBUTES","ProjectionExpression":"a"}`, true},
		{"Query", `{"TableName":"Orders","KeyConditionExpression":"pk = :p","ExpressionAttributeValues":{":p":{"S":"t1"}}}`, false},
		{"UpdateItem", `{"TableName":"Orders",` + okey + `,"UpdateExpression":"SET a = :v","ExpressionAttributeValues":{":v":{"S":"x"}}}`, true},
		{"UpdateItem", `{"TableName":"Orders",` + okey + `,"UpdateExpression":"SET a = :v","ExpressionAttributeValues":{":v":{"S":"x"}},
			"ReturnValues":"ALL_NEW"}`, false},
		{"UpdateItem", `{"TableName":"Orders",` + okey + `,"UpdateExpression":"SET a = secret"}`, false},
	}
	for _, tc := range cases {
		checks, err := Describe(tc.op, decode(t, tc.op, tc.body), testCatalog{})
		if err != nil {
			t.Fatalf("%s: %v", tc.op, err)
		}
		c := checks[0]
		allowed := forAllValues(c, KeyAttributes, allowedAttrs...) && ifExists(c, KeySelect, "SPECIFIC_ATTRIBUTES") &&
			ifExists(c, KeyReturnValues, "NONE", "UPDATED_OLD", "UPDATED_NEW")
		if allowed != tc.allowed {
			t.Errorf("%s %s: allowed = %v, want %v", tc.op, tc.body, allowed, tc.allowed)
		}
	}
}
