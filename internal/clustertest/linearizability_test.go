package clustertest_test

import (
	"context"
	"flag"
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/anishathalye/porcupine"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/sortkeydb/sortkey/internal/clustertest"
	"github.com/sortkeydb/sortkey/internal/storage"
)

var (
	soak      = flag.Duration("cluster.soak", 20*time.Second, "how long TestLinearizable's workload runs, e.g. 5m for a soak")
	unlocked  = flag.Bool("cluster.unlocked", false, "run TestLinearizableUnlocked, which expects a violation from nodes without cross-node locks")
	nodeCount = flag.Int("cluster.nodes", 3, "nodes per cluster (1 runs the tests against a single node)")
)

// TestMain removes the binary the tests built once they have all run.
func TestMain(m *testing.M) {
	code := m.Run()
	clustertest.RemoveBinary()
	os.Exit(code)
}

// The workload: linClients clients over nKeys keys of table linTable,
// new keys every roundLength (see byRound).
const (
	linClients  = 10
	nKeys       = 4
	linTable    = "lin"
	roundLength = 2 * time.Second
)

// TestLinearizable checks with porcupine that GetItem (consistent),
// PutItem, conditional UpdateItem and two-key TransactWriteItems through
// any node of a cluster make a linearizable history, while nodes are
// killed and restarted.
func TestLinearizable(t *testing.T) {
	res := runLinearizability(t, nil)
	if res == porcupine.Illegal {
		t.Fatal("the history is not linearizable: see the visualization above")
	}
}

// TestLinearizableUnlocked runs the same workload on nodes that skip the
// cross-node checks, and expects porcupine to catch them: it shows that
// TestLinearizable can fail. Only with -cluster.unlocked: whether a
// violation happens within the run is a matter of chance, so it would
// make CI flaky.
func TestLinearizableUnlocked(t *testing.T) {
	if !*unlocked {
		t.Skip("expects a violation, which is likely but not certain: runs with -cluster.unlocked")
	}
	res := runLinearizability(t, []string{"SORTKEY_UNSAFE_NO_CROSS_NODE_LOCKS=1"})
	if res != porcupine.Illegal {
		t.Fatalf("porcupine answered %s for nodes without cross-node locks, want Illegal (a longer -cluster.soak makes a violation likelier)", res)
	}
}

// TestModel checks the checker, without PostgreSQL: histories that a
// correct cluster could give pass, and each kind of violation fails,
// before and after dropImpliedFalse.
func TestModel(t *testing.T) {
	const never = math.MaxInt64
	txn := porcupine.Operation{Call: 0, Return: 10, Input: kvInput{kind: opTxn, key: 0, key2: 1, value: "a", value2: "b"}, Output: kvOutput{outcome: clustertest.OK}}
	for _, c := range []struct {
		name string
		ops  []porcupine.Operation
		want porcupine.CheckResult
	}{
		{"read your write", []porcupine.Operation{putOp(0, 10, "a", clustertest.OK), getOp(20, 30, 0, "a")}, porcupine.Ok},
		{"stale read", []porcupine.Operation{putOp(0, 10, "a", clustertest.OK), getOp(20, 30, 0, "")}, porcupine.Illegal},
		{"condition false while true", []porcupine.Operation{putOp(0, 10, "a", clustertest.OK), updateOp(20, 30, "a", "b", clustertest.False)}, porcupine.Illegal},
		{"condition false after an overwrite", []porcupine.Operation{putOp(0, 10, "a", clustertest.OK), putOp(11, 15, "c", clustertest.OK), updateOp(20, 30, "a", "b", clustertest.False)}, porcupine.Ok},
		{"condition true while false", []porcupine.Operation{putOp(0, 10, "a", clustertest.OK), updateOp(20, 30, "", "b", clustertest.OK)}, porcupine.Illegal},
		{"unknown write seen late", []porcupine.Operation{putOp(0, never, "x", clustertest.Unknown), getOp(20, 30, 0, ""), getOp(40, 50, 0, "x")}, porcupine.Ok},
		{"unknown write undone", []porcupine.Operation{putOp(0, never, "x", clustertest.Unknown), getOp(20, 30, 0, "x"), getOp(40, 50, 0, "")}, porcupine.Illegal},
		{"half a transaction", []porcupine.Operation{txn, getOp(20, 30, 0, "a"), getOp(20, 30, 1, "")}, porcupine.Illegal},
	} {
		for _, ops := range [][]porcupine.Operation{c.ops, dropImpliedFalse(c.ops)} {
			if got := porcupine.CheckOperationsTimeout(kvModel, ops, time.Second); got != c.want {
				t.Errorf("%s (%d operations): %s, want %s", c.name, len(ops), got, c.want)
			}
		}
	}
}

