package clustertest

import (
	"bytes"
	"cmp"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go"
	"github.com/jackc/pgx/v5"
)

// Options shape a cluster.
type Options struct {
	Nodes int      // how many nodes; 0 is 3
	Env   []string // environment beyond the machine's, "NAME=value", e.g. SORTKEY_UNSAFE_NO_CROSS_NODE_LOCKS=1
	Flags []string // flags for `sortkey serve` beyond --store and --addr
}

// Cluster is a set of nodes on one schema of their own, stopped and
// dropped when the test ends.
type Cluster struct {
	tb     testing.TB
	bin    string
	pgURL  string // the database, without the schema: for pgx
	schema string
	dir    string // the nodes' log files
	opts   Options
	nodes  []*node
}

// How long a node may take to answer its health check after it starts,
// and how long it may take to stop on SIGTERM before it is killed.
const (
	startTimeout = 30 * time.Second
	stopTimeout  = 10 * time.Second
)

var errExited = errors.New("the node exited before it was healthy")

// Start starts opts.Nodes nodes on a new schema of the PostgreSQL database
// at pgURL, one after another (the first creates the schema), each
// answering its health check when Start returns.
func Start(tb testing.TB, pgURL string, opts Options) *Cluster {
	tb.Helper()
	c := &Cluster{tb: tb, bin: Binary(tb), pgURL: pgURL, schema: "cluster_" + randomHex(), dir: tb.TempDir(), opts: opts}
	tb.Cleanup(c.cleanup)
	for i := range cmp.Or(opts.Nodes, 3) {
		c.nodes = append(c.nodes, newNode(i, c.dir))
		if err := c.Restart(i); err != nil {
			tb.Fatal(err)
		}
	}
	return c
}

// Len is the number of nodes, live or not.
func (c *Cluster) Len() int { return len(c.nodes) }

// Schema is the cluster's schema in the database.
func (c *Cluster) Schema() string { return c.schema }

// URL is node i's endpoint, the same across restarts.
func (c *Cluster) URL(i int) string { return "http://" + c.nodes[i].addr }

// Client is node i's DynamoDB client; it outlives restarts.
func (c *Cluster) Client(i int) *dynamodb.Client { return c.nodes[i].client }

// Alive reports whether node i answered its health check and has neither
// been killed nor exited since.
func (c *Cluster) Alive(i int) bool { return c.nodes[i].running() }

// Kill kills node i with SIGKILL and waits until it is gone.
func (c *Cluster) Kill(i int) error {
	p := c.nodes[i].current()
	if p == nil || p.exited() {
		return fmt.Errorf("clustertest: node %d is not running", i)
	}
	c.nodes[i].note("killed with SIGKILL by the test")
	p.kill()
	return nil
}

// Restart starts node i on its port and waits for its health check. A
// start that exits at once is tried again until startTimeout: PostgreSQL
// may not yet have noticed that the killed process's sessions are gone.
func (c *Cluster) Restart(i int) error {
	n := c.nodes[i]
	if p := n.current(); p != nil && !p.exited() {
		return fmt.Errorf("clustertest: node %d is running", i)
	}
	deadline := time.Now().Add(startTimeout)
	for {
		p, err := c.launch(n)
		if err == nil {
			err = p.waitHealthy(n.addr, deadline)
		}
		if err == nil || !errors.Is(err, errExited) || time.Now().After(deadline) {
			return c.startErr(i, err)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

func (c *Cluster) startErr(i int, err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("clustertest: starting node %d: %w\n%s", i, err, tail(c.nodes[i].logPath, 30))
}

// launch starts a process for n, its output appended to n's log file.
func (c *Cluster) launch(n *node) (*proc, error) {
	log, err := os.OpenFile(n.logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(log, "=== clustertest: starting at %s\n", time.Now().Format(time.RFC3339Nano))
	cmd := exec.Command(c.bin, c.args(n)...)
	cmd.Env, cmd.Stdout, cmd.Stderr = c.env(), log, log
	if err := cmd.Start(); err != nil {
		log.Close()
		return nil, err
	}
	return n.started(cmd, log), nil
}

func (c *Cluster) args(n *node) []string {
	store := c.pgURL + sep(c.pgURL) + "schema=" + c.schema
	return append([]string{"serve", "--store", store, "--addr", n.addr}, c.opts.Flags...)
}

// env is the test's environment less every SORTKEY_ variable (a node
// reads those as flags; the test switch among them), plus opts.Env.
func (c *Cluster) env() []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "SORTKEY_") {
			env = append(env, kv)
		}
	}
	return append(env, c.opts.Env...)
}

// WaitTable waits until every live node describes table name as ACTIVE.
func (c *Cluster) WaitTable(tb testing.TB, name string) {
	tb.Helper()
	for i := range c.nodes {
		if c.Alive(i) {
			if err := waitActive(c.Client(i), name); err != nil {
				tb.Fatalf("clustertest: table %s on node %d: %v", name, i, err)
			}
		}
	}
}

func waitActive(client *dynamodb.Client, name string) error {
	var err error
	for deadline := time.Now().Add(startTimeout); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		var out *dynamodb.DescribeTableOutput
		out, err = client.DescribeTable(context.Background(), &dynamodb.DescribeTableInput{TableName: aws.String(name)})
		if err == nil && out.Table.TableStatus == types.TableStatusActive {
			return nil
		}
	}
	return fmt.Errorf("not ACTIVE after %s (last error: %v)", startTimeout, err)
}

