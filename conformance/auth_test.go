package conformance_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/sortkeydb/sortkey"
	"github.com/sortkeydb/sortkey/sortkeytest"
)

const (
	adminArn = "arn:aws:iam::123456789012:user/admin"
	aliceArn = "arn:aws:iam::123456789012:user/alice"
	bobArn   = "arn:aws:iam::123456789012:user/bob"
)

// tenantPolicy keeps a tenant to the partitions named by its tenant tag.
const tenantPolicy = `{"Version": "2012-10-17", "Statement": [
  {"Sid": "OwnPartitions", "Effect": "Allow",
   "Action": ["dynamodb:GetItem", "dynamodb:PutItem", "dynamodb:UpdateItem", "dynamodb:DeleteItem",
              "dynamodb:Query", "dynamodb:BatchGetItem", "dynamodb:BatchWriteItem", "dynamodb:ConditionCheckItem"],
   "Resource": ["arn:aws:dynamodb:*:*:table/Shared", "arn:aws:dynamodb:*:*:table/Shared/index/*"],
   "Condition": {"ForAllValues:StringEquals": {"dynamodb:LeadingKeys": ["${aws:PrincipalTag/tenant}"]}}},
  {"Effect": "Allow", "Action": ["dynamodb:DescribeTable", "dynamodb:Scan"], "Resource": "*",
   "Condition": {"StringEquals": {"dynamodb:Select": "COUNT"}}}]}`

const authFile = `{"account": "123456789012", "principals": [
 {"arn": "arn:aws:iam::123456789012:user/admin", "accessKeyId": "AKIDADMIN", "secretAccessKey": "admin-secret",
  "policies": [{"Version": "2012-10-17", "Statement": [{"Effect": "Allow", "Action": "dynamodb:*", "Resource": "*"}]}]},
 {"arn": "arn:aws:iam::123456789012:user/alice", "accessKeyId": "AKIDALICE", "secretAccessKey": "alice-secret",
  "tags": {"tenant": "t1"}, "policies": [` + tenantPolicy + `]},
 {"arn": "arn:aws:iam::123456789012:user/bob", "accessKeyId": "AKIDBOB", "secretAccessKey": "bob-secret",
  "tags": {"tenant": "t2"}, "policies": [` + tenantPolicy + `,
   {"Version": "2012-10-17", "Statement": [{"Sid": "NoDeletes", "Effect": "Deny", "Action": "dynamodb:DeleteItem", "Resource": "*"}]}]},
 {"arn": "arn:aws:iam::123456789012:user/carol", "accessKeyId": "AKIDCAROL", "secretAccessKey": "carol-secret"},
 {"arn": "arn:aws:iam::999999999999:user/eve", "accessKeyId": "AKIDEVE", "secretAccessKey": "eve-secret",
  "policies": ["{\"Version\": \"2012-10-17\", \"Statement\": [{\"Effect\": \"Allow\", \"Action\": \"dynamodb:GetItem\", \"Resource\": \"*\"}]}"]}]}`

func newAuthServer(t *testing.T, now func() time.Time) *sortkeytest.Server {
	t.Helper()
	srv := sortkeytest.NewWithOptions(t, &sortkey.Options{Auth: []byte(authFile), Now: now})
	admin := srv.ClientAs(t, adminArn)
	_, err := admin.CreateTable(context.Background(), &dynamodb.CreateTableInput{
		TableName:            aws.String("Shared"),
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS}, {AttributeName: aws.String("sk"), AttributeType: types.ScalarAttributeTypeS}},
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash}, {AttributeName: aws.String("sk"), KeyType: types.KeyTypeRange}},
		BillingMode:          types.BillingModePayPerRequest,
	})
	if err != nil {
		t.Fatal(err)
	}
	return srv
}

// once is a client that does not retry, so an error is seen as it is.
func once(o *dynamodb.Options) { o.RetryMaxAttempts = 1 }

func sharedKey(pk, sk string) map[string]types.AttributeValue {
	return map[string]types.AttributeValue{"pk": s(pk), "sk": s(sk)}
}

