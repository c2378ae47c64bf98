package main

import (
	"io"
	"net/http"
	"strings"
	"testing"
)

// `sortkey serve` serves the console on its own port by default, and
// --console=false leaves /console/ to the health check like any path.
func TestServeConsoleFlag(t *testing.T) {
	ctx := testContext(t)
	for _, tc := range []struct {
		args    []string
		console bool
	}{{[]string{"--in-memory"}, true}, {[]string{"--in-memory", "--console=false"}, false}} {
		c := startServe(ctx, t, tc.args...)
		createTable(ctx, t, c.client, "Shown")
		resp, err := http.Get(c.url + "/console/")
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		shown := strings.Contains(string(body), `href="/console/tables/Shown"`)
		if shown != tc.console || resp.Header.Get("X-Frame-Options") == "DENY" != tc.console {
			t.Errorf("serve %q: GET /console/ %d, table listed %v, want the console %v\n%s", tc.args, resp.StatusCode, shown, tc.console, body)
		}
		c.stop(t)
	}
}