// cleanup stops every node, reports the ones that died by themselves,
// shows the logs' tails when the test failed, and drops the schema.
func (c *Cluster) cleanup() {
	for _, n := range c.nodes {
		if p := n.current(); p != nil {
			p.stop(n)
		}
	}
	for i, n := range c.nodes {
		for _, msg := range n.crashed() {
			c.tb.Errorf("clustertest: node %d %s", i, msg)
		}
		if c.tb.Failed() {
			c.tb.Logf("node %d's log (%s), last lines:\n%s", i, n.addr, tail(n.logPath, 40))
		}
	}
	if err := dropSchema(c.pgURL, c.schema); err != nil {
		c.tb.Errorf("clustertest: dropping schema %s: %v", c.schema, err)
	}
}

func dropSchema(pgURL, schema string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, pgURL)
	if err != nil {
		return err
	}
	defer conn.Close(ctx)
	_, err = conn.Exec(ctx, "DROP SCHEMA IF EXISTS "+pgx.Identifier{schema}.Sanitize()+" CASCADE")
	return err
}

// node is one `sortkey serve` at a time, on a port it keeps across restarts.
type node struct {
	addr    string
	logPath string
	client  *dynamodb.Client

	mu      sync.Mutex
	p       *proc    // the latest process, nil before the first
	crashes []string // how its processes exited when they should not have
}

func newNode(i int, dir string) *node {
	addr := freeAddr()
	return &node{addr: addr, logPath: filepath.Join(dir, fmt.Sprintf("node%d.log", i)), client: NewClient("http://" + addr)}
}

func (n *node) current() *proc {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.p
}

func (n *node) running() bool {
	p := n.current()
	return p != nil && p.healthy.Load() && !p.exited()
}

func (n *node) crashed() []string {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.crashes
}

// started records a new process and waits for it in the background,
// keeping what went wrong with its exit (unasked).
func (n *node) started(cmd *exec.Cmd, log *os.File) *proc {
	p := &proc{cmd: cmd, done: make(chan struct{})}
	n.mu.Lock()
	n.p = p
	n.mu.Unlock()
	go func() {
		_ = cmd.Wait()
		log.Close()
		if msg := p.unasked(); msg != "" {
			n.mu.Lock()
			n.crashes = append(n.crashes, msg)
			n.mu.Unlock()
		}
		close(p.done)
	}()
	return p
}

// note appends a line of the harness's own to the node's log.
func (n *node) note(msg string) {
	f, err := os.OpenFile(n.logPath, os.O_WRONLY|os.O_APPEND, 0)
	if err == nil {
		fmt.Fprintf(f, "=== clustertest: %s at %s\n", msg, time.Now().Format(time.RFC3339Nano))
		f.Close()
	}
}

// proc is one process of a node.
type proc struct {
	cmd      *exec.Cmd
	done     chan struct{} // closed when cmd has exited
	healthy  atomic.Bool   // it answered its health check
	stopping atomic.Bool   // the test stops or kills it
	killed   atomic.Bool   // with SIGKILL
}

// unasked says what was wrong with the exit of a process that had been
// healthy: that nobody stopped it (a crash), or that it failed to stop
// cleanly on SIGTERM; "" when nothing was.
func (p *proc) unasked() string {
	switch state := p.cmd.ProcessState; {
	case p.killed.Load() || !p.healthy.Load():
		return ""
	case !p.stopping.Load():
		return "exited by itself: " + state.String()
	case !state.Success():
		return "on SIGTERM: " + state.String()
	}
	return ""
}

