package main

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
)

// describeLimits is one call of c's not retried: startServe waits on
// ListTables, so the rules here name another operation.
func describeLimits(ctx context.Context, c *child) error {
	_, err := dynamodb.NewFromConfig(aws.Config{Region: "us-east-1", BaseEndpoint: aws.String(c.url),
		Retryer: func() aws.Retryer { return aws.NopRetryer{} }, Credentials: aws.AnonymousCredentials{}}).
		DescribeLimits(ctx, &dynamodb.DescribeLimitsInput{})
	return err
}

func adminGet(t *testing.T, c *child) (int, string) {
	t.Helper()
	resp, err := http.Get(c.url + "/sortkey/faults")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

func TestServeFaultsFileReloadedOnHangupAndAdmin(t *testing.T) {
	ctx := testContext(t)
	path := filepath.Join(t.TempDir(), "faults.yaml")
	writeFile(t, path, "rules:\n  - operation: DescribeLimits\n    error: ServiceUnavailable\n")
	c := startServe(ctx, t, "--in-memory", "--faults", path, "--admin")
	wantCode(t, describeLimits(ctx, c), "ServiceUnavailable")

	writeFile(t, path, `{"rules": [{"operation": "DescribeLimits", "every": 0, "drop": true}]}`)
	hangup(t, c)
	awaitLog(t, c, "fault rules refused; the ones in force stay")
	wantCode(t, describeLimits(ctx, c), "ServiceUnavailable")

	writeFile(t, path, `{"rules": [{"operation": "DescribeLimits", "error": "ThrottlingException", "after": 1}]}`)
	hangup(t, c)
	awaitLog(t, c, "fault rules reloaded")
	wantCode(t, describeLimits(ctx, c), "")
	wantCode(t, describeLimits(ctx, c), "ThrottlingException")
	if code, body := adminGet(t, c); code != 200 || !strings.Contains(body, `"fired": 1`) {
		t.Errorf("GET /sortkey/faults: %d %s", code, body)
	}
	c.stop(t)
}

func TestServeRefusesABrokenFaultsFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "faults.json")
	writeFile(t, path, `{"rules": [{"operation": "PutItem", "latency": "fast"}]}`)
	var stderr bytes.Buffer
	if code := run([]string{"serve", "--in-memory", "--addr", "127.0.0.1:0", "--faults", path}, &bytes.Buffer{}, &stderr); code != 1 ||
		!strings.Contains(stderr.String(), "fault rules: rules[0].latency: must be a duration") {
		t.Fatalf("exit %d:\n%s", code, stderr.String())
	}
}
