package main

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
)

func TestServeRefusesBadClockFlags(t *testing.T) {
	for args, want := range map[string]string{
		"--clock bogus":                          `--clock must be "real" or "virtual", not "bogus"`,
		"--clock-start 2026-01-01T00:00:00Z":     "--clock-start needs --clock virtual",
		"--clock virtual --clock-start tomorrow": `--clock-start must be an RFC 3339 time`,
	} {
		var errb bytes.Buffer
		if code := serve(append([]string{"--in-memory"}, strings.Fields(args)...), io.Discard, &errb); code != 2 || !strings.Contains(errb.String(), want) {
			t.Errorf("%s: exit %d, stderr %q", args, code, errb.String())
		}
	}
}

func clockCall(t *testing.T, method, url, body string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest(method, url+"/sortkey/clock", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out map[string]string
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		t.Fatalf("%s /sortkey/clock: %d, not JSON", method, resp.StatusCode)
	}
	return resp.StatusCode, out["now"] + out["error"]
}

// TestServeVirtualClock starts `sortkey serve --clock virtual` at a given
// time, moves it over HTTP and sees a table dated by it.
func TestServeVirtualClock(t *testing.T) {
	ctx := testContext(t)
	c := startServe(ctx, t, "--in-memory", "--clock", "virtual", "--clock-start", "2026-01-01T00:00:00Z")
	if code, now := clockCall(t, http.MethodGet, c.url, ""); code != 200 || now != "2026-01-01T00:00:00Z" {
		t.Fatalf("GET: %d %s", code, now)
	}
	if code, now := clockCall(t, http.MethodPost, c.url, `{"advance": "36h"}`); code != 200 || now != "2026-01-02T12:00:00Z" {
		t.Fatalf("advance: %d %s", code, now)
	}
	createTable(ctx, t, c.client, "dated")
	out, err := c.client.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String("dated")})
	if err != nil || out.Table.CreationDateTime.UTC().Format("2006-01-02T15:04:05Z") != "2026-01-02T12:00:00Z" {
		t.Fatalf("CreationDateTime %v (%v)", out.Table.CreationDateTime, err)
	}
	if code, msg := clockCall(t, http.MethodPost, c.url, `{"set": "2025-12-31T00:00:00Z"}`); code != 400 || !strings.Contains(msg, "never goes back") {
		t.Fatalf("set back: %d %s", code, msg)
	}
}

func TestServeRealClockHasNoClockEndpoint(t *testing.T) {
	ctx := testContext(t)
	c := startServe(ctx, t, "--in-memory")
	if code, msg := clockCall(t, http.MethodPost, c.url, `{"advance": "1h"}`); code != 404 || !strings.Contains(msg, "--clock virtual") {
		t.Fatalf("POST on the real clock: %d %s", code, msg)
	}
}
