package clustertest_test

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/sortkeydb/sortkey/internal/clustertest"
)

// PostgreSQL restarted under writers on every node: each call either
// succeeds, and its item is there afterwards, or fails in a way an SDK
// retries; the nodes reconnect by themselves, and one of them takes the
// lease again (expired items written after the restart are deleted).
func TestClusterSurvivesDatabaseRestart(t *testing.T) {
	testStore(t) // runs with the suite on PostgreSQL, beside which it starts its own
	url, dir := clustertest.Postgres(t)
	c := clustertest.Start(t, url, clustertest.Options{Nodes: *nodeCount, Flags: []string{"--ttl-interval", "300ms"}})
	createTable(t, c, "restarts")
	enableTTL(t, c.Client(0), "restarts")
	w := startWriters(c, "restarts")
	waitAcks(t, w, 200)
	if err := clustertest.RestartPostgres(dir); err != nil {
		w.stop()
		t.Fatal(err)
	}
	before := len(w.snapshot())
	waitAcks(t, w, before+200)
	w.stop()
	for _, k := range w.snapshot() {
		out, err := c.Client(1).GetItem(context.Background(), &dynamodb.GetItemInput{TableName: aws.String("restarts"),
			Key: map[string]types.AttributeValue{"k": &types.AttributeValueMemberS{Value: k}}, ConsistentRead: aws.Bool(true)})
		if err != nil || out.Item == nil {
			t.Fatalf("acknowledged item %s after the restart: %v, %v", k, out, err)
		}
	}
	expireAfterRestart(t, c, "restarts")
	t.Logf("PostgreSQL restarted under %d writers on %d nodes: %d acknowledged, failures %v", 2*c.Len(), c.Len(), len(w.snapshot()), w.failures())
}

// writers put unique items through every node until stop, recording the
// keys acknowledged and the failures by label; an unexpected failure
// (one an SDK would not retry) is recorded as such.
type writers struct {
	mu     sync.Mutex
	acked  []string
	failed map[string]int
	done   atomic.Bool
	wg     sync.WaitGroup
}

func startWriters(c *clustertest.Cluster, table string) *writers {
	w := &writers{failed: map[string]int{}}
	for i := range 2 * c.Len() {
		w.wg.Go(func() {
			for n := 0; !w.done.Load(); n++ {
				k := fmt.Sprintf("w%d-%d", i, n)
				_, err := c.Client(i%c.Len()).PutItem(context.Background(), &dynamodb.PutItemInput{TableName: aws.String(table),
					Item: map[string]types.AttributeValue{"k": &types.AttributeValueMemberS{Value: k}}})
				w.record(k, err)
			}
		})
	}
	return w
}

func (w *writers) record(k string, err error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if err == nil {
		w.acked = append(w.acked, k)
		return
	}
	out, label := clustertest.Classify(err)
	if out != clustertest.Unknown && out != clustertest.NotSent {
		label = "unexpected " + label
	}
	w.failed[label]++
}

func (w *writers) snapshot() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]string(nil), w.acked...)
}

func (w *writers) failures() map[string]int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.failed
}

func (w *writers) stop() {
	w.done.Store(true)
	w.wg.Wait()
}

func waitAcks(t *testing.T, w *writers, n int) {
	t.Helper()
	for deadline := time.Now().Add(time.Minute); len(w.snapshot()) < n; time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			w.stop()
			t.Fatalf("%d acknowledged writes within a minute, want %d; failures %v", len(w.snapshot()), n, w.failures())
		}
	}
	for label := range w.failures() {
		if strings.HasPrefix(label, "unexpected") {
			w.stop()
			t.Fatalf("a failure an SDK would not retry: %v", w.failures())
		}
	}
}

func enableTTL(t *testing.T, client *dynamodb.Client, table string) {
	t.Helper()
	if _, err := client.UpdateTimeToLive(context.Background(), &dynamodb.UpdateTimeToLiveInput{TableName: aws.String(table),
		TimeToLiveSpecification: &types.TimeToLiveSpecification{AttributeName: aws.String("exp"), Enabled: aws.Bool(true)}}); err != nil {
		t.Fatal(err)
	}
}

// expireAfterRestart writes expired items and waits for the sweeper,
// which runs only on the lease holder, to delete them.
func expireAfterRestart(t *testing.T, c *clustertest.Cluster, table string) {
	t.Helper()
	past := strconv.FormatInt(time.Now().Add(-time.Hour).Unix(), 10)
	for i := range 20 {
		it := map[string]types.AttributeValue{"k": &types.AttributeValueMemberS{Value: fmt.Sprint("expired", i)},
			"exp": &types.AttributeValueMemberN{Value: past}}
		if _, err := c.Client(i%c.Len()).PutItem(context.Background(), &dynamodb.PutItemInput{TableName: aws.String(table), Item: it}); err != nil {
			t.Fatal(err)
		}
	}
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(300 * time.Millisecond) {
		out, err := c.Client(2%c.Len()).GetItem(context.Background(), &dynamodb.GetItemInput{TableName: aws.String(table),
			Key: map[string]types.AttributeValue{"k": &types.AttributeValueMemberS{Value: "expired19"}}, ConsistentRead: aws.Bool(true)})
		if err == nil && out.Item == nil {
			return
		}
	}
	t.Fatal("expired items written after the restart were not deleted: no node took the lease again")
}