// putOp, getOp and updateOp are calls for TestModel, on key 0 but for getOp.
func putOp(call, ret int64, value string, out clustertest.Outcome) porcupine.Operation {
	return porcupine.Operation{Call: call, Return: ret, Input: kvInput{kind: opPut, value: value}, Output: kvOutput{outcome: out}}
}

func getOp(call, ret int64, key int, value string) porcupine.Operation {
	return porcupine.Operation{Call: call, Return: ret, Input: kvInput{kind: opGet, key: key}, Output: kvOutput{value: value}}
}

func updateOp(call, ret int64, expect, value string, out clustertest.Outcome) porcupine.Operation {
	return porcupine.Operation{Call: call, Return: ret, Input: kvInput{kind: opUpdate, expect: expect, value: value}, Output: kvOutput{outcome: out}}
}

// testStore is the PostgreSQL database of the test switch, or a skip.
func testStore(t *testing.T) string {
	t.Helper()
	if !storage.UnderTestStore() {
		t.Skip("starts sortkey nodes on PostgreSQL: runs with the suite on PostgreSQL (" + storage.TestStoreEnv + ", as .ci/run sets it)")
	}
	return os.Getenv(storage.TestStoreEnv)
}

func runLinearizability(t *testing.T, env []string) porcupine.CheckResult {
	c := clustertest.Start(t, testStore(t), clustertest.Options{Nodes: *nodeCount, Env: env})
	createTable(t, c, linTable)
	r := &run{c: c, start: time.Now(), labels: map[string]int{}}
	r.ids.Store(linClients)
	kills := r.drive(t, *soak)
	t.Logf("%d operations (%d of unknown outcome) by %d clients on %d nodes in %s, %d kills; failed calls: %v",
		len(r.ops), unknowns(r.ops), linClients, c.Len(), *soak, kills, r.labels)
	checkUnexpected(t, r.labels)
	return checkLinearizable(t, r.ops, 30*time.Second+*soak)
}

func unknowns(ops []porcupine.Operation) int {
	n := 0
	for _, op := range ops {
		if op.Output.(kvOutput).outcome == clustertest.Unknown {
			n++
		}
	}
	return n
}

// createTable creates table name, hash key "k" (S), through node 0 and
// waits until every node describes it as ACTIVE.
func createTable(t *testing.T, c *clustertest.Cluster, name string) {
	t.Helper()
	_, err := c.Client(0).CreateTable(context.Background(), &dynamodb.CreateTableInput{TableName: aws.String(name),
		BillingMode:          types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("k"), AttributeType: types.ScalarAttributeTypeS}},
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("k"), KeyType: types.KeyTypeHash}}})
	if err != nil {
		t.Fatal(err)
	}
	c.WaitTable(t, name)
}

// run is one workload's shared state; each client keeps its own history
// until drive merges them.
type run struct {
	c      *clustertest.Cluster
	start  time.Time
	stop   atomic.Bool
	ids    atomic.Int32 // the next ClientId, for a client after an unknown outcome
	mu     sync.Mutex
	ops    []porcupine.Operation
	labels map[string]int // failed calls by Classify's label
}

func (r *run) now() int64 { return int64(time.Since(r.start)) }

// drive runs the clients for d while nodes are killed and restarted, and
// returns the number of kills.
func (r *run) drive(t *testing.T, d time.Duration) int {
	var wg sync.WaitGroup
	for i := range linClients {
		cl := &client{r: r, id: i, base: i, rng: rand.New(rand.NewPCG(uint64(i), uint64(r.start.UnixNano())))}
		wg.Go(cl.loop)
	}
	kills, err := chaos(r.c, time.Now().Add(d))
	r.stop.Store(true)
	wg.Wait()
	if err != nil {
		t.Fatal(err)
	}
	return kills
}

