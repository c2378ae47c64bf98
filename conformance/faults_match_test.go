package conformance_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/sortkeydb/sortkey"
)

// chaos is a rule file with several probabilistic rules over several
// operations, for the determinism test.
const chaos = `{"seed": 42, "rules": [
  {"operation": "PutItem", "error": "ThrottlingException", "probability": 0.3},
  {"operation": "GetItem", "error": "InternalServerError", "probability": 0.2},
  {"operation": "BatchWriteItem", "unprocessed": 0.5, "probability": 0.5},
  {"table": "Chaos", "error": "ServiceUnavailable", "probability": 0.1}]}`

// faultSequence runs a fixed sequence of calls against a fresh server
// with rules and returns what each call met: "ok", an error code, or how
// many batch items came back unprocessed.
func faultSequence(t *testing.T, rules string) []string {
	t.Helper()
	srv, c := faultServer(t, &sortkey.Options{})
	createSimple(t, c, "Chaos")
	srv.SetFaults(t, rules)
	var seq []string
	record := func(err error) {
		if err != nil {
			seq = append(seq, wireErr(t, err).code)
		} else {
			seq = append(seq, "ok")
		}
	}
	for i := range 30 {
		record(putPK(c, "Chaos", fmt.Sprint(i)))
		_, err := c.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("Chaos"), Key: pk(fmt.Sprint(i))})
		record(err)
		out, err := batchWrite(c, map[string][]types.WriteRequest{"Chaos": {putReq(pk(fmt.Sprint(i, "a"))), putReq(pk(fmt.Sprint(i, "b"))), putReq(pk(fmt.Sprint(i, "c")))}})
		if err == nil {
			seq = append(seq, fmt.Sprint("unprocessed:", len(out.UnprocessedItems["Chaos"])))
		} else {
			record(err)
		}
	}
	return seq
}

func TestFaultsSameSeedSameFaults(t *testing.T) {
	first, second := faultSequence(t, chaos), faultSequence(t, chaos)
	if strings.Join(first, " ") != strings.Join(second, " ") {
		t.Fatalf("two runs differ:\n%v\n%v", first, second)
	}
	kinds := map[string]bool{}
	for _, o := range first {
		kinds[o] = true
	}
	for _, want := range []string{"ok", "ThrottlingException", "InternalServerError", "ServiceUnavailable", "unprocessed:2", "unprocessed:0"} {
		if !kinds[want] {
			t.Errorf("the sequence never met %s: %v", want, first)
		}
	}
	other := faultSequence(t, strings.Replace(chaos, `"seed": 42`, `"seed": 43`, 1))
	if strings.Join(first, " ") == strings.Join(other, " ") {
		t.Error("another seed gave the same faults")
	}
}

func TestFaultsOneRuleDoesNotMoveAnothersDraws(t *testing.T) {
	only := `{"seed": 5, "rules": [{"operation": "GetItem", "error": "InternalServerError", "probability": 0.5}]}`
	both := `{"seed": 5, "rules": [{"operation": "GetItem", "error": "InternalServerError", "probability": 0.5},
	  {"operation": "PutItem", "error": "ThrottlingException", "probability": 0.5}]}`
	gets := func(seq []string) string {
		var b strings.Builder
		for i := 1; i < len(seq); i += 3 {
			b.WriteString(seq[i] + " ")
		}
		return b.String()
	}
	if a, b := gets(faultSequence(t, only)), gets(faultSequence(t, both)); a != b {
		t.Errorf("GetItem's faults moved when a PutItem rule was added:\n%s\n%s", a, b)
	}
}

// createGenres creates a table keyed pk with a GSI byGenre on genre.
func createGenres(t *testing.T, c *dynamodb.Client, name string) {
	t.Helper()
	_, err := c.CreateTable(ctx, &dynamodb.CreateTableInput{TableName: aws.String(name), BillingMode: types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("pk"), AttributeType: "S"}, {AttributeName: aws.String("genre"), AttributeType: "S"}},
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash}},
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{{IndexName: aws.String("byGenre"),
			KeySchema:  []types.KeySchemaElement{{AttributeName: aws.String("genre"), KeyType: types.KeyTypeHash}},
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll}}}})
	if err != nil {
		t.Fatal(err)
	}
}

