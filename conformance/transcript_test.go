package conformance_test

import (
	"cmp"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/cockroachdb/datadriven"
	"github.com/sortkeydb/sortkey"
)

var (
	endpoint = flag.String("endpoint", "", "replay the portable transcripts against this endpoint (DynamoDB itself, with the environment's credentials, or another sortkey) instead of a sortkey started per file")
	region   = flag.String("region", "us-east-1", "the region -endpoint's requests are signed for")
	streams  = flag.String("streams-endpoint", "", "with -endpoint, DynamoDB Streams' endpoint (https://streams.dynamodb.us-east-1.amazonaws.com); default: -endpoint's")
)

// TestMain runs only the transcripts under -endpoint: the Go tests of the
// package drive servers of their own, not the endpoint.
func TestMain(m *testing.M) {
	flag.Parse()
	if *endpoint != "" {
		_ = flag.Set("test.run", "^TestTranscripts$")
	}
	os.Exit(m.Run())
}

// fileResult is how one transcript fared, for -endpoint's table.
type fileResult struct {
	path            string
	failed, skipped bool
}

// TestTranscripts runs every transcript under testdata, each on a sortkey
// of its own (or on -endpoint).
func TestTranscripts(t *testing.T) {
	var results []fileResult
	datadriven.Walk(t, "testdata", func(t *testing.T, path string) {
		r := fileResult{path: path}
		defer func() {
			r.failed, r.skipped = t.Failed(), t.Skipped()
			results = append(results, r)
		}()
		runFile(t, path)
	})
	if *endpoint != "" {
		printResults(results)
	}
}

// runFile runs one transcript: its header (an optional server directive)
// starts the target, then each directive runs against it.
func runFile(t *testing.T, path string) {
	s := &session{vars: map[string]string{}, ids: newNumbering()}
	datadriven.RunTest(t, path, func(t *testing.T, d *datadriven.TestData) string {
		if s.tg == nil {
			s.start(t, d)
		}
		return s.run(t, d)
	})
}

// printResults is -endpoint's per-file table.
func printResults(results []fileResult) {
	out := tableOut()
	fmt.Fprintf(out, "\ntranscripts against %s:\n", *endpoint)
	for _, r := range results {
		verdict := "pass"
		switch {
		case r.skipped:
			verdict = "skip (sortkey-only)"
		case r.failed:
			verdict = "FAIL"
		}
		fmt.Fprintf(out, "  %-6s %s\n", verdict, strings.TrimPrefix(r.path, "testdata/"))
	}
}

// tableOut is where -endpoint's table goes. go test shows what a passing
// package printed only with -v, so without it the table goes straight to
// the terminal when there is one.
func tableOut() io.Writer {
	if !testing.Verbose() {
		if tty, err := os.OpenFile("/dev/tty", os.O_WRONLY, 0); err == nil {
			return tty
		}
	}
	return os.Stdout
}

// header is a transcript's server options.
type header struct {
	region      string
	sortkeyOnly bool      // uses what only sortkey has: not replayed on -endpoint
	clock       time.Time // clock=RFC3339: a virtual clock starting there (sortkey-only)
	opts        sortkey.Options
}

// serverOptions are the server directive's options of sortkey.Options
// (sortkey-only): a test of throttling, transient states, index lag or
// item collection limits needs the server set so.
var serverOptions = map[string]func(t *testing.T, d *datadriven.TestData, o *sortkey.Options){
	"enforce-capacity": func(_ *testing.T, _ *datadriven.TestData, o *sortkey.Options) { o.EnforceCapacity = true },
	"transient-delay": func(t *testing.T, d *datadriven.TestData, o *sortkey.Options) {
		o.TransientDelay = durationArg(t, d, "transient-delay")
	},
	"index-lag": func(t *testing.T, d *datadriven.TestData, o *sortkey.Options) {
		o.IndexLag = durationArg(t, d, "index-lag")
	},
	"stale-read-window": func(t *testing.T, d *datadriven.TestData, o *sortkey.Options) {
		o.StaleReadWindow = durationArg(t, d, "stale-read-window")
	},
	"item-collection-limit": func(t *testing.T, d *datadriven.TestData, o *sortkey.Options) {
		d.ScanArgs(t, "item-collection-limit", &o.ItemCollectionLimit)
	},
	// s3-dir=BUCKET or s3-dir=(A,B): each bucket a fresh folder (S3Dirs),
	// for ImportTable and ExportTableToPointInTime; an import's log of the
	// items it refused goes to a fresh folder too, not the system's.
	"s3-dir": func(t *testing.T, d *datadriven.TestData, o *sortkey.Options) {
		for _, arg := range d.CmdArgs {
			for _, bucket := range arg.Vals {
				if arg.Key != "s3-dir" || o.S3Dirs[bucket] != "" {
					continue
				}
				if o.S3Dirs == nil {
					o.S3Dirs, o.ImportLogDir = map[string]string{}, t.TempDir()
				}
				o.S3Dirs[bucket] = t.TempDir()
			}
		}
	},
}

func durationArg(t *testing.T, d *datadriven.TestData, key string) time.Duration {
	var v string
	d.ScanArgs(t, key, &v)
	dur, err := time.ParseDuration(v)
	if err != nil {
		t.Fatalf("%s: %s=%q: %v", d.Pos, key, v, err)
	}
	return dur
}

// session is one transcript's run: its target and the values it saved.
type session struct {
	tg   *target
	vars map[string]string
	ids  *numbering // the file's numbered ids
}

