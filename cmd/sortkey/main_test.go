package main

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

func TestRunRejectsUnknownCommand(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run([]string{"bogus"}, &out, &errb); code != 2 || !strings.Contains(errb.String(), `unknown command "bogus"`) {
		t.Fatalf("exit %d, stderr %q", code, errb.String())
	}
}

// Help goes to stdout and exits 0, naming every command; `auth check`
// is the one whose name is two words.
func TestHelpNamesEveryCommand(t *testing.T) {
	for _, args := range [][]string{{"-h"}, {"--help"}, {"help"}} {
		var out, errb bytes.Buffer
		if code := run(args, &out, &errb); code != 0 {
			t.Fatalf("%v: exit %d", args, code)
		}
		for _, cmd := range []string{"serve ", "bench ", "auth check "} {
			if !strings.Contains(out.String(), "\n  "+cmd) {
				t.Errorf("%v: usage does not name %q:\n%s", args, cmd, out.String())
			}
		}
	}
	var out, errb bytes.Buffer
	if code := run([]string{"auth", "-h"}, &out, &errb); code != 0 || !strings.Contains(out.String(), "sortkey auth check --auth FILE --as ARN --request FILE.json") {
		t.Fatalf("auth -h: exit %d, stdout %q", code, out.String())
	}
}

func TestServeDefaultsMatchREADME(t *testing.T) {
	f, err := parseServe(nil, &bytes.Buffer{})
	if err != nil || f.addr != "127.0.0.1:8000" || f.dataDir != "./sortkey-data" || f.inMemory || f.region != "us-east-1" {
		t.Fatalf("defaults %+v (%v)", f, err)
	}
}

func TestServeTakesTransientDelay(t *testing.T) {
	f, err := parseServe([]string{"--transient-delay", "1500ms"}, &bytes.Buffer{})
	if err != nil || f.transientDelay != 1500*time.Millisecond {
		t.Fatalf("transient delay %v (%v)", f.transientDelay, err)
	}
	if f, _ := parseServe(nil, &bytes.Buffer{}); f.transientDelay != 0 {
		t.Fatalf("default transient delay %v, want 0", f.transientDelay)
	}
	if _, err := parseServe([]string{"--transient-delay", "-1s"}, &bytes.Buffer{}); err == nil {
		t.Fatal("a negative transient delay was accepted")
	}
}

func TestServeFailsClearlyOnBadAddress(t *testing.T) {
	var out, errb bytes.Buffer
	code := serve([]string{"--in-memory", "--addr", "256.0.0.1:1"}, &out, &errb)
	if code != 1 || !strings.Contains(errb.String(), "sortkey serve failed") {
		t.Fatalf("exit %d, stderr %q", code, errb.String())
	}
}
