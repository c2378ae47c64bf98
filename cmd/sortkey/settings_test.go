package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/sortkeydb/sortkey"
)

// Every command named by `sortkey -h`, and every design subcommand,
// answers -h with its usage on stdout and exit status 0.
func TestEveryCommandAnswersHelp(t *testing.T) {
	for _, cmd := range commandsOf(t) {
		for _, help := range []string{"-h", "--help"} {
			args := append(strings.Fields(cmd), help)
			var out, errb bytes.Buffer
			if code := run(args, &out, &errb); code != 0 || !strings.Contains(out.String(), "usage") {
				t.Errorf("sortkey %s: exit %d, stdout %q, stderr %q", strings.Join(args, " "), code, out.String(), errb.String())
			}
		}
	}
}

// commandsOf lists the commands of `sortkey -h` ("auth check" is two
// words) and `sortkey design <command>` for each design command.
func commandsOf(t *testing.T) []string {
	var out bytes.Buffer
	run([]string{"-h"}, &out, &out)
	var cmds []string
	for _, m := range regexp.MustCompile(`(?m)^  ([a-z]+(?: [a-z]+)?)  `).FindAllStringSubmatch(out.String(), -1) {
		cmds = append(cmds, m[1])
	}
	for name := range designCommands {
		cmds = append(cmds, "design "+name)
	}
	if len(cmds) < 6 {
		t.Fatalf("found only the commands %v in:\n%s", cmds, out.String())
	}
	return cmds
}

// A word where a flag belongs is a mistake, not something to ignore:
// `serve in-memory` would otherwise write to ./sortkey-data.
func TestCommandsRefusePositionalArguments(t *testing.T) {
	for _, args := range [][]string{{"serve", "in-memory"}, {"serve", "--in-memory", "extra"}, {"bench", "put"}, {"health", "127.0.0.1:8000"}} {
		var out, errb bytes.Buffer
		word := args[len(args)-1]
		if code := run(args, &out, &errb); code != 2 || !strings.Contains(errb.String(), `unexpected argument "`+word+`"`) {
			t.Errorf("%v: exit %d, stderr %q", args, code, errb.String())
		}
	}
}

// The command line wins over SORTKEY_* variables, which win over the
// config file, which wins over the defaults: each flag here is set by a
// different layer, and one by all three.
func TestServeSettingsPrecedence(t *testing.T) {
	cfg := writeConfig(t, "settings.yaml", "region: eu-west-1\nttl-interval: 7s\nin-memory: true\nmax-connections: 10\n")
	t.Setenv("SORTKEY_TTL_INTERVAL", "8s")
	t.Setenv("SORTKEY_MAX_CONNECTIONS", "20")
	t.Setenv("SORTKEY_ADDR", "127.0.0.1:9001")
	f := mustParseServe(t, "--config", cfg, "--max-connections", "30")
	if f.region != "eu-west-1" || !f.inMemory {
		t.Errorf("from the file: region %q, in-memory %v", f.region, f.inMemory)
	}
	if f.ttlInterval != 8*time.Second || f.addr != "127.0.0.1:9001" {
		t.Errorf("from the environment over the file: ttl-interval %v, addr %q", f.ttlInterval, f.addr)
	}
	if f.maxConnections != 30 {
		t.Errorf("from the command line over both: max-connections %d", f.maxConnections)
	}
	if f.dataDir != "./sortkey-data" || f.idleTimeout != 120*time.Second {
		t.Errorf("defaults: data-dir %q, idle-timeout %v", f.dataDir, f.idleTimeout)
	}
}

// SORTKEY_CONFIG names the file when --config does not, and JSON is a
// config file too.
func TestServeConfigFromTheEnvironmentInJSON(t *testing.T) {
	t.Setenv("SORTKEY_CONFIG", writeConfig(t, "settings.json", `{"in-memory": true, "addr": "127.0.0.1:9002", "cache-size": "64MiB"}`))
	f := mustParseServe(t)
	if !f.inMemory || f.addr != "127.0.0.1:9002" || f.cacheSize != 64<<20 {
		t.Fatalf("in-memory %v, addr %q, cache-size %d", f.inMemory, f.addr, f.cacheSize)
	}
}

// An empty variable is unset: a container's "SORTKEY_ADDR=" line does not
// clear the address.
func TestEmptyVariableIsUnset(t *testing.T) {
	t.Setenv("SORTKEY_ADDR", "")
	if f := mustParseServe(t); f.addr != "127.0.0.1:8000" {
		t.Fatalf("addr %q", f.addr)
	}
}