// chaos kills a random node every 2–4 s, never the last live one of
// several (a one-node cluster's node too, so that a run on one node still
// sees crashes), and restarts it 1–2 s later, until deadline; no kill
// starts in the last 2 s, so that the run ends about on time.
func chaos(c *clustertest.Cluster, deadline time.Time) (kills int, err error) {
	for {
		time.Sleep(min(between(2*time.Second, 4*time.Second), time.Until(deadline)))
		if time.Until(deadline) < 2*time.Second {
			time.Sleep(time.Until(deadline))
			return kills, nil
		}
		i := victim(c)
		if i < 0 {
			continue
		}
		if err := c.Kill(i); err != nil {
			return kills, err
		}
		kills++
		time.Sleep(between(time.Second, 2*time.Second))
		if err := c.Restart(i); err != nil {
			return kills, err
		}
	}
}

// victim is a random live node that may be killed, or -1.
func victim(c *clustertest.Cluster) int {
	var live []int
	for i := range c.Len() {
		if c.Alive(i) {
			live = append(live, i)
		}
	}
	if len(live) == 0 || (len(live) == 1 && c.Len() > 1) {
		return -1
	}
	return live[rand.IntN(len(live))]
}

func between(lo, hi time.Duration) time.Duration {
	return lo + rand.N(hi-lo)
}

// pick is a random live node's client, or nil when none is live.
func pick(c *clustertest.Cluster, rng *rand.Rand) *dynamodb.Client {
	off := rng.IntN(c.Len())
	for i := range c.Len() {
		if j := (off + i) % c.Len(); c.Alive(j) {
			return c.Client(j)
		}
	}
	return nil
}

// checkUnexpected fails for refusals that a correct cluster never gives
// this workload (a 4xx other than a conflict or throttling, a table not
// found after a restart), and for calls the SDK refused to send: the
// history treats them as no effect, which is right, but they mean the
// workload did not run as written.
func checkUnexpected(t *testing.T, labels map[string]int) {
	t.Helper()
	for label, n := range labels {
		if label == "invalid parameters" || strings.HasPrefix(label, "4") && !expectedRefusal(label) {
			t.Errorf("%d calls failed with %s", n, label)
		}
	}
}

func expectedRefusal(label string) bool {
	for _, code := range []string{"TransactionConflictException", "ThrottlingException", "ProvisionedThroughputExceededException", "RequestLimitExceeded"} {
		if strings.HasSuffix(label, " "+code) {
			return true
		}
	}
	return false
}

// checkLinearizable checks ops with porcupine and writes a visualization
// of a history that is not linearizable.
func checkLinearizable(t *testing.T, ops []porcupine.Operation, timeout time.Duration) porcupine.CheckResult {
	t.Helper()
	start := time.Now()
	checked := dropImpliedFalse(ops)
	res, info := porcupine.CheckOperationsVerbose(kvModel, checked, timeout)
	t.Logf("porcupine: %s for %d operations (%d implied \"condition false\" answers left out), checked in %s",
		res, len(checked), len(ops)-len(checked), time.Since(start).Round(time.Millisecond))
	switch res {
	case porcupine.Unknown:
		t.Logf("the check timed out after %s: inconclusive, not a failure", timeout)
	case porcupine.Illegal:
		logIllegalRounds(t, checked, info)
		visualize(t, info)
	}
	return res
}

// logIllegalRounds names the rounds that porcupine could not linearize
// (each round is a partition, in byRound's order).
func logIllegalRounds(t *testing.T, ops []porcupine.Operation, info porcupine.LinearizationInfo) {
	partials := info.PartialLinearizations()
	for i, round := range byRound(ops) {
		longest := 0
		for _, partial := range partials[i] {
			longest = max(longest, len(partial))
		}
		if longest < len(round) {
			t.Logf("round %d (from %s): %d operations; the longest linearizable prefix found has %d", round[0].Input.(kvInput).round,
				time.Duration(round[0].Input.(kvInput).round)*roundLength, len(round), longest)
		}
	}
}

// visualize writes porcupine's HTML for info to a file that outlives the
// test, and logs its path.
func visualize(t *testing.T, info porcupine.LinearizationInfo) {
	f, err := os.CreateTemp("", "sortkey-linearizability-*.html")
	if err != nil {
		t.Errorf("visualization: %v", err)
		return
	}
	f.Close()
	if err := porcupine.VisualizePath(kvModel, info, f.Name()); err != nil {
		t.Errorf("visualization: %v", err)
		return
	}
	t.Logf("visualization of the history: %s", f.Name())
}

