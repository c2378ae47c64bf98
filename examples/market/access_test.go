package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/smithy-go"
)

// deniedText is DynamoDB's refusal of a request no identity policy allows.
func deniedText(arn, action, resource string) string {
	return "User: " + arn + " is not authorized to perform: dynamodb:" + action + " on resource: " + resource +
		" because no identity-based policy allows the dynamodb:" + action + " action"
}

const marketArn = "arn:aws:dynamodb:us-east-1:" + Account + ":table/" + MarketTable

// TestTenantsAreKeptApartByTheDatabase acts as Okafor with her raw SDK
// client: every request reaching Rabinovich's partitions, or her own
// read-only shards, is refused with AccessDeniedException and changes
// nothing; the same kinds of request on her own partitions succeed; and
// the back end may make every one of the refused requests.
func TestTenantsAreKeptApartByTheDatabase(t *testing.T) {
	f := newUncoveredFixture(t)
	okafor := f.user(Okafor)
	if got := breaches(t, f, okafor, crossTenant(Okafor, Rabinovich, f.sample)); len(got) > 0 {
		t.Fatalf("the tenant policy lets Okafor through:\n%s", strings.Join(got, "\n"))
	}
	if got := failures(ctx, okafor, ownShards(Okafor, f.sample)); len(got) > 0 {
		t.Fatalf("Okafor refused her own partitions:\n%s", strings.Join(got, "\n"))
	}
	if got := failures(ctx, f.back, crossTenant(Okafor, Rabinovich, f.sample)); len(got) > 0 {
		t.Fatalf("the back end refused:\n%s", strings.Join(got, "\n"))
	}
}

// TestRefusalsNameActionAndResource checks DynamoDB's exact refusal text
// for a foreign GetItem and for a Query of the id index, which the
// tenant policy does not grant at all.
func TestRefusalsNameActionAndResource(t *testing.T) {
	f := newUncoveredFixture(t)
	okafor := f.user(Okafor)
	_, err := okafor.GetItem(ctx, &dynamodb.GetItemInput{TableName: table(), Key: key(Rabinovich.Key(), Rabinovich.Key())})
	wantDenied(t, err, deniedText(UserArn(Okafor), "GetItem", marketArn))
	own := f.sample.Orders[Okafor][0]
	err = queryIndex(IdLookupIndex, "id = :v", own.Number)(ctx, okafor)
	wantDenied(t, err, deniedText(UserArn(Okafor), "Query", marketArn+"/index/"+IdLookupIndex))
	err = partiQL(`SELECT * FROM "Market" WHERE pk = ?`, Rabinovich.PK(RewardShard))(ctx, okafor)
	wantDenied(t, err, deniedText(UserArn(Okafor), "PartiQLSelect", marketArn))
}

func wantDenied(t *testing.T, err error, msg string) {
	t.Helper()
	var api smithy.APIError
	if !errors.As(err, &api) || api.ErrorCode() != "AccessDeniedException" || api.ErrorMessage() != msg {
		t.Fatalf("got %v\nwant AccessDeniedException: %s", err, msg)
	}
}

// TestLoosenedTenantPolicyIsCaught runs the isolation checks under the
// tenant policy, which they pass, then under loosened copies of it, put
// in force on the same server: each loosening is reported as a breach.
func TestLoosenedTenantPolicyIsCaught(t *testing.T) {
	cases := []struct {
		name, policy, breach string
	}{
		{"LeadingKeys condition dropped", withCondition(t, nil), "GetItem of another user's profile"},
		{"pattern widened to U#*", withLeadingKeys(t, "U#*"), "GetItem of another user's profile"},
		// U#<uuid>* reaches no other user, a UUID having a fixed length,
		// but it does reach the user's own read-only shards.
		{"prefix pattern U#<user>*", withLeadingKeys(t, "U#${aws:PrincipalTag/user}*"), "PutItem into own read-only #O shard"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newUncoveredFixture(t)
			attempts := crossTenant(Okafor, Rabinovich, f.sample)
			if got := breaches(t, f, f.user(Okafor), attempts); len(got) > 0 {
				t.Fatalf("under the tenant policy:\n%s", strings.Join(got, "\n"))
			}
			if err := f.srv.DB.ReloadAuth(authFile(t, c.policy)); err != nil {
				t.Fatal(err)
			}
			got := breaches(t, f, f.user(Okafor), attempts)
			t.Logf("%s", strings.Join(got, "\n"))
			if !hasPrefix(got, c.breach+": not refused") {
				t.Fatalf("loosened policy: breaches %q, want one for %q", got, c.breach)
			}
		})
	}
}

