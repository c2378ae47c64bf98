package clustertest_test

import (
	"context"
	"errors"
	"flag"
	"math/rand/v2"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/sortkeydb/sortkey/internal/clustertest"
)

var hotDuration = flag.Duration("cluster.hotkeys", 15*time.Second, "how long TestHotKeys's clients increment, e.g. 60s")

// The workload: hotClients clients increment hotKeys counters of hotTable.
const (
	hotClients = 64
	hotKeys    = 4
	hotTable   = "hot"
)

// tally counts one counter's increments by outcome.
type tally struct {
	acked   atomic.Int64 // answered 200: each must be in the final value
	unknown atomic.Int64 // 5xx, timeouts, lost connections: each may be
	lost    atomic.Int64 // the condition was false: another client got there first
}

// TestHotKeys has 64 clients increment 4 counters through 3 nodes, each
// increment a consistent read and a conditional SET (n = :cur + 1 if n =
// :cur), while one node is killed and restarted: no acknowledged
// increment may be lost, none applied twice, and increments whose outcome
// the client could not know may count or not.
func TestHotKeys(t *testing.T) {
	c := clustertest.Start(t, testStore(t), clustertest.Options{Nodes: *nodeCount})
	createTable(t, c, hotTable)
	for key := range hotKeys {
		if _, err := c.Client(0).PutItem(context.Background(), &dynamodb.PutItemInput{TableName: aws.String(hotTable), Item: counter(key, 0)}); err != nil {
			t.Fatal(err)
		}
	}
	var tallies [hotKeys]tally
	labels := incrementWhileKilling(t, c, &tallies)
	t.Logf("%d clients on %d nodes for %s; failures: %v", hotClients, c.Len(), *hotDuration, labels)
	checkUnexpected(t, labels)
	checkCounters(t, c, &tallies)
}

// incrementWhileKilling runs the clients for -cluster.hotkeys, killing a
// node a third of the way through and restarting it 2 s later; it returns
// the failed calls by Classify's label.
func incrementWhileKilling(t *testing.T, c *clustertest.Cluster, tallies *[hotKeys]tally) map[string]int {
	var stop atomic.Bool
	var mu sync.Mutex
	labels := map[string]int{}
	var wg sync.WaitGroup
	for i := range hotClients {
		wg.Go(func() {
			fail := incrementUntil(c, i, &stop, tallies)
			mu.Lock()
			defer mu.Unlock()
			for label, n := range fail {
				labels[label] += n
			}
		})
	}
	err := killOnce(t, c, *hotDuration)
	stop.Store(true)
	wg.Wait()
	if err != nil {
		t.Fatal(err)
	}
	return labels
}

// killOnce kills a node at d/3, restarts it 2 s later and returns at d.
func killOnce(t *testing.T, c *clustertest.Cluster, d time.Duration) error {
	end := time.Now().Add(d)
	time.Sleep(d / 3)
	i := victim(c)
	if i < 0 {
		return errors.New("no node to kill: the others are down")
	}
	if err := c.Kill(i); err != nil {
		return err
	}
	t.Logf("killed node %d at %s", i, (d / 3).Round(time.Second))
	time.Sleep(2 * time.Second)
	if err := c.Restart(i); err != nil {
		return err
	}
	time.Sleep(time.Until(end))
	return nil
}

// incrementUntil is client i's loop: its calls go to node i mod N while
// that node lives, and to a random live node while it does not.
func incrementUntil(c *clustertest.Cluster, i int, stop *atomic.Bool, tallies *[hotKeys]tally) map[string]int {
	rng := rand.New(rand.NewPCG(uint64(i), uint64(time.Now().UnixNano())))
	fail := map[string]int{}
	for !stop.Load() {
		db := c.Client(i % c.Len())
		if !c.Alive(i % c.Len()) {
			db = pick(c, rng)
		}
		if db == nil {
			time.Sleep(20 * time.Millisecond)
			continue
		}
		key := rng.IntN(hotKeys)
		if label := increment(db, key, &tallies[key]); label != "" {
			fail[label]++
		}
	}
	return fail
}

// increment reads key's counter and sets it one higher on the condition
// that it is still what was read; it counts the outcome in t and returns
// the label of a failure.
func increment(db *dynamodb.Client, key int, t *tally) string {
	ctx := context.Background()
	cur, err := readCounter(ctx, db, key)
	if err == nil {
		_, err = db.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String(hotTable), Key: keyAV(hotKey(key)),
			UpdateExpression: aws.String("SET n = :next"), ConditionExpression: aws.String("n = :cur"),
			ExpressionAttributeValues: map[string]types.AttributeValue{":cur": number(cur), ":next": number(cur + 1)}})
		t.count(clustertest.Classify(err))
	}
	if _, label := clustertest.Classify(err); label != "" && label != "ConditionalCheckFailedException" {
		time.Sleep(10 * time.Millisecond) // a node going down: give it a moment
		return label
	}
	return ""
}

// count counts an increment's outcome.
func (t *tally) count(out clustertest.Outcome, _ string) {
	switch out {
	case clustertest.OK:
		t.acked.Add(1)
	case clustertest.Unknown:
		t.unknown.Add(1)
	case clustertest.False:
		t.lost.Add(1)
	}
}

func readCounter(ctx context.Context, db *dynamodb.Client, key int) (int64, error) {
	out, err := db.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(hotTable), Key: keyAV(hotKey(key)), ConsistentRead: aws.Bool(true)})
	if err != nil {
		return 0, err
	}
	n, ok := out.Item["n"].(*types.AttributeValueMemberN)
	if !ok {
		return 0, errNoCounter
	}
	return strconv.ParseInt(n.Value, 10, 64)
}

var errNoCounter = errors.New("the counter's item or its n is missing")

// checkCounters reads each counter through every live node: they must
// agree, and count every acknowledged increment and at most the unknown
// ones besides.
func checkCounters(t *testing.T, c *clustertest.Cluster, tallies *[hotKeys]tally) {
	t.Helper()
	for key := range hotKeys {
		tl := &tallies[key]
		acked, unknown := tl.acked.Load(), tl.unknown.Load()
		final := readEverywhere(t, c, key)
		t.Logf("key%d: %d acknowledged, %d unknown, %d lost to another client's increment; final %d", key, acked, unknown, tl.lost.Load(), final)
		if final < acked || final > acked+unknown {
			t.Errorf("key%d is %d, want between %d acknowledged and %d (with every unknown outcome)", key, final, acked, acked+unknown)
		}
	}
}

// readEverywhere is key's counter, the same through every live node.
func readEverywhere(t *testing.T, c *clustertest.Cluster, key int) int64 {
	t.Helper()
	var first int64 = -1
	for i := range c.Len() {
		if !c.Alive(i) {
			continue
		}
		n, err := readCounter(context.Background(), c.Client(i), key)
		if err != nil {
			t.Fatalf("reading key%d through node %d: %v", key, i, err)
		}
		if first >= 0 && n != first {
			t.Errorf("key%d is %d through node %d, %d through an earlier node", key, n, i, first)
		}
		first = max(first, n)
	}
	return first
}

func counter(key, n int) map[string]types.AttributeValue {
	it := keyAV(hotKey(key))
	it["n"] = number(int64(n))
	return it
}

func hotKey(key int) string { return "key" + strconv.Itoa(key) }

func number(n int64) *types.AttributeValueMemberN {
	return &types.AttributeValueMemberN{Value: strconv.FormatInt(n, 10)}
}