// client is one of the workload's clients: it calls a random live node
// each time, and remembers each key's value as it last read or wrote it,
// for its conditions.
type client struct {
	r     *run
	id    int // porcupine's ClientId, new after each unknown outcome
	base  int // the client's number, in its values
	seq   int
	rng   *rand.Rand
	round int
	last  kvState // in round
	ops   []porcupine.Operation
	fail  map[string]int
}

func (cl *client) loop() {
	cl.fail = map[string]int{}
	for !cl.r.stop.Load() {
		db := pick(cl.r.c, cl.rng)
		if db == nil {
			time.Sleep(20 * time.Millisecond)
			continue
		}
		cl.call(context.Background(), db)
	}
	cl.r.mu.Lock()
	defer cl.r.mu.Unlock()
	cl.r.ops = append(cl.r.ops, cl.ops...)
	for label, n := range cl.fail {
		cl.r.labels[label] += n
	}
}

// call makes one call: 35% GetItem, 20% PutItem, 30% conditional
// UpdateItem, 15% TransactWriteItems, on keys of the current round.
func (cl *client) call(ctx context.Context, db *dynamodb.Client) {
	if round := int(cl.r.now() / int64(roundLength)); round != cl.round {
		cl.round, cl.last = round, kvState{}
	}
	in := kvInput{round: cl.round, key: cl.rng.IntN(nKeys), value: cl.nextValue()}
	switch p := cl.rng.IntN(100); {
	case p < 35:
		cl.get(ctx, db, in)
	case p < 55:
		cl.put(ctx, db, in)
	case p < 85:
		cl.update(ctx, db, in)
	default:
		in.key2, in.value2 = (in.key+1+cl.rng.IntN(nKeys-1))%nKeys, cl.nextValue()
		cl.transact(ctx, db, in)
	}
}

// get records a consistent read; a failed read tells nothing and is dropped.
func (cl *client) get(ctx context.Context, db *dynamodb.Client, in kvInput) {
	in.kind, in.value = opGet, ""
	begin := cl.r.now()
	out, err := db.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(linTable), Key: keyAV(in.name(in.key)), ConsistentRead: aws.Bool(true)})
	end := cl.r.now()
	if err != nil {
		cl.failed(err)
		return
	}
	v := valueOf(out.Item)
	cl.last[in.key] = v
	cl.ops = append(cl.ops, porcupine.Operation{ClientId: cl.id, Input: in, Call: begin, Output: kvOutput{value: v}, Return: end})
}

func (cl *client) put(ctx context.Context, db *dynamodb.Client, in kvInput) {
	in.kind = opPut
	cl.write(in, func() error {
		_, err := db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(linTable), Item: item(in.name(in.key), in.value)})
		return err
	})
}

func (cl *client) update(ctx context.Context, db *dynamodb.Client, in kvInput) {
	in.kind, in.expect = opUpdate, cl.last[in.key]
	cond, values := condition(in.expect, in.value)
	cl.write(in, func() error {
		_, err := db.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String(linTable), Key: keyAV(in.name(in.key)),
			UpdateExpression: aws.String("SET v = :new"), ConditionExpression: cond, ExpressionAttributeValues: values})
		return err
	})
}

// transact puts key and key2 in one transaction, on the condition that
// key's value is the one this client last saw.
func (cl *client) transact(ctx context.Context, db *dynamodb.Client, in kvInput) {
	in.kind, in.expect = opTxn, cl.last[in.key]
	cond, values := condition(in.expect, "")
	items := []types.TransactWriteItem{
		{Put: &types.Put{TableName: aws.String(linTable), Item: item(in.name(in.key), in.value), ConditionExpression: cond, ExpressionAttributeValues: values}},
		{Put: &types.Put{TableName: aws.String(linTable), Item: item(in.name(in.key2), in.value2)}},
	}
	cl.write(in, func() error {
		_, err := db.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: items})
		return err
	})
}