func hasPrefix(list []string, prefix string) bool {
	for _, s := range list {
		if strings.HasPrefix(s, prefix) {
			return true
		}
	}
	return false
}

// loosen rewrites every statement of TenantPolicy with change.
func loosen(t *testing.T, change func(statement map[string]any)) string {
	t.Helper()
	var doc map[string]any
	if err := json.Unmarshal([]byte(TenantPolicy), &doc); err != nil {
		t.Fatal(err)
	}
	for _, st := range doc["Statement"].([]any) {
		change(st.(map[string]any))
	}
	out, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

// withCondition replaces every statement's Condition (nil: none).
func withCondition(t *testing.T, cond map[string]any) string {
	return loosen(t, func(st map[string]any) {
		if cond == nil {
			delete(st, "Condition")
			return
		}
		st["Condition"] = cond
	})
}

// withLeadingKeys lets every statement reach the partitions pattern matches.
func withLeadingKeys(t *testing.T, pattern string) string {
	return withCondition(t, map[string]any{"ForAllValues:StringLike": map[string]any{"dynamodb:LeadingKeys": []any{pattern}}})
}

// TestDecoyInTheReverseIndex: a user may write any sort key into their
// own cart shard, even Rabinovich's order key, and the tenant policy
// cannot stop it (LeadingKeys sees partition keys). The decoy's entry
// sorts first in the ReverseIndex (00000000-… < 550e8400-…), yet the back
// end's lookup by system key still moves Rabinovich's order, not it.
func TestDecoyInTheReverseIndex(t *testing.T) {
	f := newUncoveredFixture(t)
	theirs := f.sample.Orders[Rabinovich][2]
	decoy := item("pk", Stranger.PK(CartShard), "sk", theirs.Key.String(), "status", "decoy")
	if _, err := f.user(Stranger).PutItem(ctx, &dynamodb.PutItemInput{TableName: table(), Item: decoy}); err != nil {
		t.Fatal(err)
	}
	if err := f.store.SetOrderStatus(ctx, theirs.Key, StatusShipped); err != nil {
		t.Fatal(err)
	}
	got, err := f.store.As(Rabinovich).Order(ctx, theirs.Number)
	if err != nil || got.Status != StatusShipped {
		t.Fatalf("Rabinovich's order after SetOrderStatus: %+v, %v", got, err)
	}
	out, err := f.back.GetItem(ctx, &dynamodb.GetItemInput{TableName: table(), Key: key(Stranger.PK(CartShard), theirs.Key.String())})
	if err != nil {
		t.Fatal(err)
	}
	wantEqual(t, "decoy", out.Item, decoy)
}

// TestMainEmbeddedWithAccessControl runs the program on its embedded
// server, whose access control is on: every access pattern works as the
// back end and as each user.
func TestMainEmbeddedWithAccessControl(t *testing.T) {
	var out bytes.Buffer
	if err := run(ctx, "", &out); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "## 4. (the same order number, asked for by another user)") {
		t.Fatalf("output:\n%s", out.String())
	}
	var auth bytes.Buffer
	if err := writeAuthFile(&auth); err != nil || !json.Valid(auth.Bytes()) {
		t.Fatalf("--print-auth: %v\n%s", err, auth.String())
	}
}

// TestUntaggedUserGetsNothing: a session without the user tag (a Cognito
// identity pool whose tag mapping is missing) is granted no partition,
// not even the one an empty tag would name ("U#"), nor the literal text
// of the policy variable.
func TestUntaggedUserGetsNothing(t *testing.T) {
	f := newUncoveredFixture(t)
	var doc map[string]any
	if err := json.Unmarshal(authFile(t, TenantPolicy), &doc); err != nil {
		t.Fatal(err)
	}
	for _, p := range doc["principals"].([]any) {
		delete(p.(map[string]any), "tags")
	}
	untagged, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.srv.DB.ReloadAuth(untagged); err != nil {
		t.Fatal(err)
	}
	for _, pk := range []string{Okafor.Key(), "U#", "U#${aws:PrincipalTag/user}"} {
		_, err := f.user(Okafor).GetItem(ctx, &dynamodb.GetItemInput{TableName: table(), Key: key(pk, pk)})
		wantDenied(t, err, deniedText(UserArn(Okafor), "GetItem", marketArn))
	}
}
