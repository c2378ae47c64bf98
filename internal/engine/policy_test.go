package engine

import (
	"errors"
	"testing"

	"github.com/sortkeydb/sortkey/internal/apierr"
	"github.com/sortkeydb/sortkey/internal/protocol"
)

const policyTable = `{"TableName":"tbl","BillingMode":"PAY_PER_REQUEST",
	"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],
	"StreamSpecification":{"StreamEnabled":true,"StreamViewType":"KEYS_ONLY"}}`

// TestCheckPolicyHook: a hook's error is the detail of the answer, for
// PutResourcePolicy and CreateTable alike, and nothing is stored.
func TestCheckPolicyHook(t *testing.T) {
	var seen []string
	check := func(doc []byte) error {
		seen = append(seen, string(doc))
		if string(doc) != "ok" {
			return errors.New("Missing required field Resource")
		}
		return nil
	}
	e, err := Open(Options{InMemory: true, TTLInterval: -1, CheckPolicy: check})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	must[protocol.CreateTableOutput](t)(call(t, e.CreateTable, policyTable))
	arn := e.tableArn("tbl")
	_, err = call(t, e.PutResourcePolicy, `{"ResourceArn":"`+arn+`","Policy":"{}"}`)
	wantCode(t, err, apierr.Validation, "One or more parameter values were invalid: Invalid policy document: Missing required field Resource")
	if _, _, ok := e.ResourcePolicy(arn); ok {
		t.Fatal("a refused document was stored")
	}
	// The hook decides alone: a document that is not JSON may pass it.
	must[protocol.PutResourcePolicyOutput](t)(call(t, e.PutResourcePolicy, `{"ResourceArn":"`+arn+`","Policy":"ok"}`))
	_, err = call(t, e.CreateTable, `{"TableName":"other","ResourcePolicy":"{}","BillingMode":"PAY_PER_REQUEST",
		"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}]}`)
	wantCode(t, err, apierr.Validation, "One or more parameter values were invalid: Invalid policy document: Missing required field Resource")
	if e.lookup("other") != nil || len(seen) != 3 {
		t.Fatalf("table created: %v; hook saw %q", e.lookup("other") != nil, seen)
	}
}

// TestResourcePolicyLookup: access control's read of a policy by ARN.
func TestResourcePolicyLookup(t *testing.T) {
	e, err := Open(Options{InMemory: true, TTLInterval: -1, Account: "123456789012"})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	d := must[protocol.CreateTableOutput](t)(call(t, e.CreateTable, policyTable)).TableDescription
	arn, stream := d.TableArn, d.LatestStreamArn
	if e.Account() != "123456789012" || arn != "arn:aws:dynamodb:us-east-1:123456789012:table/tbl" {
		t.Fatalf("account %s, table ARN %s", e.Account(), arn)
	}
	if _, _, ok := e.ResourcePolicy(arn); ok {
		t.Fatal("a policy before any was put")
	}
	out := must[protocol.PutResourcePolicyOutput](t)(call(t, e.PutResourcePolicy, `{"ResourceArn":"`+arn+`","Policy":"{\"a\":1}"}`))
	for _, ref := range []string{arn, arn + "/index/anything"} { // an index's permissions are in its table's policy
		if doc, rev, ok := e.ResourcePolicy(ref); !ok || string(doc) != `{"a":1}` || rev != out.RevisionId {
			t.Errorf("%s: %q %s %v", ref, doc, rev, ok)
		}
	}
	for _, ref := range []string{stream, "arn:aws:dynamodb:us-east-1:000000000000:table/tbl",
		"arn:aws:dynamodb:eu-west-1:123456789012:table/tbl", "arn:aws:dynamodb:us-east-1:123456789012:table/nope", "tbl"} {
		if _, _, ok := e.ResourcePolicy(ref); ok {
			t.Errorf("%s has a policy", ref)
		}
	}
}

func BenchmarkResourcePolicy(b *testing.B) {
	e, err := Open(Options{InMemory: true, TTLInterval: -1})
	if err != nil {
		b.Fatal(err)
	}
	defer e.Close()
	must[protocol.CreateTableOutput](b)(call(b, e.CreateTable, policyTable))
	arn := e.tableArn("tbl")
	must[protocol.PutResourcePolicyOutput](b)(call(b, e.PutResourcePolicy, `{"ResourceArn":"`+arn+`","Policy":"{\"a\":1}"}`))
	b.ReportAllocs()
	for b.Loop() {
		if _, _, ok := e.ResourcePolicy(arn); !ok {
			b.Fatal("no policy")
		}
	}
}