// write makes a write's call and records it by its outcome: an unknown
// outcome returns at "infinity" (it may take effect at any time after its
// call), and its client continues under a new ClientId. A call refused
// for a conflict or throttling (NoEffect) is left out of the history, as
// is a request that never reached a node: a step that is legal in every
// state and changes none fits anywhere, so leaving it out changes no
// verdict, and it made porcupine's search four times slower.
func (cl *client) write(in kvInput, call func() error) {
	begin := cl.r.now()
	err := call()
	end := cl.r.now()
	out := cl.failed(err)
	switch out {
	case clustertest.NotSent:
		time.Sleep(10 * time.Millisecond)
		return
	case clustertest.NoEffect:
		return
	case clustertest.Unknown:
		end = math.MaxInt64
	case clustertest.OK:
		cl.wrote(in)
	}
	cl.ops = append(cl.ops, porcupine.Operation{ClientId: cl.id, Input: in, Call: begin, Output: kvOutput{outcome: out}, Return: end})
	if out == clustertest.Unknown {
		cl.id = int(cl.r.ids.Add(1) - 1)
	}
}

// failed classifies err and counts a failure by its label.
func (cl *client) failed(err error) clustertest.Outcome {
	out, label := clustertest.Classify(err)
	if out != clustertest.OK {
		cl.fail[label]++
	}
	return out
}

func (cl *client) wrote(in kvInput) {
	cl.last[in.key] = in.value
	if in.kind == opTxn {
		cl.last[in.key2] = in.value2
	}
}

// nextValue is a value no other write of the run uses.
func (cl *client) nextValue() string {
	cl.seq++
	return fmt.Sprintf("%d.%d", cl.base, cl.seq)
}

// condition is "v = :expected", or "attribute_not_exists(v)" when the
// client saw no item, with the values it names and newValue as :new.
func condition(expected, newValue string) (*string, map[string]types.AttributeValue) {
	values := map[string]types.AttributeValue{}
	if newValue != "" {
		values[":new"] = &types.AttributeValueMemberS{Value: newValue}
	}
	if expected == "" {
		return aws.String("attribute_not_exists(v)"), nilIfEmpty(values)
	}
	values[":expected"] = &types.AttributeValueMemberS{Value: expected}
	return aws.String("v = :expected"), values
}

// nilIfEmpty: DynamoDB refuses an empty ExpressionAttributeValues.
func nilIfEmpty(values map[string]types.AttributeValue) map[string]types.AttributeValue {
	if len(values) == 0 {
		return nil
	}
	return values
}

func keyAV(name string) map[string]types.AttributeValue {
	return map[string]types.AttributeValue{"k": &types.AttributeValueMemberS{Value: name}}
}

func item(name, value string) map[string]types.AttributeValue {
	it := keyAV(name)
	it["v"] = &types.AttributeValueMemberS{Value: value}
	return it
}

// valueOf is the item's v, "" for no item.
func valueOf(it map[string]types.AttributeValue) string {
	if s, ok := it["v"].(*types.AttributeValueMemberS); ok {
		return s.Value
	}
	return ""
}

// The model: the values of the nKeys keys, "" for a key with no item.
type kvState [nKeys]string

type opKind uint8

const (
	opGet opKind = iota
	opPut
	opUpdate // SET v = value, if key's v is expect
	opTxn    // key = value, key2 = value2, if key's v is expect
)

type kvInput struct {
	kind          opKind
	round         int // the partition: each round has keys of its own
	key, key2     int
	value, value2 string
	expect        string // "" is "no item"
}

// name is key's name in the table.
func (in kvInput) name(key int) string { return fmt.Sprintf("r%d-key%d", in.round, key) }

type kvOutput struct {
	outcome clustertest.Outcome // a write's; a read is OK
	value   string              // a read's answer
}

var kvModel = porcupine.Model{
	Partition: byRound,
	Init:      func() any { return kvState{} },
	Step: func(state, input, output any) (bool, any) {
		return step(state.(kvState), input.(kvInput), output.(kvOutput))
	},
	Hash: func(state any) uint64 {
		h := fnv.New64a()
		for _, v := range state.(kvState) {
			h.Write([]byte(v))
			h.Write([]byte{0})
		}
		return h.Sum64()
	},
	DescribeOperation: func(input, output any) string { return describe(input.(kvInput), output.(kvOutput)) },
	DescribeState:     func(state any) string { return fmt.Sprintf("%q", state.(kvState)) },
}