func clientWith(srv *sortkeytest.Server, creds aws.CredentialsProvider) *dynamodb.Client {
	cfg := srv.AWSConfig()
	cfg.Credentials = creds
	return dynamodb.NewFromConfig(cfg, once)
}

func TestAuthenticationErrors(t *testing.T) {
	srv := newAuthServer(t, nil)
	cases := []struct {
		name, code, prefix string
		creds              aws.CredentialsProvider
	}{
		{"wrong secret", "InvalidSignatureException", "The request signature we calculated does not match the signature you provided.",
			credentials.NewStaticCredentialsProvider("AKIDALICE", "not-her-secret", "")},
		{"unknown key", "UnrecognizedClientException", "The security token included in the request is invalid",
			credentials.NewStaticCredentialsProvider("AKIDNOBODY", "x", "")},
		{"unexpected session token", "UnrecognizedClientException", "The security token included in the request is invalid",
			credentials.NewStaticCredentialsProvider("AKIDALICE", "alice-secret", "some-token")},
		{"unsigned", "MissingAuthenticationTokenException", "", aws.AnonymousCredentials{}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := clientWith(srv, c.creds).ListTables(context.Background(), &dynamodb.ListTablesInput{})
			wantAPIErrorPrefix(t, err, c.code, c.prefix)
		})
	}
}

func TestAuthSkewedClock(t *testing.T) {
	for _, skew := range []time.Duration{16 * time.Minute, -16 * time.Minute} {
		clock := time.Now()
		srv := newAuthServer(t, func() time.Time { return clock })
		clock = clock.Add(skew)
		_, err := srv.ClientAs(t, adminArn, once).ListTables(context.Background(), &dynamodb.ListTablesInput{})
		want := "Signature expired: "
		if skew < 0 {
			want = "Signature not yet current: "
		}
		wantAPIErrorPrefix(t, err, "InvalidSignatureException", want)
	}
}

func TestAuthProtocolChecksComeFirst(t *testing.T) {
	srv := newAuthServer(t, nil)
	r := postRaw(t, srv.URL, "DynamoDB_20120810.NoSuchOperation", "{}")
	if r.status != 400 || !strings.HasSuffix(r.Type, "#UnknownOperationException") {
		t.Fatalf("unsigned unknown operation: %d %s", r.status, r.body)
	}
	r = postRaw(t, srv.URL, "DynamoDB_20120810.ListTables", "{}")
	if r.status != 400 || !strings.HasSuffix(r.Type, "#MissingAuthenticationTokenException") {
		t.Fatalf("unsigned ListTables: %d %s", r.status, r.body)
	}
}

func TestReloadAuth(t *testing.T) {
	srv := newAuthServer(t, nil)
	ctx := context.Background()
	if err := srv.DB.ReloadAuth([]byte(`{"account": "123456789012", "principals": [}`)); err == nil {
		t.Fatal("a broken auth file was accepted")
	}
	alice := srv.ClientAs(t, aliceArn, once)
	get := &dynamodb.GetItemInput{TableName: aws.String("Shared"), Key: sharedKey("t1", "a")}
	if _, err := alice.GetItem(ctx, get); err != nil {
		t.Fatalf("the auth file in force changed after a refused reload: %v", err)
	}
	withoutAlice := strings.Replace(authFile, `"AKIDALICE"`, `"AKIDALICE2"`, 1)
	if err := srv.DB.ReloadAuth([]byte(withoutAlice)); err != nil {
		t.Fatal(err)
	}
	_, err := alice.GetItem(ctx, get)
	wantAPIErrorPrefix(t, err, "UnrecognizedClientException", "The security token included in the request is invalid")
	other := strings.Replace(authFile, `"account": "123456789012"`, `"account": "210987654321"`, 1)
	if err := srv.DB.ReloadAuth([]byte(other)); !errors.Is(err, sortkey.ErrAccountChanged) {
		t.Fatalf("a reload naming another account: %v", err)
	}
}
