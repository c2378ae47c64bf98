package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
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
		"--clock virtual --clock-rewind":         "--clock-rewind needs --clock-start",
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

// The virtual clock survives a crash of `sortkey serve` on a data
// directory: started again without --clock-start it answers the time it
// was advanced to; with an earlier --clock-start it refuses to start,
// unless --clock-rewind.
func TestServeVirtualClockSurvivesRestart(t *testing.T) {
	ctx := testContext(t)
	dir := t.TempDir()
	c := startServe(ctx, t, "--data-dir", dir, "--clock", "virtual", "--clock-start", "2026-01-01T00:00:00Z")
	if code, now := clockCall(t, http.MethodPost, c.url, `{"advance": "36h"}`); code != 200 || now != "2026-01-02T12:00:00Z" {
		t.Fatalf("advance: %d %s", code, now)
	}
	c.kill() // a crash: the move was saved before it was answered
	c = startServe(ctx, t, "--data-dir", dir, "--clock", "virtual")
	if code, now := clockCall(t, http.MethodGet, c.url, ""); code != 200 || now != "2026-01-02T12:00:00Z" {
		t.Fatalf("restarted without --clock-start: %d %s", code, now)
	}
	c.stop(t)
	if logs := serveRefused(t, "--data-dir", dir, "--clock", "virtual", "--clock-start", "2026-01-01T00:00:00Z"); !strings.Contains(logs, "is before 2026-01-02T12:00:00Z") || !strings.Contains(logs, "--clock-rewind") {
		t.Fatalf("restarted at an earlier --clock-start:\n%s", logs)
	}
	c = startServe(ctx, t, "--data-dir", dir, "--clock", "virtual", "--clock-start", "2026-01-01T00:00:00Z", "--clock-rewind")
	if code, now := clockCall(t, http.MethodGet, c.url, ""); code != 200 || now != "2026-01-01T00:00:00Z" {
		t.Fatalf("restarted with --clock-rewind: %d %s", code, now)
	}
	c.stop(t)
}

// serveRefused runs `sortkey serve` with args, which must exit 1 before
// serving, and returns its log.
func serveRefused(t *testing.T, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), connBound) // only so that a server that starts fails
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), childArgsEnv+"="+strings.Join(args, "\n"))
	out, _ := cmd.CombinedOutput()
	if ctx.Err() != nil || cmd.ProcessState.ExitCode() != 1 {
		t.Fatalf("sortkey serve %v: %v, exit %d, want a refusal:\n%s", args, ctx.Err(), cmd.ProcessState.ExitCode(), out)
	}
	return string(out)
}
