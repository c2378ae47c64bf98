package main

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/sortkeydb/sortkey"
)

func TestLagFlagsReachTheOptions(t *testing.T) {
	f, err := parseServe([]string{"--index-lag", "2s", "--stale-reads", "750ms"}, &bytes.Buffer{})
	if err != nil {
		t.Fatal(err)
	}
	var o sortkey.Options
	f.lag.apply(&o)
	if o.IndexLag != 2*time.Second || o.StaleReadWindow != 750*time.Millisecond {
		t.Fatalf("IndexLag %v, StaleReadWindow %v; want 2s, 750ms", o.IndexLag, o.StaleReadWindow)
	}
	f, _ = parseServe(nil, &bytes.Buffer{})
	if f.lag.apply(&o); o.IndexLag != 0 || o.StaleReadWindow != 0 {
		t.Fatalf("by default IndexLag %v, StaleReadWindow %v; want both off", o.IndexLag, o.StaleReadWindow)
	}
}

func TestNegativeLagFlagsAreRefused(t *testing.T) {
	for _, flag := range []string{"--index-lag", "--stale-reads"} {
		var stderr bytes.Buffer
		_, err := parseServe([]string{flag, "-1s"}, &stderr)
		if err == nil || !strings.Contains(stderr.String(), "must not be negative") {
			t.Errorf("%s -1s: err %v, stderr %q; want refused as negative", flag, err, stderr.String())
		}
	}
}