// start makes the file's target from its header, the first directive
// when it is "server", or the defaults.
func (s *session) start(t *testing.T, d *datadriven.TestData) {
	h := header{region: *region}
	if d.Cmd == "server" {
		h = parseHeader(t, d)
	}
	switch {
	case *endpoint == "":
		s.tg = startSortkey(t, h)
	case h.sortkeyOnly:
		t.Skip("sortkey-only: not replayed against another endpoint")
	default:
		s.tg = remoteTarget(t, *endpoint, cmp.Or(*streams, *endpoint), h.region)
	}
}

// parseHeader reads the server directive's options.
func parseHeader(t *testing.T, d *datadriven.TestData) header {
	h := header{region: *region, sortkeyOnly: d.HasArg("sortkey-only")}
	d.MaybeScanArgs(t, "region", &h.region)
	var start string
	if d.MaybeScanArgs(t, "clock", &start) {
		at, err := time.Parse(time.RFC3339, start)
		if err != nil || !h.sortkeyOnly {
			t.Fatalf("%s: clock=%q: want an RFC 3339 time, on a sortkey-only file", d.Pos, start)
		}
		h.clock = at
	}
	if d.HasArg("auth") {
		if !h.sortkeyOnly || d.Input == "" {
			t.Fatalf("%s: auth takes the auth file as the directive's input, on a sortkey-only file", d.Pos)
		}
		h.opts.Auth = []byte(d.Input)
	}
	for _, arg := range d.CmdArgs {
		if set, ok := serverOptions[arg.Key]; ok {
			if !h.sortkeyOnly {
				t.Fatalf("%s: %s is sortkey's own: mark the file sortkey-only", d.Pos, arg.Key)
			}
			set(t, d, &h.opts)
		}
	}
	return h
}

// run runs one directive and returns its output.
func (s *session) run(t *testing.T, d *datadriven.TestData) string {
	switch d.Cmd {
	case "server":
		return ""
	case "call":
		return s.call(t, d)
	case "advance":
		return s.advance(t, d)
	case "wait-active":
		if err := s.tg.waitActive(d.CmdArgs[0].Key); err != nil {
			return err.Error()
		}
		return ""
	case "wait-export", "wait-import":
		return s.waitJob(t, d)
	}
	t.Fatalf("%s: unknown directive %q (server, call, advance, wait-active, wait-export, wait-import)", d.Pos, d.Cmd)
	return ""
}

// waitJob waits until the export or import whose ARN the directive
// names (a saved ${NAME}) is no longer IN_PROGRESS, and prints the status
// it ended in.
func (s *session) waitJob(t *testing.T, d *datadriven.TestData) string {
	if len(d.CmdArgs) != 1 {
		t.Fatalf("%s: %s ARN", d.Pos, d.Cmd)
	}
	kind := strings.TrimPrefix(d.Cmd, "wait-")
	status, err := s.tg.waitJob(kind, s.expand(d.CmdArgs[0].Key))
	if err != nil {
		t.Fatalf("%s: %v", d.Pos, err)
	}
	return status
}

// advance moves the file's virtual clock (server clock=…) by a Go
// duration, as POST /sortkey/clock does, and prints the new time.
func (s *session) advance(t *testing.T, d *datadriven.TestData) string {
	if s.tg.srv == nil || len(d.CmdArgs) != 1 {
		t.Fatalf("%s: advance DURATION needs a sortkey-only file with server clock=…", d.Pos)
	}
	by, err := time.ParseDuration(d.CmdArgs[0].Key)
	if err != nil {
		t.Fatalf("%s: %v", d.Pos, err)
	}
	return s.tg.srv.Advance(by).UTC().Format(time.RFC3339)
}

// call sends the directive's request and writes the answer as the
// transcript expects it.
func (s *session) call(t *testing.T, d *datadriven.TestData) string {
	if len(d.CmdArgs) == 0 {
		t.Fatalf("%s: call needs an operation", d.Pos)
	}
	op := d.CmdArgs[0].Key
	creds := s.tg.creds
	var as string
	if d.MaybeScanArgs(t, "as", &as) {
		creds = s.tg.principal(t, as)
	}
	r, err := s.tg.callAs(creds, op, []byte(s.expand(d.Input)))
	if err != nil {
		t.Fatalf("%s: %v", d.Pos, err)
	}
	if r.status == http.StatusOK {
		s.remember(t, d, op, r.body)
	}
	var paths []string
	if arg, ok := d.Arg("select"); ok {
		paths = arg.Vals
	}
	return render(t, r, paths, s.ids)
}

// repeated is ${TEXT*N}: TEXT N times, for the large values limits are
// about, which would otherwise fill the file (and pass datadriven's line
// length).
var repeated = regexp.MustCompile(`\$\{([^}*]*)\*(\d+)\}`)

// expand replaces each ${name} in the request with the value saved as
// name, and each ${TEXT*N} with TEXT repeated.
func (s *session) expand(in string) string {
	for name, v := range s.vars {
		in = strings.ReplaceAll(in, "${"+name+"}", v)
	}
	return repeated.ReplaceAllStringFunc(in, func(m string) string {
		sub := repeated.FindStringSubmatch(m)
		n, _ := strconv.Atoi(sub[2])
		return strings.Repeat(sub[1], n)
	})
}

// remember saves what the directive's save=NAME:Path arguments name of
// a successful answer, and the tables it created.
func (s *session) remember(t *testing.T, d *datadriven.TestData, op string, body []byte) {
	for _, arg := range d.CmdArgs[1:] {
		if arg.Key != "save" {
			continue
		}
		for _, v := range arg.Vals {
			name, path, ok := strings.Cut(v, ":")
			if !ok {
				t.Fatalf("%s: save=%s: want save=NAME:Path.To.Field", d.Pos, v)
			}
			s.vars[name] = lookup(t, body, path)
		}
	}
	if table := createdTable(op, body); table != "" {
		s.tg.created = append(s.tg.created, table)
	}
}
