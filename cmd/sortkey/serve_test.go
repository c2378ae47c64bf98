package main

// Tests of `sortkey serve` against slow, idle and stuck clients, on a real
// server process (startServe). Every wait is bounded by connBound only so
// that a server that never closes a connection or never exits fails the
// test instead of hanging it; none is a performance limit.

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

const connBound = 30 * time.Second

func TestServeDefaultsMatchREADMEForConnections(t *testing.T) {
	f, err := parseServe(nil, &bytes.Buffer{})
	if err != nil || f.readTimeout != 60*time.Second || f.writeTimeout != 120*time.Second || f.idleTimeout != 120*time.Second ||
		f.maxHeaderBytes != 64<<10 || f.maxConnections != 4096 || f.drainTimeout != 10*time.Second {
		t.Fatalf("defaults %+v (%v)", f, err)
	}
}

func TestServeRefusesLimitsThatMeanNoLimit(t *testing.T) {
	for _, args := range [][]string{{"--read-timeout", "0"}, {"--write-timeout", "0"}, {"--idle-timeout", "0"}, {"--max-connections", "0"}, {"--max-header-bytes", "0"}, {"--drain-timeout", "-1s"}} {
		var errb bytes.Buffer
		if code := serve(append([]string{"--in-memory"}, args...), io.Discard, &errb); code != 2 || !strings.Contains(errb.String(), args[0]) {
			t.Errorf("%v: exit %d, stderr %q", args, code, errb.String())
		}
	}
}

// A client that sends its headers and then its body a byte at a time is cut
// off by --read-timeout although every byte arrives quickly, and its write
// is not applied.
func TestSlowBodyIsCutOff(t *testing.T) {
	ctx := testContext(t)
	c := startServe(ctx, t, "--in-memory", "--read-timeout", "1s")
	createTable(ctx, t, c.client, "slow")
	conn := dial(t, c)
	body := `{"TableName":"slow","Item":{"pk":{"S":"slowloris"}}}`
	fmt.Fprint(conn, putHeaders(len(body), false))
	start := time.Now()
	go dribble(conn, body, 150*time.Millisecond)
	resp, err := awaitClose(conn)
	elapsed := time.Since(start)
	if resp != nil && (resp.StatusCode != 400 || !strings.Contains(resp.body, "SerializationException")) {
		t.Fatalf("slow body answered %d %s", resp.StatusCode, resp.body)
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("byte-at-a-time client (a byte every 150 ms) cut off %v after its headers with --read-timeout 1s; answer: %s", elapsed.Round(10*time.Millisecond), resp)
	if item := getItem(ctx, t, c.client, "slow", "slowloris"); item != nil {
		t.Fatalf("the slow request was applied: %v", item)
	}
	c.stop(t)
}

// A keep-alive connection left idle is closed after --idle-timeout.
func TestIdleConnectionIsClosed(t *testing.T) {
	ctx := testContext(t)
	c := startServe(ctx, t, "--in-memory", "--idle-timeout", "1s")
	conn := dial(t, c)
	if got := health(t, conn); got != 200 {
		t.Fatalf("GET /: %d", got)
	}
	start := time.Now()
	if _, err := awaitClose(conn); err != nil {
		t.Fatal(err)
	}
	t.Logf("idle keep-alive connection closed %v after its answer with --idle-timeout 1s", time.Since(start).Round(10*time.Millisecond))
	c.stop(t)
}

// A client stuck in the middle of its body does not hold up SIGTERM past
// --drain-timeout: the server exits 0 with its storage closed, and the
// storage opens again with the writes acknowledged before.
func TestStopWithStuckClient(t *testing.T) {
	ctx := testContext(t)
	dir := t.TempDir()
	c := startServe(ctx, t, "--data-dir", dir, "--drain-timeout", "1s")
	createTable(ctx, t, c.client, "stuck")
	putItem(ctx, t, c.client, "stuck", "acknowledged")
	stuck(t, c, "stuck")
	start := time.Now()
	sigterm(t, c)
	awaitExit(t, c, "drain timeout passed")
	t.Logf("with a stuck client, SIGTERM to exit 0: %v (--drain-timeout 1s)", time.Since(start).Round(10*time.Millisecond))
	reopen(ctx, t, dir, "stuck")
}

// A second signal stops the server at once, storage closed, though a
// request is in flight and the drain timeout is far off.
func TestSecondSignalForcesExit(t *testing.T) {
	ctx := testContext(t)
	dir := t.TempDir()
	c := startServe(ctx, t, "--data-dir", dir, "--drain-timeout", "10m")
	createTable(ctx, t, c.client, "forced")
	putItem(ctx, t, c.client, "forced", "acknowledged")
	stuck(t, c, "forced")
	sigterm(t, c)
	awaitLog(t, c, "shutting down")
	select {
	case <-c.exited:
		t.Fatalf("exited on the first signal with a request in flight and a 10m drain:\n%s", c.logs)
	default:
	}
	start := time.Now()
	sigterm(t, c)
	awaitExit(t, c, "second signal")
	t.Logf("second SIGTERM to exit 0: %v", time.Since(start).Round(10*time.Millisecond))
	reopen(ctx, t, dir, "forced")
}

// With --max-connections 1, a second connection is not served while the
// first is open, and is served once it closes.
func TestMaxConnections(t *testing.T) {
	ctx := testContext(t)
	c := startServe(ctx, t, "--in-memory", "--max-connections", "1")
	c.conns.CloseIdleConnections() // the start-up check's connection held the one slot
	first := dial(t, c)
	if got := health(t, first); got != 200 {
		t.Fatalf("first connection: GET / %d", got)
	}
	second := dial(t, c)
	fmt.Fprint(second, "GET / HTTP/1.1\r\nHost: sortkey\r\n\r\n")
	_ = second.SetReadDeadline(time.Now().Add(500 * time.Millisecond))
	if n, err := second.Read(make([]byte, 1)); !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatalf("second connection answered while the first was open: %d bytes, %v", n, err)
	}
	first.Close()
	if got := health(t, second); got != 200 {
		t.Fatalf("second connection, after the first closed: GET / %d", got)
	}
	c.stop(t)
}