func queryPK(c *dynamodb.Client, table, index, attr, v string) error {
	in := &dynamodb.QueryInput{TableName: aws.String(table), KeyConditionExpression: aws.String("#k = :v"),
		ExpressionAttributeNames: map[string]string{"#k": attr}, ExpressionAttributeValues: avMap{":v": s(v)}}
	if index != "" {
		in.IndexName = aws.String(index)
	}
	_, err := c.Query(ctx, in)
	return err
}

func TestFaultRuleMatchesOnlyWhatItNames(t *testing.T) {
	srv, c := faultServer(t, &sortkey.Options{})
	createGenres(t, c, "Songs")
	createSimple(t, c, "Other")
	srv.SetFaults(t, `{"rules": [
	  {"operation": "PutItem", "table": "Songs", "keyPrefix": "user#", "error": "ThrottlingException"},
	  {"operation": "Query", "index": "byGenre", "keyPrefix": "jazz", "error": "InternalServerError"}]}`)
	calls := []struct {
		name  string
		call  func() error
		fault bool
	}{
		{"PutItem Songs user#1", func() error { return putPK(c, "Songs", "user#1") }, true},
		{"PutItem Songs order#1", func() error { return putPK(c, "Songs", "order#1") }, false},
		{"PutItem Other user#1", func() error { return putPK(c, "Other", "user#1") }, false},
		{"DeleteItem Songs user#1", func() error {
			_, err := c.DeleteItem(ctx, &dynamodb.DeleteItemInput{TableName: aws.String("Songs"), Key: pk("user#1")})
			return err
		}, false},
		{"Query byGenre jazz", func() error { return queryPK(c, "Songs", "byGenre", "genre", "jazz-fusion") }, true},
		{"Query byGenre rock", func() error { return queryPK(c, "Songs", "byGenre", "genre", "rock") }, false},
		{"Query table jazz", func() error { return queryPK(c, "Songs", "", "pk", "jazz") }, false},
		{"PutItem Songs by ARN", func() error {
			return putPK(c, "arn:aws:dynamodb:us-east-1:000000000000:table/Songs", "user#2")
		}, true},
	}
	for _, k := range calls {
		if err := k.call(); (err != nil) != k.fault {
			t.Errorf("%s: got %v, want fault %v", k.name, err, k.fault)
		}
	}
}

func TestFaultRuleMatchesOnlyItsPrincipal(t *testing.T) {
	srv := newAuthServer(t, nil)
	srv.SetFaults(t, `{"rules": [{"principal": "`+aliceArn+`", "error": "RequestLimitExceeded"}]}`)
	as := func(arn string) *dynamodb.Client {
		id, secret, token, err := srv.DB.Credentials(arn)
		if err != nil {
			t.Fatal(err)
		}
		cfg := srv.NetworkAWSConfig()
		cfg.Credentials = credentials.NewStaticCredentialsProvider(id, secret, token)
		return dynamodb.NewFromConfig(cfg, oneAttempt)
	}
	put := func(c *dynamodb.Client, tenant string) error {
		_, err := c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("Shared"), Item: sharedKey(tenant, "x")})
		return err
	}
	if err := put(as(aliceArn), "t1"); err == nil || wireErr(t, err).code != "RequestLimitExceeded" {
		t.Errorf("alice: %v", err)
	}
	if err := put(as(bobArn), "t2"); err != nil {
		t.Errorf("bob, not named: %v", err)
	}
	if err := put(as(adminArn), "t1"); err != nil {
		t.Errorf("admin, not named: %v", err)
	}
	// Denied before any fault: access control answers first.
	if err := put(as(aliceArn), "t2"); err == nil || wireErr(t, err).code != "AccessDeniedException" {
		t.Errorf("alice outside her partitions: %v", err)
	}
}
