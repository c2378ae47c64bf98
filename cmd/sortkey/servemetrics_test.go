package main

import (
	"bytes"
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"
)

var metricsEndpoint = regexp.MustCompile(`msg="serving metrics" endpoint=(http://\S+/metrics)`)

func getText(t *testing.T, url string) (int, string) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// By default /metrics is on the API port; --metrics-addr moves it to its
// own listener (the API port's /metrics is then not found, as any path but
// / is on DynamoDB's endpoint), and
// --metrics=false turns it off, leaving /metrics to the health check.
func TestServeMetricsFlags(t *testing.T) {
	ctx := testContext(t)
	const counted = `sortkey_requests_total{error="",operation="CreateTable"} 1`

	c := startServe(ctx, t, "--in-memory")
	createTable(ctx, t, c.client, "Counted")
	if code, body := getText(t, c.url+"/metrics"); code != 200 || !strings.Contains(body, counted) {
		t.Errorf("default: GET /metrics %d, no %q in\n%.300s", code, counted, body)
	}
	c.stop(t)

	c = startServe(ctx, t, "--in-memory", "--metrics-addr", "127.0.0.1:0")
	createTable(ctx, t, c.client, "Counted")
	awaitLog(t, c, "serving metrics")
	m := metricsEndpoint.FindStringSubmatch(c.logs.String())
	if m == nil || strings.HasPrefix(m[1], c.url) {
		t.Fatalf("no metrics endpoint of its own in the log:\n%s", c.logs)
	}
	if code, body := getText(t, m[1]); code != 200 || !strings.Contains(body, counted) {
		t.Errorf("--metrics-addr: GET %s %d, no %q in\n%.300s", m[1], code, counted, body)
	}
	if code, body := getText(t, c.url+"/metrics"); code != 404 {
		t.Errorf("--metrics-addr: the API port still serves metrics: %d %.200s", code, body)
	}
	c.stop(t)

	c = startServe(ctx, t, "--in-memory", "--metrics=false")
	if code, body := getText(t, c.url+"/metrics"); code != 404 {
		t.Errorf("--metrics=false: GET /metrics %d %.200s, want 404", code, body)
	}
	c.stop(t)
}

func TestServeRefusesMetricsAddrWithMetricsOff(t *testing.T) {
	var errb bytes.Buffer
	if code := serve([]string{"--in-memory", "--metrics=false", "--metrics-addr", "127.0.0.1:0"}, io.Discard, &errb); code != 2 ||
		!strings.Contains(errb.String(), msgMetricsAddrOff) {
		t.Errorf("exit %d, stderr %q", code, errb.String())
	}
}
