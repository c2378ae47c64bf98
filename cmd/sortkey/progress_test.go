package main

import (
	"context"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/sortkeydb/sortkey/internal/progress"
	"github.com/sortkeydb/sortkey/sortkeytest"
)

// stepProgressClock makes every reading of the meters' clock a plain
// line's interval later than the last, so that each item moved prints
// a line without the test waiting for one.
func stepProgressClock(t *testing.T) {
	var mu sync.Mutex
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	t.Cleanup(func() { progressClock = time.Now })
	progressClock = func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		now = now.Add(progress.DefaultEvery)
		return now
	}
}

// progressServer is a server with a table of three items.
func progressServer(t *testing.T) *sortkeytest.Server {
	noAWSEnvironment(t)
	srv := sortkeytest.New(t)
	c := dynamodb.NewFromConfig(srv.NetworkAWSConfig())
	ctx := context.Background()
	_, err := c.CreateTable(ctx, &dynamodb.CreateTableInput{TableName: aws.String("Orders"), BillingMode: types.BillingModePayPerRequest,
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash}},
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS}}})
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"o1", "o2", "o3"} {
		if _, err := c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("Orders"),
			Item: map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: id}}}); err != nil {
			t.Fatal(err)
		}
	}
	return srv
}

// progressRun is one long command: its arguments (without --quiet), the
// summary it prints on stdout and the progress lines it prints on stderr
// off a terminal.
type progressRun struct {
	args    []string
	summary string
	line    *regexp.Regexp
}

func progressRuns(t *testing.T, url string) []progressRun {
	exports, fixture := t.TempDir(), t.TempDir()
	figures := `, \d+ B, \d+ items/s, \d+s elapsed`
	return []progressRun{
		{[]string{"export", "--endpoint", url, "--table", "Orders", "--out", exports},
			"exported 3 items from Orders", regexp.MustCompile(`(?m)^export: \d items` + figures + `$`)},
		{[]string{"import", "--endpoint", url, "--table", "Copy", "--in", exports, "--schema-from", "Orders"},
			"imported 3 of 3 items into Copy", regexp.MustCompile(`(?m)^import: \d of 3 items \(\d+%\)` + figures + `, about \d+s left$`)},
		{[]string{"dump", "--endpoint", url, "--out", fixture},
			"dumped 2 tables to", regexp.MustCompile(`(?m)^dump: \d items` + figures + `$`)},
		{[]string{"load", "--endpoint", sortkeytest.New(t).URL, "--in", fixture},
			"loaded 2 tables from", regexp.MustCompile(`(?m)^load: \d of 6 items \(\d+%\)` + figures + `, about \d+s left$`)},
	}
}

// Off a terminal (stderr here is a buffer) a long command prints plain
// lines of its progress, and its summary on stdout as before.
func TestLongCommandsPrintProgressLinesOffTerminal(t *testing.T) {
	stepProgressClock(t)
	srv := progressServer(t)
	for _, r := range progressRuns(t, srv.URL) {
		code, stdout, stderr := runCmd(r.args...)
		if code != 0 || !strings.Contains(stdout, r.summary) {
			t.Fatalf("%s: exit %d\n%s%s", r.args[0], code, stdout, stderr)
		}
		if !r.line.MatchString(stderr) {
			t.Errorf("%s: no progress line like %s in stderr:\n%s", r.args[0], r.line, stderr)
		}
	}
}

// --quiet: the summary and nothing else, however long the run.
func TestQuietLongCommandsPrintOnlyTheirSummary(t *testing.T) {
	stepProgressClock(t)
	srv := progressServer(t)
	for _, r := range progressRuns(t, srv.URL) {
		code, stdout, stderr := runCmd(append(r.args, "--quiet")...)
		if code != 0 || !strings.Contains(stdout, r.summary) || stderr != "" {
			t.Errorf("%s --quiet: exit %d\nstdout %q\nstderr %q", r.args[0], code, stdout, stderr)
		}
	}
}

// serve --seed shows the fixture's loading before it listens (here it
// cannot listen, so the run ends there), and not with --quiet.
func TestServeSeedProgress(t *testing.T) {
	stepProgressClock(t)
	srv := progressServer(t)
	fixture := t.TempDir()
	if code, _, stderr := runCmd("dump", "--endpoint", srv.URL, "--out", fixture, "--quiet"); code != 0 {
		t.Fatalf("dump: exit %d: %s", code, stderr)
	}
	args := []string{"serve", "--in-memory", "--addr", "127.0.0.1:-1", "--seed", fixture}
	line := regexp.MustCompile(`(?m)^seed: \d of 3 items \(\d+%\), `)
	if _, _, stderr := runCmd(args...); !line.MatchString(stderr) || !strings.Contains(stderr, "--addr") {
		t.Errorf("serve --seed: no progress line like %s, or no --addr error:\n%s", line, stderr)
	}
	if _, _, stderr := runCmd(append(args, "--quiet")...); line.MatchString(stderr) || !strings.Contains(stderr, "--addr") {
		t.Errorf("serve --seed --quiet:\n%s", stderr)
	}
}

// bench --quiet keeps its own lines (what it does, and when it is
// ready) and its figures, and no progress.
func TestBenchQuiet(t *testing.T) {
	stepProgressClock(t)
	code, stdout, stderr := runCmd("bench", "--quiet", "--duration", "0", "--preload", "50", "--json")
	if code != 0 || !strings.Contains(stdout, `"workload":"preload"`) || !strings.Contains(stderr, "ready in") || strings.Contains(stderr, "preload:") {
		t.Fatalf("exit %d\nstdout %s\nstderr %s", code, stdout, stderr)
	}
}
