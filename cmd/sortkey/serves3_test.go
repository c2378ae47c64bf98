package main

import (
	"slices"
	"strings"
	"testing"
)

// --s3-dir given once is one folder, given twice two, on the command line
// or as a list in the config file: parsing the command line twice (to
// find --config, then to win over the other sources) must not count its
// values twice.
func TestS3DirValuesWithinOneSource(t *testing.T) {
	cases := []struct {
		config string
		args   []string
		want   []string
	}{
		{"", []string{"--s3-dir", "/tmp/bk"}, []string{"/tmp/bk"}},
		{"", []string{"--s3-dir", "exp=/tmp/e"}, []string{"exp=/tmp/e"}},
		{"", []string{"--s3-dir", "a=/tmp/a", "--s3-dir", "b=/tmp/b"}, []string{"a=/tmp/a", "b=/tmp/b"}},
		{"s3-dir: /tmp/bk\n", nil, []string{"/tmp/bk"}},
		{"s3-dir: [a=/tmp/a, b=/tmp/b]\n", nil, []string{"a=/tmp/a", "b=/tmp/b"}},
	}
	for _, c := range cases {
		args := c.args
		if c.config != "" {
			args = append(args, "--config", writeConfig(t, "s3.yaml", c.config))
		}
		if got := mustParseServe(t, append(args, "--in-memory")...).s3Dirs; !slices.Equal(got, c.want) {
			t.Errorf("config %q, args %v: --s3-dir %q, want %q", c.config, c.args, got, c.want)
		}
	}
}

// A source above replaces the --s3-dir values of a source below, as it
// does any flag's value: the command line over SORTKEY_S3_DIR over the
// config file.
func TestS3DirHigherSourceReplacesLower(t *testing.T) {
	cases := []struct {
		config, env string
		args        []string
		want        []string
	}{
		{"s3-dir: [f=/f, g=/g]\n", "e=/e", nil, []string{"e=/e"}},
		{"s3-dir: f=/f\n", "", []string{"--s3-dir", "c=/c"}, []string{"c=/c"}},
		{"", "e=/e", []string{"--s3-dir", "c=/c", "--s3-dir", "d=/d"}, []string{"c=/c", "d=/d"}},
		{"s3-dir: f=/f\n", "e=/e", []string{"--s3-dir", "c=/c"}, []string{"c=/c"}},
		{"s3-dir: f=/f\n", "", nil, []string{"f=/f"}},
	}
	for _, c := range cases {
		t.Setenv("SORTKEY_S3_DIR", c.env)
		args := append(c.args, "--in-memory")
		if c.config != "" {
			args = append(args, "--config", writeConfig(t, "s3.yaml", c.config))
		}
		if got := mustParseServe(t, args...).s3Dirs; !slices.Equal(got, c.want) {
			t.Errorf("config %q, env %q, args %v: --s3-dir %q, want %q", c.config, c.env, c.args, got, c.want)
		}
	}
}

// A list is only for a repeatable flag, and holds plain values.
func TestConfigListRefusedWhereItDoesNotFit(t *testing.T) {
	cases := map[string]string{
		"addr: [a, b]\n":               `s3.yaml:1: key "addr": a flag takes one value, not a list or mapping`,
		"s3-dir:\n  - a=/a\n  - [b]\n": `s3.yaml:3: key "s3-dir": a list of this flag's values holds plain values`,
	}
	for doc, want := range cases {
		if msg := refusedServe(t, "--config", writeConfig(t, "s3.yaml", doc)); !strings.Contains(msg, want) {
			t.Errorf("%q: stderr %q, want %q", doc, msg, want)
		}
	}
}

// `sortkey serve --in-memory --s3-dir DIR` and `--s3-dir BUCKET=DIR`
// start and answer.
func TestServeStartsWithS3Dir(t *testing.T) {
	ctx := testContext(t)
	for _, arg := range []string{t.TempDir(), "exp=" + t.TempDir()} {
		c := startServe(ctx, t, "--in-memory", "--s3-dir", arg)
		c.stop(t)
	}
}
