package main

import (
	"bytes"
	"os"
	"strings"
	"testing"
)

// --data-dir beside --in-memory, from one source or with --data-dir from
// a higher one, asks for a folder that would go unused: refused, naming
// where each came from, before anything opens. An --in-memory above the
// --data-dir wins, as the container image needs.
func TestServeDataDirWithInMemory(t *testing.T) {
	t.Run("refused", dataDirInMemoryRefused)
	t.Run("in-memory above", inMemoryOverLowerDataDir)
	t.Run("container image", inMemoryInTheContainerImage)
}

func dataDirInMemoryRefused(t *testing.T) {
	cases := []struct {
		config, env string // env: SORTKEY_DATA_DIR
		args        []string
		want        string
	}{
		{"", "", []string{"--in-memory", "--data-dir", "/tmp/x"}, "--data-dir on the command line names a folder for the data, --in-memory on the command line keeps it in memory: give one or the other"},
		{"in-memory: true\ndata-dir: /tmp/x\n", "", nil, "data-dir in the config file names a folder for the data, in-memory in the config file keeps it"},
		{"in-memory: true\n", "", []string{"--data-dir", "/tmp/x"}, "--data-dir on the command line names a folder"},
		{"in-memory: true\n", "/tmp/x", nil, "SORTKEY_DATA_DIR names a folder for the data, in-memory in the config file keeps it"},
	}
	for _, c := range cases {
		t.Setenv("SORTKEY_DATA_DIR", c.env)
		args := c.args
		if c.config != "" {
			args = append(args, "--config", writeConfig(t, "serve.yaml", c.config))
		}
		if msg := refusedParse(t, args...); !strings.Contains(msg, c.want) {
			t.Errorf("config %q, SORTKEY_DATA_DIR %q, args %v: stderr %q, want %q", c.config, c.env, c.args, msg, c.want)
		}
	}
	t.Setenv("SORTKEY_DATA_DIR", "/tmp/x")
	t.Setenv("SORTKEY_IN_MEMORY", "true")
	if msg := refusedParse(t); !strings.Contains(msg, "SORTKEY_DATA_DIR names a folder for the data, SORTKEY_IN_MEMORY keeps it in memory") {
		t.Errorf("both in the environment: stderr %q", msg)
	}
}

// --in-memory alone, or above a --data-dir from a lower source, is
// accepted: the default folder is no one's request, and the command line
// wins over the environment and the file.
func inMemoryOverLowerDataDir(t *testing.T) {
	for _, args := range [][]string{{"--in-memory"}, {"--in-memory", "--config", writeConfig(t, "serve.yaml", "data-dir: /tmp/x\n")}} {
		if f := mustParseServe(t, args...); !f.inMemory {
			t.Errorf("%v: in-memory %v", args, f.inMemory)
		}
	}
	t.Setenv("SORTKEY_IN_MEMORY", "true")
	if f := mustParseServe(t, "--config", writeConfig(t, "serve.yaml", "data-dir: /tmp/x\n")); !f.inMemory {
		t.Errorf("SORTKEY_IN_MEMORY over data-dir: in the config file: in-memory %v", f.inMemory)
	}
}

// The container image sets SORTKEY_DATA_DIR=/data; `docker run IMAGE
// serve --in-memory` starts, and writes nothing to that folder.
func inMemoryInTheContainerImage(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("SORTKEY_DATA_DIR", dir)
	c := startServe(testContext(t), t, "--in-memory")
	c.stop(t)
	if names, err := os.ReadDir(dir); err != nil || len(names) != 0 {
		t.Fatalf("the data folder holds %v (%v)", names, err)
	}
}

// refusedParse is serve's flags parsed and checked, as serve does before
// opening anything, wanting a refusal: its stderr. (serve itself would
// start serving were the pair accepted.)
func refusedParse(t *testing.T, args ...string) string {
	t.Helper()
	var errb bytes.Buffer
	if _, err := parseServe(args, &errb); err == nil {
		t.Errorf("%v: accepted", args)
	}
	return errb.String()
}