func (p *proc) exited() bool {
	select {
	case <-p.done:
		return true
	default:
		return false
	}
}

func (p *proc) kill() {
	p.stopping.Store(true)
	p.killed.Store(true)
	_ = p.cmd.Process.Kill()
	<-p.done
}

// stop ends the process with SIGTERM, or SIGKILL after stopTimeout.
func (p *proc) stop(n *node) {
	if p.exited() {
		return
	}
	p.stopping.Store(true)
	_ = p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-p.done:
	case <-time.After(stopTimeout):
		n.note("did not stop within " + stopTimeout.String() + " of SIGTERM: killed")
		p.kill()
	}
}

// waitHealthy polls the health check at addr until it answers 200, the
// process exits (errExited) or the deadline passes (and it is killed).
func (p *proc) waitHealthy(addr string, deadline time.Time) error {
	for time.Now().Before(deadline) {
		select {
		case <-p.done:
			return errExited
		case <-time.After(100 * time.Millisecond):
		}
		if healthy(addr) {
			p.healthy.Store(true)
			return nil
		}
	}
	p.kill()
	return fmt.Errorf("no healthy answer from %s within %s", addr, startTimeout)
}

var healthClient = &http.Client{Timeout: time.Second}

func healthy(addr string) bool {
	resp, err := healthClient.Get("http://" + addr + "/sortkey/health")
	if err != nil {
		return false
	}
	resp.Body.Close()
	return resp.StatusCode == http.StatusOK
}

// NewClient is a DynamoDB client for the endpoint url: static
// credentials, one attempt per call (the test sees every failure), and a
// 10 s bound on each call, so that a node that hangs shows as a failure.
func NewClient(url string) *dynamodb.Client {
	transport := http.DefaultTransport.(*http.Transport).Clone()
	transport.MaxIdleConnsPerHost = 128 // one per concurrent client, not Go's default of 2
	cfg := aws.Config{Region: "us-east-1", BaseEndpoint: aws.String(url),
		Credentials: credentials.NewStaticCredentialsProvider("clustertest", "clustertest", ""),
		HTTPClient:  &http.Client{Timeout: 10 * time.Second, Transport: transport}}
	return dynamodb.NewFromConfig(cfg, func(o *dynamodb.Options) { o.RetryMaxAttempts = 1 })
}

// freeAddr is a loopback address with a port nothing listens on now.
func freeAddr() string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		panic(err) // no loopback port at all: nothing here can run
	}
	defer ln.Close()
	return ln.Addr().String()
}

func sep(url string) string {
	if strings.Contains(url, "?") {
		return "&"
	}
	return "?"
}

func randomHex() string {
	var b [6]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// tail is the last n lines of the file at path.
func tail(path string, n int) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return fmt.Sprintf("(%v)", err)
	}
	lines := bytes.Split(bytes.TrimRight(b, "\n"), []byte("\n"))
	return string(bytes.Join(lines[max(0, len(lines)-n):], []byte("\n")))
}

// The binary, built once per test process by Binary.
var build struct {
	once sync.Once
	dir  string // removed by RemoveBinary
	path string
	err  error
}

// Binary builds cmd/sortkey, once per test process, and returns its path.
func Binary(tb testing.TB) string {
	tb.Helper()
	build.once.Do(func() { build.path, build.err = buildBinary() })
	if build.err != nil {
		tb.Fatalf("clustertest: building sortkey: %v", build.err)
	}
	return build.path
}

func buildBinary() (string, error) {
	root, err := moduleRoot()
	if err != nil {
		return "", err
	}
	if build.dir, err = os.MkdirTemp("", "sortkey-clustertest-"); err != nil {
		return "", err
	}
	path := filepath.Join(build.dir, "sortkey")
	cmd := exec.Command("go", "build", "-o", path, "./cmd/sortkey")
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("%w: %s", err, out)
	}
	return path, nil
}

// RemoveBinary removes what Binary built; a TestMain calls it after m.Run.
func RemoveBinary() {
	if build.dir != "" {
		os.RemoveAll(build.dir)
	}
}

// moduleRoot is the folder of the go.mod that the test runs under.
func moduleRoot() (string, error) {
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		return "", fmt.Errorf("go env GOMOD: %w", err)
	}
	gomod := strings.TrimSpace(string(out))
	if gomod == "" || gomod == os.DevNull {
		return "", errors.New("go env GOMOD: not inside a module")
	}
	return filepath.Dir(gomod), nil
}