// Headers past --max-header-bytes (and net/http's 4 KiB of slack) are
// refused with 431.
func TestHeadersOverCapRefused(t *testing.T) {
	ctx := testContext(t)
	c := startServe(ctx, t, "--in-memory", "--max-header-bytes", "1024")
	conn := dial(t, c)
	fmt.Fprintf(conn, "GET / HTTP/1.1\r\nHost: sortkey\r\nX-Big: %s\r\n\r\n", strings.Repeat("x", 8<<10))
	resp, err := awaitClose(conn)
	if err != nil || resp == nil || resp.StatusCode != http.StatusRequestHeaderFieldsTooLarge {
		t.Fatalf("8 KiB header with --max-header-bytes 1024: %s, %v", resp, err)
	}
	if got := health(t, dial(t, c)); got != 200 {
		t.Fatalf("GET / with small headers: %d", got)
	}
	c.stop(t)
}

func testContext(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	return ctx
}

func dial(t *testing.T, c *child) net.Conn {
	t.Helper()
	conn, err := net.Dial("tcp", strings.TrimPrefix(c.url, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	return conn
}

func putHeaders(n int, expectContinue bool) string {
	h := "POST / HTTP/1.1\r\nHost: sortkey\r\nContent-Type: application/x-amz-json-1.0\r\n" +
		"X-Amz-Target: DynamoDB_20120810.PutItem\r\nContent-Length: " + fmt.Sprint(n) + "\r\n"
	if expectContinue {
		h += "Expect: 100-continue\r\n"
	}
	return h + "\r\n"
}

// dribble writes body a byte every interval until it is sent or a write
// fails.
func dribble(conn net.Conn, body string, interval time.Duration) {
	for i := range len(body) {
		time.Sleep(interval)
		if _, err := conn.Write([]byte{body[i]}); err != nil {
			return
		}
	}
}

type response struct {
	*http.Response
	body string
}

func (r *response) String() string {
	if r == nil {
		return "none (connection closed)"
	}
	return fmt.Sprintf("%d %s", r.StatusCode, r.body)
}

// awaitClose reads conn until the server closes it, and returns the answer
// it read first, if any. It fails if the server has not closed it within
// connBound.
func awaitClose(conn net.Conn) (*response, error) {
	_ = conn.SetReadDeadline(time.Now().Add(connBound))
	br := bufio.NewReader(conn)
	var resp *response
	if r, err := http.ReadResponse(br, nil); err == nil {
		b, _ := io.ReadAll(r.Body)
		resp = &response{r, string(b)}
	}
	_, err := io.Copy(io.Discard, br)
	if errors.Is(err, os.ErrDeadlineExceeded) {
		return resp, fmt.Errorf("the server did not close the connection within %v", connBound)
	}
	return resp, nil
}

func health(t *testing.T, conn net.Conn) int {
	t.Helper()
	_ = conn.SetDeadline(time.Now().Add(connBound))
	fmt.Fprint(conn, "GET / HTTP/1.1\r\nHost: sortkey\r\n\r\n")
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("GET /: %v", err)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	return resp.StatusCode
}

// stuck opens a connection whose PutItem handler is running, reading a body
// that never finishes: the server has answered 100 Continue, which it does
// only once the handler reads the body.
func stuck(t *testing.T, c *child, table string) {
	t.Helper()
	conn := dial(t, c)
	body := `{"TableName":"` + table + `","Item":{"pk":{"S":"stuck"}}}`
	fmt.Fprint(conn, putHeaders(len(body), true))
	_ = conn.SetReadDeadline(time.Now().Add(connBound))
	line, err := bufio.NewReader(conn).ReadString('\n')
	if err != nil || !strings.HasPrefix(line, "HTTP/1.1 100") {
		t.Fatalf("want 100 Continue, got %q, %v", line, err)
	}
	fmt.Fprint(conn, body[:len(body)/2])
}

func sigterm(t *testing.T, c *child) {
	t.Helper()
	if err := c.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
}

func awaitLog(t *testing.T, c *child, s string) {
	t.Helper()
	for deadline := time.Now().Add(connBound); !strings.Contains(c.logs.String(), s); {
		if time.Now().After(deadline) {
			t.Fatalf("no %q in the server log after %v:\n%s", s, connBound, c.logs)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// awaitExit waits for the server to exit 0, having logged want and closed
// its storage.
func awaitExit(t *testing.T, c *child, want string) {
	t.Helper()
	select {
	case <-c.exited:
	case <-time.After(connBound):
		t.Fatalf("still running %v after SIGTERM:\n%s", connBound, c.logs)
	}
	logs := c.logs.String()
	if c.waitErr != nil || !strings.Contains(logs, want) || !strings.Contains(logs, "storage closed") {
		t.Fatalf("exit: %v; want a log of %q and \"storage closed\":\n%s", c.waitErr, want, logs)
	}
	c.checkLog(t)
}

// reopen starts the server again on dir and checks that the acknowledged
// item of table is there and the stuck one is not.
func reopen(ctx context.Context, t *testing.T, dir, table string) {
	t.Helper()
	c := startServe(ctx, t, "--data-dir", dir)
	if getItem(ctx, t, c.reader, table, "acknowledged") == nil {
		t.Fatalf("acknowledged item missing after restart")
	}
	if item := getItem(ctx, t, c.reader, table, "stuck"); item != nil {
		t.Fatalf("the stuck request was applied: %v", item)
	}
	c.stop(t)
}

func createTable(ctx context.Context, t *testing.T, c *dynamodb.Client, name string) {
	t.Helper()
	_, err := c.CreateTable(ctx, &dynamodb.CreateTableInput{
		TableName:            aws.String(name),
		BillingMode:          types.BillingModePayPerRequest,
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash}},
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS}},
	})
	if err != nil {
		t.Fatalf("CreateTable %s: %v", name, err)
	}
}

func putItem(ctx context.Context, t *testing.T, c *dynamodb.Client, table, key string) {
	t.Helper()
	_, err := c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(table), Item: map[string]types.AttributeValue{"pk": str(key)}})
	if err != nil {
		t.Fatalf("PutItem %s: %v", key, err)
	}
}

func getItem(ctx context.Context, t *testing.T, c *dynamodb.Client, table, key string) map[string]types.AttributeValue {
	t.Helper()
	out, err := c.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(table), Key: map[string]types.AttributeValue{"pk": str(key)}, ConsistentRead: aws.Bool(true)})
	if err != nil {
		t.Fatalf("GetItem %s: %v", key, err)
	}
	return out.Item
}
