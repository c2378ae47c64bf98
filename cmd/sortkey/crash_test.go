package main

// The crash test runs `sortkey serve` on disk as a child process, writes to
// it from many goroutines, kills it with SIGKILL at a random moment, restarts
// it on the same directory and checks what a user relies on: every
// acknowledged write is there, no transaction is partly there, and the item
// counts DescribeTable reports match the items. It repeats that several
// times on one directory, so later rounds also recover storage that was
// itself recovered from a crash.
//
// The child is this test binary: TestMain runs `serve` instead of the tests
// when childArgsEnv is set, so no separate build is needed.

import (
	"bytes"
	"context"
	"fmt"
	"maps"
	"math/rand/v2"
	"net/http"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// childArgsEnv, when set, makes this test binary run `sortkey serve` on
// 127.0.0.1 (a port the kernel picks) with the flags it holds, one a line,
// instead of running tests.
const childArgsEnv = "SORTKEY_SERVE_CHILD_ARGS"

// crashSeedEnv replays a run: set it to the seed a failed run logged.
const crashSeedEnv = "SORTKEY_CRASH_SEED"

func TestMain(m *testing.M) {
	if args := os.Getenv(childArgsEnv); args != "" {
		os.Exit(run(append([]string{"serve", "--addr", "127.0.0.1:0"}, strings.Split(args, "\n")...), os.Stdout, os.Stderr))
	}
	if args, ok := os.LookupEnv(mcpChildEnv); ok {
		os.Exit(run(append([]string{"mcp"}, strings.Fields(args)...), os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

const (
	crashKills   = 5   // SIGKILLs per run; the server is started crashKills+1 times
	crashWriters = 8   // concurrent writers: even ones PutItem, odd ones TransactWriteItems
	minKillDelay = 200 // ms of writing before a kill, at least
	maxKillDelay = 1200

	putsTable = "crash_puts" // pk: one item per PutItem
	txTableA  = "crash_tx_a" // grp, id: two items of each transaction
	txTableB  = "crash_tx_b" // id: one item of each transaction
)

func TestAcknowledgedWritesSurviveSIGKILL(t *testing.T) {
	seed := uint64(time.Now().UnixNano())
	if s := os.Getenv(crashSeedEnv); s != "" {
		var err error
		if seed, err = strconv.ParseUint(s, 10, 64); err != nil {
			t.Fatalf("%s=%q: %v", crashSeedEnv, s, err)
		}
	}
	t.Logf("seed %d (replay with %s=%d)", seed, crashSeedEnv, seed)
	rng := rand.New(rand.NewPCG(seed, seed^0x5eed))
	// Bounds a hung child or request only; it is not a performance limit.
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()

	dir := t.TempDir()
	led := newLedger()
	began := time.Now()
	for round := 0; ; round++ {
		t0 := time.Now()
		srv := startChild(ctx, t, dir)
		t1 := time.Now()
		if round == 0 {
			createCrashTables(ctx, t, srv.client)
		} else {
			led.verify(ctx, t, srv.reader, round)
		}
		t2 := time.Now()
		if round == crashKills {
			srv.stop(t)
			t.Logf("restart %d: up in %v, verified in %v, stopped with SIGTERM in %v", round, t1.Sub(t0).Round(time.Millisecond), t2.Sub(t1).Round(time.Millisecond), time.Since(t2).Round(time.Millisecond))
			break
		}
		delay := time.Duration(minKillDelay+rng.IntN(maxKillDelay-minKillDelay+1)) * time.Millisecond
		puts, txs := drive(ctx, t, srv, led, round, delay)
		t.Logf("round %d: up in %v, tables created or contents verified in %v, SIGKILL after %v of writing (drawn: %v), %d puts and %d transactions acknowledged",
			round+1, t1.Sub(t0).Round(time.Millisecond), t2.Sub(t1).Round(time.Millisecond), time.Since(t2).Round(time.Millisecond), delay, puts, txs)
	}
	t.Logf("%d kills, %d puts and %d transactions acknowledged in all, %v", crashKills, led.ackedPuts(), led.ackedTxs(), time.Since(began).Round(time.Millisecond))
}

// drive writes from crashWriters goroutines until delay has passed (and at
// least one put and one transaction are acknowledged), kills the server with
// SIGKILL while they are still writing, and returns how many puts and
// transactions the server acknowledged.
func drive(ctx context.Context, t *testing.T, srv *child, led *ledger, round int, delay time.Duration) (puts, txs int) {
	t.Helper()
	var killing atomic.Bool
	var wg sync.WaitGroup
	errs := make(chan error, crashWriters)
	for w := range crashWriters {
		wg.Go(func() {
			for seq := 0; !killing.Load(); seq++ {
				var err error
				if w%2 == 0 {
					err = putOne(ctx, srv.client, led, fmt.Sprintf("p%d-%d-%d", round, w, seq))
				} else {
					err = transactOne(ctx, srv.client, led, fmt.Sprintf("t%d-%d-%d", round, w, seq), fmt.Sprintf("g%d", w))
				}
				if err != nil {
					// killing is set before the kill, so an error seen
					// while it is unset came from a live server.
					if !killing.Load() {
						errs <- fmt.Errorf("writer %d, before the kill: %w", w, err)
					}
					return
				}
			}
		})
	}
	kill := func() {
		killing.Store(true)
		srv.kill()
		wg.Wait()
	}
	// Kill after delay, or later if by then the server has not yet
	// acknowledged a put and a transaction of this round.
	timer := time.After(delay)
	for waited := false; ; {
		select {
		case <-timer:
			waited = true
		case <-time.After(5 * time.Millisecond):
		case err := <-errs:
			kill()
			t.Fatalf("%v\nserver log:\n%s", err, srv.logs)
		case <-ctx.Done():
			kill()
			t.Fatalf("round %d: no put and transaction acknowledged: %v\nserver log:\n%s", round+1, ctx.Err(), srv.logs)
		}
		if p, x := led.roundAcks(round); waited && p > 0 && x > 0 {
			break
		}
	}
	kill()
	close(errs)
	for err := range errs {
		t.Fatalf("%v\nserver log:\n%s", err, srv.logs)
	}
	srv.checkLog(t)
	return led.roundAcks(round)
}

func putOne(ctx context.Context, c *dynamodb.Client, led *ledger, key string) error {
	led.attemptPut(key)
	_, err := c.PutItem(ctx, &dynamodb.PutItemInput{
		TableName: aws.String(putsTable),
		Item:      map[string]types.AttributeValue{"pk": str(key), "v": str(putValue(key))},
	})
	if err == nil {
		led.ackPut(key)
	}
	return err
}

func putValue(key string) string { return "value of " + key }

// transactOne puts three items of transaction id across two tables in one
// TransactWriteItems: (grp, id#1) and (grp, id#2) in txTableA, id in
// txTableB, each with tx = id.
func transactOne(ctx context.Context, c *dynamodb.Client, led *ledger, id, grp string) error {
	led.attemptTx(id)
	put := func(table string, item map[string]types.AttributeValue) types.TransactWriteItem {
		item["tx"], item["grp"] = str(id), str(grp)
		return types.TransactWriteItem{Put: &types.Put{TableName: aws.String(table), Item: item}}
	}
	_, err := c.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{
		TransactItems: []types.TransactWriteItem{
			put(txTableA, map[string]types.AttributeValue{"id": str(id + "#1")}),
			put(txTableA, map[string]types.AttributeValue{"id": str(id + "#2")}),
			put(txTableB, map[string]types.AttributeValue{"id": str(id)}),
		},
	})
	if err == nil {
		led.ackTx(id)
	}
	return err
}

// ledger is what the writers attempted and what the server acknowledged,
// over all rounds.
type ledger struct {
	mu       sync.Mutex
	puts     map[string]bool // key -> acknowledged
	txs      map[string]bool // transaction id -> acknowledged
	newPuts  []string        // acknowledged in the latest round
	roundPut map[int]int
	roundTx  map[int]int
}

func newLedger() *ledger {
	return &ledger{puts: map[string]bool{}, txs: map[string]bool{}, roundPut: map[int]int{}, roundTx: map[int]int{}}
}

func (l *ledger) attemptPut(key string) { l.mu.Lock(); l.puts[key] = false; l.mu.Unlock() }
func (l *ledger) attemptTx(id string)   { l.mu.Lock(); l.txs[id] = false; l.mu.Unlock() }

func (l *ledger) ackPut(key string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.puts[key] = true
	l.newPuts = append(l.newPuts, key)
	l.roundPut[roundOf(key)]++
}

func (l *ledger) ackTx(id string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.txs[id] = true
	l.roundTx[roundOf(id)]++
}

func (l *ledger) roundAcks(round int) (puts, txs int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.roundPut[round], l.roundTx[round]
}

func (l *ledger) ackedPuts() (n int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, v := range l.roundPut {
		n += v
	}
	return n
}

func (l *ledger) ackedTxs() (n int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, v := range l.roundTx {
		n += v
	}
	return n
}

// roundOf reads the round out of a key "p<round>-…" or id "t<round>-…".
func roundOf(s string) int {
	n, _ := strconv.Atoi(s[1:strings.IndexByte(s, '-')])
	return n
}

// verify checks the restarted server against the ledger: the tables are
// there; every acknowledged put is there with its value (read back by Scan
// and, for the round just killed, by GetItem too); every item present was
// written by the test; each transaction is wholly present or wholly absent,
// and wholly present when acknowledged; DescribeTable's ItemCount equals the
// number of items a Scan returns.
func (l *ledger) verify(ctx context.Context, t *testing.T, c *dynamodb.Client, round int) {
	t.Helper()
	l.mu.Lock()
	defer l.mu.Unlock()
	lt, err := c.ListTables(ctx, &dynamodb.ListTablesInput{})
	if err != nil {
		t.Fatalf("ListTables after restart: %v", err)
	}
	for _, name := range []string{putsTable, txTableA, txTableB} {
		if !slices.Contains(lt.TableNames, name) {
			t.Fatalf("after restart %d table %s is gone: %v", round, name, lt.TableNames)
		}
	}

	items := map[string][]map[string]types.AttributeValue{}
	for _, table := range []string{putsTable, txTableA, txTableB} {
		items[table] = scanAll(ctx, t, c, table)
		d, err := c.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(table)})
		if err != nil {
			t.Fatalf("DescribeTable %s: %v", table, err)
		}
		if n := aws.ToInt64(d.Table.ItemCount); n != int64(len(items[table])) {
			t.Errorf("after restart %d DescribeTable(%s).ItemCount = %d, a Scan returns %d items", round, table, n, len(items[table]))
		}
	}

	checkIndexes(ctx, t, c, items, round)

	// Puts.
	present := map[string]bool{}
	for _, it := range items[putsTable] {
		key, v := strAttr(it, "pk"), strAttr(it, "v")
		if _, attempted := l.puts[key]; !attempted {
			t.Errorf("%s holds %q, which no writer wrote", putsTable, key)
		} else if v != putValue(key) {
			t.Errorf("%s item %q has v = %q, want %q", putsTable, key, v, putValue(key))
		}
		present[key] = true
	}
	lostPuts, inflightPut, inflightPutKept := 0, 0, 0
	for key, acked := range l.puts {
		switch {
		case acked && !present[key]:
			lostPuts++
			if lostPuts <= 10 {
				t.Errorf("acknowledged put %q is missing after restart %d", key, round)
			}
		case !acked:
			inflightPut++
			if present[key] {
				inflightPutKept++
			}
		}
	}
	if lostPuts > 0 {
		t.Errorf("%d of %d acknowledged puts are missing after restart %d", lostPuts, len(l.puts)-inflightPut, round)
	}
	l.getBack(ctx, t, c)

	// Transactions: group the items of both tables by tx.
	type txItems struct{ a1, a2, b int }
	groups := map[string]*txItems{}
	group := func(id string) *txItems {
		if groups[id] == nil {
			groups[id] = &txItems{}
		}
		return groups[id]
	}
	for _, table := range []string{txTableA, txTableB} {
		for _, it := range items[table] {
			id, key, grp := strAttr(it, "tx"), strAttr(it, "id"), strAttr(it, "grp")
			if _, attempted := l.txs[id]; !attempted {
				t.Errorf("%s holds %q with tx %q, of no transaction a writer sent", table, key, id)
				continue
			}
			if want := "g" + strings.Split(id, "-")[1]; grp != want {
				t.Errorf("%s item %q has grp %q, want %q", table, key, grp, want)
			}
			g := group(id)
			switch {
			case table == txTableA && key == id+"#1":
				g.a1++
			case table == txTableA && key == id+"#2":
				g.a2++
			case table == txTableB && key == id:
				g.b++
			default:
				t.Errorf("%s holds %q with tx %q", table, key, id)
			}
		}
	}
	partial, lostTxs, inflightTx, inflightTxKept := 0, 0, 0, 0
	for id, acked := range l.txs {
		g := groups[id]
		whole := g != nil && *g == txItems{1, 1, 1}
		if g != nil && !whole {
			partial++
			if partial <= 10 {
				t.Errorf("transaction %s is partial after restart %d: %s#1 %d, %s#2 %d, %s %d (of 1 each)", id, round, txTableA, g.a1, txTableA, g.a2, txTableB, g.b)
			}
		}
		switch {
		case acked && g == nil:
			lostTxs++
			if lostTxs <= 10 {
				t.Errorf("acknowledged transaction %s is missing after restart %d", id, round)
			}
		case !acked:
			inflightTx++
			if whole {
				inflightTxKept++
			}
		}
	}
	if partial+lostTxs > 0 {
		t.Errorf("after restart %d: %d partial transactions, %d of %d acknowledged transactions missing", round, partial, lostTxs, len(l.txs)-inflightTx)
	}
	if t.Failed() {
		t.FailNow()
	}
	t.Logf("restart %d: %d puts and %d transactions acknowledged so far all present; unacknowledged at a kill: %d of %d puts and %d of %d transactions present, the rest wholly absent",
		round, len(l.puts)-inflightPut, len(l.txs)-inflightTx, inflightPutKept, inflightPut, inflightTxKept, inflightTx)
}

// getBack reads each put acknowledged in the round just killed with a
// consistent GetItem, 8 at a time.
func (l *ledger) getBack(ctx context.Context, t *testing.T, c *dynamodb.Client) {
	t.Helper()
	keys := l.newPuts
	l.newPuts = nil
	var wg sync.WaitGroup
	var mu sync.Mutex
	var bad []string
	for w := range 8 {
		wg.Go(func() {
			for i := w; i < len(keys); i += 8 {
				out, err := c.GetItem(ctx, &dynamodb.GetItemInput{
					TableName:      aws.String(putsTable),
					Key:            map[string]types.AttributeValue{"pk": str(keys[i])},
					ConsistentRead: aws.Bool(true),
				})
				var msg string
				switch {
				case err != nil:
					msg = fmt.Sprintf("GetItem %q: %v", keys[i], err)
				case out.Item == nil:
					msg = fmt.Sprintf("GetItem %q: acknowledged put not found", keys[i])
				case strAttr(out.Item, "v") != putValue(keys[i]):
					msg = fmt.Sprintf("GetItem %q: v = %q", keys[i], strAttr(out.Item, "v"))
				default:
					continue
				}
				mu.Lock()
				bad = append(bad, msg)
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if len(bad) > 0 {
		t.Errorf("%d of %d puts acknowledged before the last kill read back wrong; first: %s", len(bad), len(keys), bad[0])
	}
}

func scanAll(ctx context.Context, t *testing.T, c *dynamodb.Client, table string) []map[string]types.AttributeValue {
	t.Helper()
	var items []map[string]types.AttributeValue
	p := dynamodb.NewScanPaginator(c, &dynamodb.ScanInput{TableName: aws.String(table), ConsistentRead: aws.Bool(true)})
	for p.HasMorePages() {
		page, err := p.NextPage(ctx)
		if err != nil {
			t.Fatalf("Scan %s: %v", table, err)
		}
		items = append(items, page.Items...)
	}
	return items
}

// crashIndexes are the tables' global secondary indexes, written in the
// same commit as their items, which must agree with them after every crash.
var crashIndexes = map[string]struct{ name, attr string }{
	putsTable: {"byValue", "v"},
	txTableA:  {"byTx", "tx"},
}

// checkIndexes compares each index with its table: the same items, whole
// (its projection is ALL), and DescribeTable's index ItemCount equal to
// what a Scan of the index returns.
func checkIndexes(ctx context.Context, t *testing.T, c *dynamodb.Client, items map[string][]map[string]types.AttributeValue, round int) {
	t.Helper()
	for table, ix := range crashIndexes {
		entries := scanIndex(ctx, t, c, table, ix.name)
		if got, want := itemSet(entries), itemSet(items[table]); !maps.Equal(got, want) {
			t.Errorf("after restart %d index %s of %s holds %d items, its table %d, and they differ", round, ix.name, table, len(got), len(want))
		}
		d, err := c.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(table)})
		if err != nil {
			t.Fatalf("DescribeTable %s: %v", table, err)
		}
		if n := aws.ToInt64(d.Table.GlobalSecondaryIndexes[0].ItemCount); n != int64(len(entries)) {
			t.Errorf("after restart %d index %s ItemCount = %d, a Scan of it returns %d", round, ix.name, n, len(entries))
		}
	}
}

func scanIndex(ctx context.Context, t *testing.T, c *dynamodb.Client, table, index string) []map[string]types.AttributeValue {
	t.Helper()
	var items []map[string]types.AttributeValue
	p := dynamodb.NewScanPaginator(c, &dynamodb.ScanInput{TableName: aws.String(table), IndexName: aws.String(index)})
	for p.HasMorePages() {
		page, err := p.NextPage(ctx)
		if err != nil {
			t.Fatalf("Scan %s.%s: %v", table, index, err)
		}
		items = append(items, page.Items...)
	}
	return items
}

// itemSet is items as a set of their string attributes, name=value sorted.
func itemSet(items []map[string]types.AttributeValue) map[string]bool {
	set := map[string]bool{}
	for _, it := range items {
		var parts []string
		for name := range it {
			parts = append(parts, name+"="+strAttr(it, name))
		}
		slices.Sort(parts)
		set[strings.Join(parts, ",")] = true
	}
	return set
}

func createCrashTables(ctx context.Context, t *testing.T, c *dynamodb.Client) {
	t.Helper()
	create := func(name string, keys ...string) {
		in := &dynamodb.CreateTableInput{TableName: aws.String(name), BillingMode: types.BillingModePayPerRequest}
		if ix, ok := crashIndexes[name]; ok {
			in.GlobalSecondaryIndexes = []types.GlobalSecondaryIndex{{IndexName: aws.String(ix.name),
				KeySchema:  []types.KeySchemaElement{{AttributeName: aws.String(ix.attr), KeyType: types.KeyTypeHash}},
				Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll}}}
			in.AttributeDefinitions = append(in.AttributeDefinitions, types.AttributeDefinition{AttributeName: aws.String(ix.attr), AttributeType: types.ScalarAttributeTypeS})
		}
		for i, k := range keys {
			kt := types.KeyTypeHash
			if i == 1 {
				kt = types.KeyTypeRange
			}
			in.KeySchema = append(in.KeySchema, types.KeySchemaElement{AttributeName: aws.String(k), KeyType: kt})
			in.AttributeDefinitions = append(in.AttributeDefinitions, types.AttributeDefinition{AttributeName: aws.String(k), AttributeType: types.ScalarAttributeTypeS})
		}
		if _, err := c.CreateTable(ctx, in); err != nil {
			t.Fatalf("CreateTable %s: %v", name, err)
		}
	}
	create(putsTable, "pk")
	create(txTableA, "grp", "id")
	create(txTableB, "id")
}

// child is a `sortkey serve` process on a data directory.
type child struct {
	cmd    *exec.Cmd
	url    string // http://127.0.0.1:port
	client *dynamodb.Client
	// reader is client with the SDK's standard retries, for the checks
	// after a restart: they only read, so a read that meets a transient
	// connection error may safely be sent again.
	reader  *dynamodb.Client
	conns   *http.Transport // client's
	logs    *lockedBuffer   // its stderr
	exited  chan struct{}
	waitErr error // valid once exited is closed
}

// startChild starts the server on dir and waits until it answers ListTables.
// It is killed when the test ends, if still running.
func startChild(ctx context.Context, t *testing.T, dir string) *child {
	t.Helper()
	return startServe(ctx, t, "--data-dir", dir)
}

// startServe is startChild with any flags of `sortkey serve`.
func startServe(ctx context.Context, t *testing.T, args ...string) *child {
	t.Helper()
	out := &addrWriter{addr: make(chan string, 1)}
	c := &child{cmd: exec.Command(os.Args[0], "-test.run=^$"), logs: &lockedBuffer{}, exited: make(chan struct{})}
	c.cmd.Env = append(os.Environ(), childArgsEnv+"="+strings.Join(args, "\n"))
	c.cmd.Stdout, c.cmd.Stderr = out, c.logs
	if err := c.cmd.Start(); err != nil {
		t.Fatalf("starting sortkey serve: %v", err)
	}
	go func() { c.waitErr = c.cmd.Wait(); close(c.exited) }()
	t.Cleanup(c.kill)

	select {
	case c.url = <-out.addr:
	case <-c.exited:
		t.Fatalf("sortkey serve exited before listening: %v\n%s", c.waitErr, c.logs)
	case <-ctx.Done():
		t.Fatalf("sortkey serve did not start: %v\n%s", ctx.Err(), c.logs)
	}
	c.conns = http.DefaultTransport.(*http.Transport).Clone()
	c.conns.MaxIdleConnsPerHost = crashWriters
	opts := dynamodb.Options{
		HTTPClient:   &http.Client{Transport: c.conns},
		Region:       "us-east-1",
		Credentials:  credentials.NewStaticCredentialsProvider("crash", "crash", ""),
		BaseEndpoint: aws.String(c.url),
	}
	c.reader = dynamodb.New(opts)
	// A write that fails at the kill must fail, not be retried.
	opts.Retryer = aws.NopRetryer{}
	c.client = dynamodb.New(opts)
	for {
		_, err := c.client.ListTables(ctx, &dynamodb.ListTablesInput{})
		if err == nil {
			return c
		}
		select {
		case <-c.exited:
			t.Fatalf("sortkey serve exited: %v\n%s", c.waitErr, c.logs)
		case <-ctx.Done():
			t.Fatalf("sortkey serve at %s does not answer: %v\n%s", c.url, err, c.logs)
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// kill sends SIGKILL, unless the process has exited, and waits for it.
func (c *child) kill() {
	select {
	case <-c.exited:
		return
	default:
	}
	_ = c.cmd.Process.Kill()
	<-c.exited
}

// stop asks the server to shut down with SIGTERM and checks that it exits
// cleanly, having closed its storage.
func (c *child) stop(t *testing.T) {
	t.Helper()
	// Without this, a connection the client dialed but never used would
	// hold up the server's graceful shutdown for 5 s (net/http treats a
	// new connection as idle only after that long).
	c.conns.CloseIdleConnections()
	if err := c.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	<-c.exited
	if c.waitErr != nil || !strings.Contains(c.logs.String(), "storage closed") {
		t.Fatalf("after SIGTERM: %v\n%s", c.waitErr, c.logs)
	}
	c.checkLog(t)
}

// checkLog fails the test if the server logged an error, or, built with
// -race, a data race.
func (c *child) checkLog(t *testing.T) {
	t.Helper()
	s := c.logs.String()
	if strings.Contains(s, "level=ERROR") || strings.Contains(s, "DATA RACE") || strings.Contains(s, "panic") {
		t.Fatalf("server log:\n%s", s)
	}
}

// addrWriter takes the server's stdout and reports the endpoint of its
// "sortkey listening on http://…" line.
type addrWriter struct {
	mu   sync.Mutex
	buf  bytes.Buffer
	addr chan string
	sent bool
}

func (w *addrWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf.Write(p)
	if !w.sent {
		for line := range strings.Lines(w.buf.String()) {
			if url, ok := strings.CutPrefix(line, "sortkey listening on "); ok && strings.HasSuffix(url, "\n") {
				w.addr <- strings.TrimSpace(url)
				w.sent = true
				break
			}
		}
	}
	return len(p), nil
}

type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

func str(s string) types.AttributeValue { return &types.AttributeValueMemberS{Value: s} }

func strAttr(item map[string]types.AttributeValue, name string) string {
	if v, ok := item[name].(*types.AttributeValueMemberS); ok {
		return v.Value
	}
	return ""
}
