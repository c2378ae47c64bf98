package main

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"runtime"
	"strings"
	"testing"

	awsmiddleware "github.com/aws/aws-sdk-go-v2/aws/middleware"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/sortkeydb/sortkey/internal/version"
)

func TestServeRefusesBadLogFlags(t *testing.T) {
	for _, args := range [][]string{{"--log-level", "verbose"}, {"--log-format", "xml"}, {"--slow-request", "-1s"}} {
		var errb bytes.Buffer
		if _, err := parseServe(args, &errb); err == nil || !strings.Contains(errb.String(), args[0]) {
			t.Errorf("%q: accepted (%v), stderr %q", args, err, errb.String())
		}
	}
}

// With --log-level debug --log-format json, each request is a JSON line
// carrying the request id the client received; the startup line names the
// version.
func TestServeLogsRequestsAsJSON(t *testing.T) {
	ctx := testContext(t)
	c := startServe(ctx, t, "--in-memory", "--log-level", "debug", "--log-format", "json")
	out, err := c.client.ListTables(ctx, &dynamodb.ListTablesInput{})
	if err != nil {
		t.Fatal(err)
	}
	rid, _ := awsmiddleware.GetRequestIDMetadata(out.ResultMetadata)
	c.stop(t)
	var started, logged bool
	for line := range strings.Lines(c.logs.String()) {
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("not a JSON line: %q", line)
		}
		started = started || m["msg"] == "serving" && m["version"] == version.Get().Version
		logged = logged || m["requestId"] == rid && m["op"] == "ListTables" && m["level"] == "DEBUG"
	}
	if !started || !logged {
		t.Fatalf("startup line with version %v, ListTables %s logged %v:\n%s", started, rid, logged, c.logs)
	}
}

// At the default level no request is logged, and the server answers its
// storage health check and names its version on every response.
func TestServeHealthAndVersionHeader(t *testing.T) {
	ctx := testContext(t)
	c := startServe(ctx, t, "--in-memory")
	resp, err := http.Get(c.url + "/sortkey/health")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(body), `"storage":{"status":"ok"`) {
		t.Errorf("GET /sortkey/health: %d %s", resp.StatusCode, body)
	}
	if v := resp.Header.Get("X-Sortkey-Version"); v != version.Get().Version {
		t.Errorf("X-Sortkey-Version %q, want %q", v, version.Get().Version)
	}
	c.stop(t)
	if strings.Contains(c.logs.String(), "requestId=") {
		t.Errorf("requests logged at the default level:\n%s", c.logs)
	}
}

func TestVersionCommand(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run([]string{"version"}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	got := out.String()
	if got != version.Get().String()+"\n" || !strings.HasPrefix(got, "sortkey ") || !strings.HasSuffix(got, " "+runtime.Version()+"\n") {
		t.Fatalf("sortkey version printed %q", got)
	}
	if code := run([]string{"version", "extra"}, &out, &errb); code != 2 {
		t.Fatalf("sortkey version extra: exit %d", code)
	}
}
