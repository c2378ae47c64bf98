package conformance_test

import (
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/sortkeydb/sortkey"
	"github.com/sortkeydb/sortkey/sortkeytest"
)

const (
	policyNotFound = "PolicyNotFoundException"
	defaultArn     = "arn:aws:dynamodb:us-east-1:000000000000:table/"
)

// policyDoc is a resource-based policy document granting GetItem on arn.
func policyDoc(arn string) string {
	return `{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Principal":{"AWS":"arn:aws:iam::111122223333:user/John"},` +
		`"Action":"dynamodb:GetItem","Resource":"` + arn + `"}]}`
}

func putPolicy(t *testing.T, c *dynamodb.Client, arn, doc string, expected *string) string {
	t.Helper()
	out, err := c.PutResourcePolicy(ctx, &dynamodb.PutResourcePolicyInput{ResourceArn: &arn, Policy: &doc, ExpectedRevisionId: expected})
	if err != nil {
		t.Fatalf("PutResourcePolicy %s: %v", arn, err)
	}
	if aws.ToString(out.RevisionId) == "" {
		t.Fatalf("PutResourcePolicy %s: no RevisionId", arn)
	}
	return *out.RevisionId
}

// wantPolicy checks that GetResourcePolicy answers doc at revision rev.
func wantPolicy(t *testing.T, c *dynamodb.Client, arn, doc, rev string) {
	t.Helper()
	out, err := c.GetResourcePolicy(ctx, &dynamodb.GetResourcePolicyInput{ResourceArn: &arn})
	if err != nil || aws.ToString(out.Policy) != doc || aws.ToString(out.RevisionId) != rev {
		t.Fatalf("GetResourcePolicy %s: %v %+v\nwant %q at %s", arn, err, out, doc, rev)
	}
}

func wantNoPolicy(t *testing.T, c *dynamodb.Client, arn string) {
	t.Helper()
	_, err := c.GetResourcePolicy(ctx, &dynamodb.GetResourcePolicyInput{ResourceArn: &arn})
	wantAPIError(t, err, policyNotFound, "Resource-based policy not found for the provided ResourceArn: "+arn)
}

// streamTable creates tbl with a stream and returns the stream's ARN.
func streamTable(t *testing.T, c *dynamodb.Client) string {
	t.Helper()
	out, err := c.CreateTable(ctx, &dynamodb.CreateTableInput{
		TableName:            aws.String("tbl"),
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS}},
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash}},
		BillingMode:          types.BillingModePayPerRequest,
		StreamSpecification:  &types.StreamSpecification{StreamEnabled: aws.Bool(true), StreamViewType: types.StreamViewTypeKeysOnly},
	})
	if err != nil {
		t.Fatal(err)
	}
	return *out.TableDescription.LatestStreamArn
}

// TestResourcePolicySurvivesReopen: policies are stored with their table,
// on disk, and go when it is deleted.
func TestResourcePolicySurvivesReopen(t *testing.T) {
	dir := t.TempDir()
	c, stop := serveDir(t, dir)
	stream := streamTable(t, c)
	arn := defaultArn + "tbl"
	tableRev := putPolicy(t, c, arn, policyDoc(arn), nil)
	streamRev := putPolicy(t, c, stream, policyDoc(stream), nil)
	stop()

	c, stop = serveDir(t, dir)
	defer stop()
	wantPolicy(t, c, arn, policyDoc(arn), tableRev)
	wantPolicy(t, c, stream, policyDoc(stream), streamRev)
	if _, err := c.DeleteTable(ctx, &dynamodb.DeleteTableInput{TableName: aws.String("tbl")}); err != nil {
		t.Fatal(err)
	}
	_, err := c.GetResourcePolicy(ctx, &dynamodb.GetResourcePolicyInput{ResourceArn: &arn})
	wantAPIError(t, err, notFound, "Requested resource not found: Table: tbl not found")
	createSimple(t, c, "tbl")
	wantNoPolicy(t, c, arn)
}

// TestAccountOption: the account names every ARN, and a database reopened
// under another account names its tables there.
func TestAccountOption(t *testing.T) {
	const acct = "123456789012"
	prefix := "arn:aws:dynamodb:us-east-1:" + acct + ":table/"
	dir := t.TempDir()
	c, stop := serveDirWith(t, dir, &sortkey.Options{Account: acct})
	d := createMusic(t, c, "Music")
	stream := streamTable(t, c)
	if *d.TableArn != prefix+"Music" || *d.GlobalSecondaryIndexes[0].IndexArn != prefix+"Music/index/ByGenre" ||
		*d.LocalSecondaryIndexes[0].IndexArn != prefix+"Music/index/ByYear" || !strings.HasPrefix(stream, prefix+"tbl/stream/") {
		t.Fatalf("ARNs under account %s: %s %s %s %s", acct, *d.TableArn, *d.GlobalSecondaryIndexes[0].IndexArn,
			*d.LocalSecondaryIndexes[0].IndexArn, stream)
	}
	rev := putPolicy(t, c, prefix+"Music", policyDoc(prefix+"Music"), nil)
	_, err := c.GetResourcePolicy(ctx, &dynamodb.GetResourcePolicyInput{ResourceArn: aws.String(defaultArn + "Music")})
	wantAPIError(t, err, validation, "This action is only supported by accounts that match the resource owner’s account.")
	stop()

	c, stop = serveDir(t, dir) // the default account
	defer stop()
	got, err := c.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(defaultArn + "tbl")})
	if err != nil || *got.Table.TableArn != defaultArn+"tbl" || *got.Table.LatestStreamArn != defaultArn+strings.TrimPrefix(stream, prefix) {
		t.Fatalf("reopened under the default account: %v %+v", err, got)
	}
	wantPolicy(t, c, defaultArn+"Music", policyDoc(prefix+"Music"), rev) // the document is kept as written
}

func TestAccountOptionMustBeAnAccountID(t *testing.T) {
	for _, bad := range []string{"12345", "12345678901a", "1234567890123"} {
		if db, err := sortkey.Open("", &sortkey.Options{InMemory: true, Account: bad}); err == nil {
			db.Close()
			t.Errorf("account %q accepted", bad)
		}
	}
	srv := sortkeytest.NewWithOptions(t, &sortkey.Options{Account: "210987654321"})
	if srv.DB.Account() != "210987654321" {
		t.Fatalf("Account() = %s", srv.DB.Account())
	}
}
