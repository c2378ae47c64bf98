package sortkey_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/sortkeydb/sortkey"
	"github.com/sortkeydb/sortkey/internal/clustertest"
	"github.com/sortkeydb/sortkey/internal/storage"
	"github.com/sortkeydb/sortkey/sortkeytest"
)

// restartOutcome counts what 16 writers saw while PostgreSQL restarted.
type restartOutcome struct {
	mu       sync.Mutex
	acked    []string       // keys whose PutItem succeeded
	failed   map[string]int // failures by HTTP status and error code
	badError []string       // failures that were not retryable server errors
}

func (o *restartOutcome) record(key string, err error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if err == nil {
		o.acked = append(o.acked, key)
		return
	}
	var re *awshttp.ResponseError
	if !errors.As(err, &re) || re.HTTPStatusCode() < 500 {
		o.badError = append(o.badError, err.Error())
		return
	}
	o.failed[fmt.Sprintf("%d %s", re.HTTPStatusCode(), errorCode(err))]++
}

func errorCode(err error) string {
	var ae interface{ ErrorCode() string }
	if errors.As(err, &ae) {
		return ae.ErrorCode()
	}
	return "?"
}

// TestPostgresRestartUnderWriters restarts the PostgreSQL under a sortkey
// while 16 clients write: every request either succeeds, and its item is
// there afterwards, or fails with a server error an SDK retries (5xx);
// none hangs; sortkey reconnects by itself.
// The cluster is one of its own, so that the restart disturbs no other
// test.
func TestPostgresRestartUnderWriters(t *testing.T) {
	if !storage.UnderTestStore() {
		t.Skip("starts and restarts a PostgreSQL of its own with scripts/pg-throwaway.sh: runs with the suite on PostgreSQL (" + storage.TestStoreEnv + ", as .ci/run sets it)")
	}
	url, dir := clustertest.Postgres(t)
	store := url + sep(url) + "schema=restarts&timeout=5s"
	srv := sortkeytest.NewWithOptions(t, &sortkey.Options{Store: store})
	cfg := srv.NetworkAWSConfig()
	cfg.HTTPClient = &http.Client{Timeout: 30 * time.Second} // a hang shows as a client timeout, not a 5xx
	client := dynamodb.NewFromConfig(cfg, func(o *dynamodb.Options) { o.RetryMaxAttempts = 1 })
	ctx := context.Background()
	createKV(t, ctx, client, "restarts")

	out := &restartOutcome{failed: map[string]int{}}
	var stop atomic.Bool
	var wg sync.WaitGroup
	for w := range 16 {
		wg.Go(func() {
			for n := 0; !stop.Load(); n++ {
				key := fmt.Sprintf("w%02d-%06d", w, n)
				_, err := client.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("restarts"),
					Item: map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: key}}})
				out.record(key, err)
			}
		})
	}
	time.Sleep(500 * time.Millisecond)
	if err := clustertest.RestartPostgres(dir); err != nil {
		stop.Store(true)
		wg.Wait()
		t.Fatalf("restart: %v", err)
	}
	before := len(out.snapshot())
	waitForAcks(t, out, before+200)
	stop.Store(true)
	wg.Wait()

	checkAcked(t, ctx, client, out)
	t.Logf("PostgreSQL restarted under 16 writers: %d acknowledged, failed %v", len(out.acked), out.failed)
}

func sep(url string) string {
	if strings.Contains(url, "?") {
		return "&"
	}
	return "?"
}

func (o *restartOutcome) snapshot() []string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return append([]string(nil), o.acked...)
}

// waitForAcks waits until writes succeed again after the restart: sortkey
// reconnects without being told.
func waitForAcks(t *testing.T, out *restartOutcome, n int) {
	t.Helper()
	for range 600 {
		if len(out.snapshot()) >= n {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("writes did not recover after the restart: %d acknowledged, failed %v", len(out.snapshot()), out.failed)
}

func checkAcked(t *testing.T, ctx context.Context, client *dynamodb.Client, out *restartOutcome) {
	t.Helper()
	if len(out.badError) > 0 {
		t.Fatalf("%d requests failed without a retryable server error, e.g. %s", len(out.badError), out.badError[0])
	}
	for _, key := range out.acked {
		got, err := client.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("restarts"), ConsistentRead: aws.Bool(true),
			Key: map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: key}}})
		if err != nil || got.Item == nil {
			t.Fatalf("acknowledged %s is missing after the restart (%v)", key, err)
		}
	}
}

func createKV(t *testing.T, ctx context.Context, client *dynamodb.Client, name string) {
	t.Helper()
	_, err := client.CreateTable(ctx, &dynamodb.CreateTableInput{TableName: aws.String(name), BillingMode: types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS}},
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash}}})
	if err != nil {
		t.Fatal(err)
	}
}
