package main

import (
	"bytes"
	"hash/crc32"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/sortkeydb/sortkey/sortkeytest"
)

// noAWSEnvironment keeps the SDK's default chain off the machine's own
// configuration and instance metadata, as on a developer's laptop
// without AWS keys.
func noAWSEnvironment(t *testing.T) {
	dir := t.TempDir()
	for k, v := range map[string]string{"AWS_CONFIG_FILE": filepath.Join(dir, "config"), "AWS_SHARED_CREDENTIALS_FILE": filepath.Join(dir, "credentials"),
		"AWS_EC2_METADATA_DISABLED": "true", "AWS_ACCESS_KEY_ID": "", "AWS_SECRET_ACCESS_KEY": "", "AWS_REGION": "", "AWS_PROFILE": ""} {
		t.Setenv(k, v)
	}
}

func TestDesignApplyExitStatus(t *testing.T) {
	noAWSEnvironment(t)
	srv := sortkeytest.New(t)
	file := "../../internal/design/testdata/market.yaml"
	if code, out, errs := runDesign("apply", file, "--endpoint", srv.URL, "--dry-run"); code != 1 || !strings.Contains(out, "would change: table Market: create the table") {
		t.Fatalf("dry run: exit %d\n%s%s", code, out, errs)
	}
	if code, out, errs := runDesign("apply", "--endpoint", srv.URL, file); code != 0 || !strings.Contains(out, "changed: table Market: enable Time to Live on ttl") {
		t.Fatalf("apply: exit %d\n%s%s", code, out, errs)
	}
	if code, out, _ := runDesign("apply", file, "--endpoint", srv.URL, "--region", "us-east-1"); code != 0 || !strings.Contains(out, "no changes") {
		t.Fatalf("second apply: exit %d\n%s", code, out)
	}
	changed := filepath.Join(t.TempDir(), "changed.yaml")
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(changed, bytes.Replace(data, []byte("type: KEYS_ONLY"), []byte("type: ALL"), 1), 0o600); err != nil {
		t.Fatal(err)
	}
	if code, out, _ := runDesign("apply", changed, "--endpoint", srv.URL); code != 1 || !strings.Contains(out, "DIFFERENCE: table Market, index ReverseIndex: the projection is KEYS_ONLY") {
		t.Fatalf("changed projection: exit %d\n%s", code, out)
	}
}

func TestDesignApplyBadInput(t *testing.T) {
	noAWSEnvironment(t)
	bad := filepath.Join(t.TempDir(), "bad.yaml")
	if err := os.WriteFile(bad, []byte("tables:\n  - name: T\n    partitionKey: {name: pk, type: BOOL}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"apply"}, {"apply", "a", "b"}, {"apply", "missing.yaml"}, {"apply", "--bogus"}, {"apply", bad, "--endpoint", "http://127.0.0.1:1"}} {
		if code, _, errs := runDesign(args...); code != 2 || errs == "" {
			t.Errorf("%v: exit %d, stderr %q", args, code, errs)
		}
	}
}

// A failed apply (nothing listening, access denied) exits 1 with the
// failure on stderr, and stdout does not claim the tables match.
func TestDesignApplyFailureIsNotReportedAsMatching(t *testing.T) {
	noAWSEnvironment(t)
	body := []byte(`{"__type":"com.amazonaws.dynamodb.v20120810#AccessDeniedException","message":"not authorized to DescribeTable"}`)
	denied := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/x-amz-json-1.0")
		w.Header().Set("X-Amz-Crc32", strconv.FormatUint(uint64(crc32.ChecksumIEEE(body)), 10))
		w.WriteHeader(http.StatusBadRequest)
		w.Write(body)
	}))
	defer denied.Close()
	file := "../../internal/design/testdata/market.yaml"
	for endpoint, want := range map[string]string{"http://127.0.0.1:1": "connection refused", denied.URL: "AccessDeniedException"} {
		code, out, errs := runDesign("apply", file, "--endpoint", endpoint)
		if code != 1 || out != "" || !strings.Contains(errs, "sortkey design apply: table Market: ") || !strings.Contains(errs, want) {
			t.Errorf("%s: exit %d, stdout %q, stderr %q", endpoint, code, out, errs)
		}
	}
}