// Postgres starts a PostgreSQL of the test's own with
// scripts/pg-throwaway.sh, for a test that restarts the database (see
// RestartPostgres); it is stopped and removed when the test ends.
func Postgres(tb testing.TB) (url, dir string) {
	tb.Helper()
	out, err := throwaway("start")
	if err != nil {
		tb.Fatalf("clustertest: starting a PostgreSQL: %v", err)
	}
	for _, field := range strings.Fields(string(out)) {
		if v, ok := strings.CutPrefix(field, "SORTKEY_PG_URL="); ok {
			url = v
		} else if v, ok := strings.CutPrefix(field, "SORTKEY_PG_DIR="); ok {
			dir = v
		}
	}
	if url == "" || dir == "" {
		tb.Fatalf("clustertest: scripts/pg-throwaway.sh start printed %q", out)
	}
	tb.Cleanup(func() { _, _ = throwaway("stop", dir) })
	return url, dir
}

// RestartPostgres restarts the PostgreSQL that Postgres started in dir.
func RestartPostgres(dir string) error {
	_, err := throwaway("restart", dir)
	return err
}

func throwaway(args ...string) ([]byte, error) {
	root, err := moduleRoot()
	if err != nil {
		return nil, err
	}
	cmd := exec.Command("bash", append([]string{"scripts/pg-throwaway.sh"}, args...)...)
	cmd.Dir = root
	out, err := cmd.Output()
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		err = fmt.Errorf("scripts/pg-throwaway.sh %s: %w: %s", args[0], err, exit.Stderr)
	}
	return out, err
}

// Outcome is what a failed call says about its write's effect.
type Outcome int

const (
	// OK: the call succeeded.
	OK Outcome = iota
	// False: a definite no because a condition was false
	// (ConditionalCheckFailedException, or a transaction canceled with
	// ConditionalCheckFailed and no conflict among its reasons).
	False
	// NoEffect: a definite no for a reason that says nothing of the data:
	// a conflict, throttling, any other 4xx.
	NoEffect
	// Unknown: the write may or may not have happened: a 5xx, a timeout,
	// a connection lost mid-call (the node may have died after committing).
	Unknown
	// NotSent: the request never reached a node (connection refused).
	NotSent
)

// Classify is err's Outcome and a label to count it under: the error
// code of a server's answer; "refused", "invalid parameters" (the SDK's
// own check) or "network" otherwise.
func Classify(err error) (Outcome, string) {
	if err == nil {
		return OK, ""
	}
	if out, label, ok := notSent(err); ok {
		return out, label
	}
	if canceled, ok := errors.AsType[*types.TransactionCanceledException](err); ok {
		return canceledOutcome(canceled), "TransactionCanceledException"
	}
	if _, ok := errors.AsType[*types.ConditionalCheckFailedException](err); ok {
		return False, "ConditionalCheckFailedException"
	}
	if re, ok := errors.AsType[*awshttp.ResponseError](err); ok && re.HTTPStatusCode() != 0 {
		return statusOutcome(re.HTTPStatusCode()), fmt.Sprintf("%d %s", re.HTTPStatusCode(), errorCode(err))
	}
	return Unknown, "network"
}

// notSent recognizes the errors of requests that never left the client.
func notSent(err error) (Outcome, string, bool) {
	if op, ok := errors.AsType[*net.OpError](err); ok && op.Op == "dial" {
		return NotSent, "refused", true
	}
	if _, ok := errors.AsType[smithy.InvalidParamsError](err); ok {
		return NotSent, "invalid parameters", true
	}
	return 0, "", false
}

// canceledOutcome is False when a condition failed and nothing conflicted:
// a conflict cancels the transaction whatever its conditions said.
func canceledOutcome(e *types.TransactionCanceledException) Outcome {
	codes := map[string]bool{}
	for _, r := range e.CancellationReasons {
		codes[aws.ToString(r.Code)] = true
	}
	if codes["ConditionalCheckFailed"] && !codes["TransactionConflict"] {
		return False
	}
	return NoEffect
}

// statusOutcome: a 4xx refused the call; anything else (a 5xx, or a 200
// whose body was cut off) may have followed a commit.
func statusOutcome(status int) Outcome {
	if status >= 400 && status < 500 {
		return NoEffect
	}
	return Unknown
}

func errorCode(err error) string {
	if ae, ok := errors.AsType[smithy.APIError](err); ok {
		return ae.ErrorCode()
	}
	return "?"
}
