package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/smithy-go"
)

// crashPrincipal is the principal whose keys startServe's clients sign
// with; otherPrincipal is added by a reload.
const (
	crashPrincipal = `{"arn": "arn:aws:iam::123456789012:user/crash", "accessKeyId": "crash", "secretAccessKey": "crash",
	  "policies": [{"Version": "2012-10-17", "Statement": [{"Effect": "Allow", "Action": "dynamodb:*", "Resource": "*"}]}]}`
	otherPrincipal = `{"arn": "arn:aws:iam::123456789012:user/other", "accessKeyId": "other", "secretAccessKey": "other-secret",
	  "policies": [{"Version": "2012-10-17", "Statement": [{"Sid": "Read", "Effect": "Allow", "Action": "dynamodb:GetItem", "Resource": "*",
	    "Condition": {"ForAllValues:StringEquals": {"dynamodb:LeadingKeys": ["${aws:username}"]}}}]}]}`
)

func authFileOf(principals ...string) string {
	return `{"account": "123456789012", "principals": [` + strings.Join(principals, ",") + `]}`
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
}

func listAs(ctx context.Context, c *child, id, secret string) error {
	client := dynamodb.NewFromConfig(aws.Config{Region: "us-east-1", BaseEndpoint: aws.String(c.url), Retryer: func() aws.Retryer { return aws.NopRetryer{} },
		Credentials: credentials.NewStaticCredentialsProvider(id, secret, "")})
	_, err := client.ListTables(ctx, &dynamodb.ListTablesInput{})
	return err
}

func wantCode(t *testing.T, err error, code string) {
	t.Helper()
	var ae smithy.APIError
	if err == nil && code == "" {
		return
	}
	if !errors.As(err, &ae) || ae.ErrorCode() != code {
		t.Fatalf("want %q, got %v", code, err)
	}
}

func TestServeReloadsAuthOnHangup(t *testing.T) {
	ctx := testContext(t)
	path := filepath.Join(t.TempDir(), "auth.json")
	writeFile(t, path, authFileOf(crashPrincipal))
	c := startServe(ctx, t, "--in-memory", "--auth", path)
	wantCode(t, listAs(ctx, c, "other", "other-secret"), "UnrecognizedClientException")

	writeFile(t, path, `{"account": "123456789012", "principals": [`)
	hangup(t, c)
	awaitLog(t, c, "auth file refused; the one in force stays")
	wantCode(t, listAs(ctx, c, "crash", "crash"), "")

	writeFile(t, path, authFileOf(crashPrincipal, otherPrincipal))
	hangup(t, c)
	awaitLog(t, c, "auth file reloaded")
	wantCode(t, listAs(ctx, c, "other", "other-secret"), "AccessDeniedException")
	c.stop(t)
}

func hangup(t *testing.T, c *child) {
	t.Helper()
	if err := c.cmd.Process.Signal(syscall.SIGHUP); err != nil {
		t.Fatal(err)
	}
}

func TestServeRefusesABrokenAuthFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "auth.json")
	writeFile(t, path, `{"account": "12", "principals": []}`)
	var stderr bytes.Buffer
	if code := run([]string{"serve", "--in-memory", "--addr", "127.0.0.1:0", "--auth", path}, &bytes.Buffer{}, &stderr); code != 1 ||
		!strings.Contains(stderr.String(), "account must be 12 digits") {
		t.Fatalf("exit %d:\n%s", code, stderr.String())
	}
}

const checkTables = `[{"TableName": "Users", "BillingMode": "PAY_PER_REQUEST",
  "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}],
  "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}]}]`

func authCheckRun(t *testing.T, key string) (int, string) {
	t.Helper()
	return authCheckOf(t, otherPrincipal, `"GetItem", "request": {"TableName": "Users", "Key": {"pk": {"S": "`+key+`"}}}`)
}

func authCheckOf(t *testing.T, principal, request string) (int, string) {
	t.Helper()
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "auth.json"), authFileOf(crashPrincipal, principal))
	writeFile(t, filepath.Join(dir, "req.json"), `{"operation": `+request+`, "tables": `+checkTables+`}`)
	var out, errb bytes.Buffer
	code := run([]string{"auth", "check", "--auth", filepath.Join(dir, "auth.json"), "--as", "arn:aws:iam::123456789012:user/other",
		"--request", filepath.Join(dir, "req.json")}, &out, &errb)
	return code, out.String() + errb.String()
}

func TestAuthCheckExplainsTheDecision(t *testing.T) {
	code, out := authCheckRun(t, "other")
	if code != 0 || !strings.Contains(out, "ALLOW dynamodb:GetItem on arn:aws:dynamodb:us-east-1:123456789012:table/Users") ||
		!strings.Contains(out, `decided by principals[1].policies[0], Statement[0] (Sid "Read")`) || !strings.Contains(out, "result: ALLOW") {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	code, out = authCheckRun(t, "crash")
	if code != 1 || !strings.Contains(out, "DENY dynamodb:GetItem") || !strings.Contains(out,
		"AccessDeniedException: User: arn:aws:iam::123456789012:user/other is not authorized to perform: dynamodb:GetItem on resource: arn:aws:dynamodb:us-east-1:123456789012:table/Users because no identity-based policy allows the dynamodb:GetItem action") {
		t.Fatalf("exit %d:\n%s", code, out)
	}
}

func TestAuthCheckUsage(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run([]string{"auth", "check", "--as", "x"}, &out, &errb); code != 2 || !strings.Contains(errb.String(), "--auth, --as and --request are required") {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if code := run([]string{"auth"}, &out, &errb); code != 2 {
		t.Fatalf("sortkey auth without check: exit %d", code)
	}
}

// scanner's policy lists Scan under a LeadingKeys condition, a mistake
// that grants every partition on DynamoDB: auth check says so.
const scanner = `{"arn": "arn:aws:iam::123456789012:user/other", "accessKeyId": "other", "secretAccessKey": "s",
  "policies": [{"Version": "2012-10-17", "Statement": [{"Effect": "Allow", "Action": ["dynamodb:GetItem", "dynamodb:Scan"], "Resource": "*",
    "Condition": {"ForAllValues:StringEquals": {"dynamodb:LeadingKeys": ["${aws:username}"]}}}]}]}`

func TestAuthCheckWarnsOfScansUnderLeadingKeys(t *testing.T) {
	code, out := authCheckOf(t, scanner, `"Scan", "request": {"TableName": "Users"}`)
	if code != 0 || !strings.Contains(out, scanWarning) {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	if _, out = authCheckOf(t, scanner, `"GetItem", "request": {"TableName": "Users", "Key": {"pk": {"S": "other"}}}`); strings.Contains(out, scanWarning) {
		t.Fatalf("warned of a GetItem:\n%s", out)
	}
}