// step is one call on s: a read must see the value; a write succeeds only
// when its condition holds, answers False only when it does not, may
// answer NoEffect in any state, and with an unknown outcome takes effect
// if its condition holds (taking no effect is the same as taking effect
// last, which an unknown outcome's infinite return allows).
func step(s kvState, in kvInput, out kvOutput) (bool, kvState) {
	if in.kind == opGet {
		return s[in.key] == out.value, s
	}
	holds := in.kind == opPut || s[in.key] == in.expect
	switch out.outcome {
	case clustertest.OK:
		return holds, apply(s, in)
	case clustertest.False:
		return !holds, s
	case clustertest.Unknown:
		if holds {
			return true, apply(s, in)
		}
	}
	return true, s
}

// byRound splits a history by round: rounds share no keys, and a history
// is linearizable when each key's is (linearizability is local), so each
// round is checked on its own, in parallel, and the check's cost grows
// with the run's length instead of faster than it.
func byRound(history []porcupine.Operation) [][]porcupine.Operation {
	var rounds [][]porcupine.Operation
	for _, op := range history {
		r := op.Input.(kvInput).round
		for len(rounds) <= r {
			rounds = append(rounds, nil)
		}
		rounds[r] = append(rounds[r], op)
	}
	return slices.DeleteFunc(rounds, func(ops []porcupine.Operation) bool { return len(ops) == 0 })
}

func apply(s kvState, in kvInput) kvState {
	s[in.key] = in.value
	if in.kind == opTxn {
		s[in.key2] = in.value2
	}
	return s
}

// describe is a call for the visualization, its keys by number: a
// partition is one round.
func describe(in kvInput, out kvOutput) string {
	outcomes := map[clustertest.Outcome]string{clustertest.OK: "ok", clustertest.False: "condition false",
		clustertest.NoEffect: "no effect", clustertest.Unknown: "unknown"}
	switch in.kind {
	case opGet:
		return fmt.Sprintf("get(%d) -> %q", in.key, out.value)
	case opPut:
		return fmt.Sprintf("put(%d, %q) -> %s", in.key, in.value, outcomes[out.outcome])
	case opUpdate:
		return fmt.Sprintf("update(%d, %q -> %q) -> %s", in.key, in.expect, in.value, outcomes[out.outcome])
	}
	return fmt.Sprintf("txn(%d: %q -> %q, %d: %q) -> %s", in.key, in.expect, in.value, in.key2, in.value2, outcomes[out.outcome])
}

// dropImpliedFalse leaves out the "condition false" answers that every
// linearization allows, which are most of them and made most of
// porcupine's search (a step that changes no state can be placed in
// many orders that its cache cannot tell apart). Each value is written
// by one call only, and no call deletes, so once a key's value E has
// been overwritten it never comes back: an answer "key is not E" is
// legal as soon as some successful write W of key is linearized after
// E's write. That is certain when W was called after E's write returned
// (or E is "no item") and W returned before the answer did: the answer
// can then be linearized just before it returned, after W.
func dropImpliedFalse(ops []porcupine.Operation) []porcupine.Operation {
	writes := okWrites(ops)
	written := map[string]int64{"": math.MinInt64} // value -> when its write returned
	for _, op := range ops {
		if in := op.Input.(kvInput); in.kind != opGet {
			written[in.value] = op.Return
			if in.kind == opTxn {
				written[in.value2] = op.Return
			}
		}
	}
	return slices.DeleteFunc(slices.Clone(ops), func(op porcupine.Operation) bool {
		in := op.Input.(kvInput)
		from, ok := written[in.expect]
		return op.Output.(kvOutput).outcome == clustertest.False && ok && overwritten(writes[in.name(in.key)], from, op.Return)
	})
}

// okWrites is the successful writes of each key, by the key's name.
func okWrites(ops []porcupine.Operation) map[string][]porcupine.Operation {
	writes := map[string][]porcupine.Operation{}
	for _, op := range ops {
		in := op.Input.(kvInput)
		if in.kind == opGet || op.Output.(kvOutput).outcome != clustertest.OK {
			continue
		}
		writes[in.name(in.key)] = append(writes[in.name(in.key)], op)
		if in.kind == opTxn {
			writes[in.name(in.key2)] = append(writes[in.name(in.key2)], op)
		}
	}
	return writes
}

// overwritten reports whether one of writes was called after from and
// returned before until.
func overwritten(writes []porcupine.Operation, from, until int64) bool {
	return slices.ContainsFunc(writes, func(w porcupine.Operation) bool { return w.Call > from && w.Return < until })
}