// A bad config file names the file, the line and the key, and the server
// does not start; a bad variable names the variable.
func TestBadSettingsAreRefusedClearly(t *testing.T) {
	cases := map[string]string{
		"in-memory: true\nadress: 127.0.0.1:1\n":   `bad.yaml:2: unknown key "adress": sortkey serve has no --adress flag`,
		"in-memory: yes\n":                         `bad.yaml:1: key "in-memory": bad value "yes"`,
		"max-connections: many\n":                  `bad.yaml:1: key "max-connections": bad value "many"`,
		"cache-size: 12XB\n":                       `bad.yaml:1: key "cache-size": bad value "12XB": want a whole number of bytes with a unit`,
		"addr: [a, b]\n":                           `bad.yaml:1: key "addr": a flag takes one value, not a list or mapping`,
		"addr:\n":                                  `bad.yaml:1: key "addr" has no value`,
		"region: a\nregion: b\n":                   `bad.yaml:2: key "region" is given twice`,
		"config: other.yaml\n":                     `bad.yaml:1: key "config": a config file cannot name another`,
		"- in-memory\n":                            `bad.yaml: a config file is a mapping of flag names to values`,
		"in-memory: true\nmax-connections: 0\n":    `--max-header-bytes and --max-connections must be positive`,
		"in-memory: true\n  addr: : 127.0.0.1:1\n": `bad.yaml: yaml:`,
	}
	for doc, want := range cases {
		path := writeConfig(t, "bad.yaml", doc)
		if msg := refusedServe(t, "--config", path); !strings.Contains(msg, want) {
			t.Errorf("%q: stderr %q, want %q", doc, msg, want)
		}
	}
	if msg := refusedServe(t, "--config", filepath.Join(t.TempDir(), "missing.yaml")); !strings.Contains(msg, "--config: open ") {
		t.Errorf("missing file: %q", msg)
	}
	t.Setenv("SORTKEY_IN_MEMORY", "sometimes")
	if msg := refusedServe(t); !strings.Contains(msg, `environment variable SORTKEY_IN_MEMORY="sometimes": parse error`) {
		t.Errorf("bad variable: %q", msg)
	}
}

// A bad value in the file is refused even when the command line would
// have overridden it: the file is wrong either way.
func TestBadConfigValueRefusedUnderAFlag(t *testing.T) {
	path := writeConfig(t, "bad.yaml", "max-connections: many\n")
	if msg := refusedServe(t, "--config", path, "--max-connections", "5"); !strings.Contains(msg, `key "max-connections"`) {
		t.Fatalf("stderr %q", msg)
	}
}

func TestServeCacheSize(t *testing.T) {
	if f := mustParseServe(t); f.cacheSize != 32<<20 || f.cacheSize.String() != "32MiB" {
		t.Fatalf("default cache size %d (%s)", f.cacheSize, f.cacheSize.String())
	}
	for arg, want := range map[string]byteSize{"1GiB": 1 << 30, "512KiB": 512 << 10, "1000": 1000, "3B": 3} {
		if f := mustParseServe(t, "--cache-size", arg); f.cacheSize != want {
			t.Errorf("--cache-size %s: %d, want %d", arg, f.cacheSize, want)
		}
	}
	// The size reaches the storage: a negative one, which no flag can
	// give, is refused there.
	if db, err := sortkey.Open("", &sortkey.Options{InMemory: true, CacheSize: -1}); err == nil {
		db.Close()
		t.Error("sortkey.Open took a negative cache size")
	}
	for _, arg := range []string{"0", "-1MiB", "1.5GiB", "1TB", "MiB", "99999999999GiB"} {
		if msg := refusedServe(t, "--cache-size", arg); !strings.Contains(msg, "cache-size") {
			t.Errorf("--cache-size %s: stderr %q", arg, msg)
		}
	}
}

func mustParseServe(t *testing.T, args ...string) serveFlags {
	t.Helper()
	var errb bytes.Buffer
	f, err := parseServe(args, &errb)
	if err != nil {
		t.Fatalf("%v: %v\n%s", args, err, errb.String())
	}
	return f
}

// refusedServe runs serve with args, wants exit 2, and returns stderr.
func refusedServe(t *testing.T, args ...string) string {
	t.Helper()
	var out, errb bytes.Buffer
	if code := serve(args, &out, &errb); code != 2 {
		t.Errorf("%v: exit %d, want 2; stderr %q", args, code, errb.String())
	}
	return errb.String()
}

func writeConfig(t *testing.T, name, doc string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}
