package conformance_test

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/aws/retry"
	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/aws-sdk-go-v2/service/dynamodbstreams"
	stypes "github.com/aws/aws-sdk-go-v2/service/dynamodbstreams/types"
	"github.com/aws/smithy-go"

	"github.com/sortkeydb/sortkey"
	"github.com/sortkeydb/sortkey/sortkeytest"
)

// oneAttempt makes the SDK try each call once, so that every fault is
// seen as the server answered it.
func oneAttempt(o *dynamodb.Options) { o.Retryer = retry.AddWithMaxAttempts(retry.NewStandard(), 1) }

// faultServer is a server with the admin API and a client over its TCP
// listener that does not retry.
func faultServer(t *testing.T, opts *sortkey.Options) (*sortkeytest.Server, *dynamodb.Client) {
	t.Helper()
	srv := sortkeytest.NewWithOptions(t, opts)
	return srv, dynamodb.NewFromConfig(srv.NetworkAWSConfig(), oneAttempt)
}

// wireError is an error as the client received it.
type wireError struct {
	code, msg string
	status    int
}

func wireErr(t *testing.T, err error) wireError {
	t.Helper()
	var ae smithy.APIError
	var re *awshttp.ResponseError
	if !errors.As(err, &ae) || !errors.As(err, &re) {
		t.Fatalf("want an API error, got %v", err)
	}
	return wireError{ae.ErrorCode(), ae.ErrorMessage(), re.HTTPStatusCode()}
}

func putPK(c *dynamodb.Client, table, key string) error {
	_, err := c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(table), Item: avMap{"pk": s(key)}})
	return err
}

func getConsistent(t *testing.T, c *dynamodb.Client, table, key string) avMap {
	t.Helper()
	out, err := c.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(table), Key: pk(key), ConsistentRead: aws.Bool(true)})
	if err != nil {
		t.Fatal(err)
	}
	return out.Item
}

func TestFaultErrorsAnswerAsDynamoDBAndWriteNothing(t *testing.T) {
	srv, c := faultServer(t, &sortkey.Options{})
	createSimple(t, c, "Orders")
	cases := []wireError{
		{"InternalServerError", "Internal server error", 500},
		{"ServiceUnavailable", "Service is currently unavailable. Please try again later.", 503},
		{"ProvisionedThroughputExceededException", "The level of configured provisioned throughput for the table was exceeded. Consider increasing your provisioning level with the UpdateTable API.", 400},
		{"ThrottlingException", "Rate of requests exceeds the allowed throughput.", 400},
		{"RequestLimitExceeded", "Throughput exceeds the current throughput limit for your account. Please contact AWS Support at https://aws.amazon.com/support to request a limit increase", 400},
		{"TransactionInProgressException", "Transaction with the given request token is already in progress.", 400},
	}
	for _, want := range cases {
		srv.SetFaults(t, fmt.Sprintf(`{"rules": [{"operation": "PutItem", "table": "Orders", "error": %q}]}`, want.code))
		if got := wireErr(t, putPK(c, "Orders", want.code)); got != want {
			t.Errorf("got %+v, want %+v", got, want)
		}
		srv.SetFaults(t, "")
		if it := getConsistent(t, c, "Orders", want.code); it != nil {
			t.Errorf("%s: the item was written: %v", want.code, it)
		}
	}
}

func TestFaultTransactionConflictMarksTheNamedMembers(t *testing.T) {
	srv, c := faultServer(t, &sortkey.Options{})
	createSimple(t, c, "Menus")
	srv.SetFaults(t, `{"rules": [{"operation": "TransactWriteItems", "error": "TransactionCanceledException", "conflict": [1]}]}`)
	put := func(k string) types.TransactWriteItem {
		return types.TransactWriteItem{Put: &types.Put{TableName: aws.String("Menus"), Item: pk(k)}}
	}
	_, err := c.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{put("a"), put("b"), put("c")}})
	var tce *types.TransactionCanceledException
	if !errors.As(err, &tce) {
		t.Fatalf("want TransactionCanceledException, got %v", err)
	}
	var codes []string
	for _, r := range tce.CancellationReasons {
		codes = append(codes, aws.ToString(r.Code))
	}
	if want := []string{"None", "TransactionConflict", "None"}; !slices.Equal(codes, want) {
		t.Errorf("reasons %v, want %v", codes, want)
	}
	if msg := tce.ErrorMessage(); msg != "Transaction cancelled, please refer cancellation reasons for specific reasons [None, TransactionConflict, None]" {
		t.Errorf("message %q", msg)
	}
	if r := tce.CancellationReasons[1]; aws.ToString(r.Message) != "Transaction is ongoing for the item" {
		t.Errorf("conflict reason message %q", aws.ToString(r.Message))
	}
	srv.SetFaults(t, "")
	for _, k := range []string{"a", "b", "c"} {
		if getConsistent(t, c, "Menus", k) != nil {
			t.Errorf("%s written by a cancelled transaction", k)
		}
	}
}

func TestFaultLatencyDelaysTheAnswer(t *testing.T) {
	srv, c := faultServer(t, &sortkey.Options{})
	createSimple(t, c, "Slow")
	srv.SetFaults(t, `{"rules": [{"operation": "GetItem", "latency": "150ms"}]}`)
	start := time.Now()
	getConsistent(t, c, "Slow", "a")
	if took := time.Since(start); took < 150*time.Millisecond {
		t.Errorf("answered after %v, before the rule's 150ms", took)
	}
	if err := putPK(c, "Slow", "a"); err != nil {
		t.Errorf("PutItem, not named by the rule: %v", err)
	}
}

func TestFaultDropGivesTheClientAConnectionError(t *testing.T) {
	srv, c := faultServer(t, &sortkey.Options{})
	createSimple(t, c, "Dropped")
	srv.SetFaults(t, `{"rules": [{"operation": "PutItem", "drop": true, "count": 1}]}`)
	err := putPK(c, "Dropped", "a")
	var ae smithy.APIError
	if err == nil || errors.As(err, &ae) || !errors.Is(err, io.EOF) {
		t.Fatalf("want the connection closed with no answer, got %v", err)
	}
	if getConsistent(t, c, "Dropped", "a") != nil {
		t.Error("a dropped PutItem wrote its item")
	}
	if err := putPK(c, "Dropped", "a"); err != nil {
		t.Errorf("the next PutItem (count 1 spent): %v", err)
	}
	// With the SDK's standard retries, the dropped call is sent again.
	srv.SetFaults(t, `{"rules": [{"operation": "PutItem", "drop": true, "count": 1}]}`)
	if _, err := dynamodb.NewFromConfig(srv.NetworkAWSConfig()).PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("Dropped"), Item: pk("retried")}); err != nil {
		t.Errorf("PutItem with retries: %v", err)
	}
	if getConsistent(t, c, "Dropped", "retried") == nil {
		t.Error("the retried PutItem wrote nothing")
	}
	// The in-process transport of sortkeytest sees the same.
	if err := srv.DB.SetFaults([]byte(`{"rules": [{"operation": "PutItem", "drop": true}]}`)); err != nil {
		t.Fatal(err)
	}
	if err := putPK(srv.Client(oneAttempt), "Dropped", "b"); err == nil || errors.As(err, &ae) {
		t.Errorf("in process: want a connection error, got %v", err)
	}
}

// loadAll writes items with BatchWriteItem as an application does:
// resending UnprocessedItems until none is left. It returns how many
// calls it took.
func loadAll(t *testing.T, c *dynamodb.Client, table string, items []avMap) int {
	t.Helper()
	var reqs []types.WriteRequest
	for _, it := range items {
		reqs = append(reqs, putReq(it))
	}
	pending := map[string][]types.WriteRequest{table: reqs}
	calls := 0
	for len(pending) > 0 {
		calls++
		out, err := batchWrite(c, pending)
		if err != nil {
			t.Fatalf("call %d: %v", calls, err)
		}
		pending = out.UnprocessedItems
	}
	return calls
}

func TestFaultUnprocessedItemsResentUntilAllWrittenOnce(t *testing.T) {
	srv, c := faultServer(t, &sortkey.Options{})
	arn := createStreamed(t, c, "Bulk", types.StreamViewTypeNewImage)
	srv.SetFaults(t, `{"seed": 3, "rules": [{"operation": "BatchWriteItem", "unprocessed": 0.5, "count": 3}]}`)
	var items []avMap
	for i := range 20 {
		items = append(items, avMap{"pk": s(fmt.Sprintf("item%02d", i)), "n": n(fmt.Sprint(i))})
	}
	if calls := loadAll(t, c, "Bulk", items); calls != 4 {
		t.Errorf("took %d calls; three partial answers and a full one make 4", calls)
	}
	recs := readAll(t, dynamodbstreams.NewFromConfig(srv.NetworkAWSConfig()), arn)
	seen := map[string]int{}
	for _, r := range recs {
		if r.EventName != stypes.OperationTypeInsert {
			t.Errorf("record %s: each item is written once", r.EventName)
		}
		seen[r.Dynamodb.Keys["pk"].(*stypes.AttributeValueMemberS).Value]++
	}
	if len(recs) != 20 || len(seen) != 20 {
		t.Errorf("%d records of %d items, want 20 of 20", len(recs), len(seen))
	}
}

func TestFaultUnprocessedKeysResentUntilAllRead(t *testing.T) {
	srv, c := faultServer(t, &sortkey.Options{})
	createSimple(t, c, "Reads")
	var keys []avMap
	for i := range 10 {
		k := fmt.Sprintf("k%d", i)
		if err := putPK(c, "Reads", k); err != nil {
			t.Fatal(err)
		}
		keys = append(keys, pk(k))
	}
	srv.SetFaults(t, `{"seed": 9, "rules": [{"operation": "BatchGetItem", "unprocessed": 0.3, "probability": 0.8}]}`)
	pending := map[string]types.KeysAndAttributes{"Reads": {Keys: keys, ConsistentRead: aws.Bool(true)}}
	var got []string
	partial := 0
	for len(pending) > 0 {
		out, err := batchGet(c, pending)
		if err != nil {
			t.Fatal(err)
		}
		for _, it := range out.Responses["Reads"] {
			got = append(got, it["pk"].(*types.AttributeValueMemberS).Value)
		}
		if ka, ok := out.UnprocessedKeys["Reads"]; ok {
			partial++
			if !aws.ToBool(ka.ConsistentRead) {
				t.Error("UnprocessedKeys lost the table's ConsistentRead")
			}
		}
		pending = out.UnprocessedKeys
	}
	slices.Sort(got)
	if len(got) != 10 || len(slices.Compact(got)) != 10 || partial == 0 {
		t.Errorf("read %v in %d partial answers; want each of 10 keys once and some partial answer", got, partial)
	}
}

func TestFaultUnprocessedLeavesAnOversizedBatchToBeRefused(t *testing.T) {
	srv, c := faultServer(t, &sortkey.Options{})
	createSimple(t, c, "Big")
	srv.SetFaults(t, `{"rules": [{"operation": "BatchWriteItem", "unprocessed": 0.5}]}`)
	var reqs []types.WriteRequest
	for i := range 26 {
		reqs = append(reqs, putReq(pk(fmt.Sprint(i))))
	}
	_, err := batchWrite(c, map[string][]types.WriteRequest{"Big": reqs})
	if got := wireErr(t, err); got.code != "ValidationException" {
		t.Errorf("26 writes under an unprocessed rule: %+v", got)
	}
}

func TestFaultUnprocessedWholeBatchIsThrottled(t *testing.T) {
	srv, c := faultServer(t, &sortkey.Options{})
	createSimple(t, c, "Whole")
	srv.SetFaults(t, `{"rules": [{"operation": "BatchWriteItem", "unprocessed": 1}]}`)
	_, err := batchWrite(c, map[string][]types.WriteRequest{"Whole": {putReq(pk("a")), putReq(pk("b"))}})
	if got := wireErr(t, err); got.code != "ProvisionedThroughputExceededException" {
		t.Errorf("got %+v", got)
	}
}

func TestFaultTriggersEveryAfterCount(t *testing.T) {
	srv, c := faultServer(t, &sortkey.Options{})
	createSimple(t, c, "Tri")
	outcomes := func(n int) string {
		var b strings.Builder
		for i := range n {
			if putPK(c, "Tri", fmt.Sprint(i)) != nil {
				b.WriteByte('x')
			} else {
				b.WriteByte('.')
			}
		}
		return b.String()
	}
	for rule, want := range map[string]string{
		`"every": 3`:             "..x..x..x",
		`"after": 2, "count": 3`: "..xxx....",
		`"after": 1, "every": 2`: "..x.x.x.x",
	} {
		srv.SetFaults(t, `{"rules": [{"operation": "PutItem", "error": "ThrottlingException", `+rule+`}]}`)
		if got := outcomes(9); got != want {
			t.Errorf("%s: %s, want %s", rule, got, want)
		}
	}
}

func TestFaultWindowReadsTheDatabaseClock(t *testing.T) {
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	srv, c := faultServer(t, &sortkey.Options{Now: func() time.Time { return now }})
	createSimple(t, c, "Win")
	srv.SetFaults(t, `{"rules": [{"operation": "PutItem", "error": "ServiceUnavailable", "window": {"for": "10m"}},
	  {"operation": "GetItem", "error": "InternalServerError", "window": {"from": "2026-03-01T13:00:00Z", "until": "2026-03-01T14:00:00Z"}}]}`)
	if err := putPK(c, "Win", "a"); err == nil {
		t.Error("PutItem inside its window succeeded")
	}
	if _, err := c.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("Win"), Key: pk("a")}); err != nil {
		t.Errorf("GetItem before its window: %v", err)
	}
	now = now.Add(90 * time.Minute)
	if err := putPK(c, "Win", "a"); err != nil {
		t.Errorf("PutItem after its window: %v", err)
	}
	if _, err := c.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("Win"), Key: pk("a")}); err == nil {
		t.Error("GetItem inside its window succeeded")
	}
}

func TestFaultsFromOptionsAndBadRulesRefused(t *testing.T) {
	_, c := faultServer(t, &sortkey.Options{Faults: []byte("seed: 1\nrules:\n  - operation: ListTables\n    error: ThrottlingException\n")})
	if _, err := c.ListTables(ctx, &dynamodb.ListTablesInput{}); err == nil || wireErr(t, err).code != "ThrottlingException" {
		t.Errorf("ListTables under a YAML rule from Options: %v", err)
	}
	_, err := sortkey.Open("", &sortkey.Options{InMemory: true, Faults: []byte(`{"rules": [{"operation": "PutItems", "drop": true}]}`)})
	if err == nil || err.Error() != `fault rules: rules[0].operation: unknown operation "PutItems"` {
		t.Errorf("Open with a misspelt operation: %v", err)
	}
}

func adminCall(t *testing.T, url, method, body string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(method, url+"/sortkey/faults", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

func TestFaultAdminAPI(t *testing.T) {
	srv, c := faultServer(t, &sortkey.Options{Admin: true})
	createSimple(t, c, "Adm")
	if code, body := adminCall(t, srv.URL, "PUT", `{"seed": 2, "rules": [{"operation": "PutItem", "every": 2, "error": "ThrottlingException"}]}`); code != 200 {
		t.Fatalf("PUT: %d %s", code, body)
	}
	for i := range 4 {
		_ = putPK(c, "Adm", fmt.Sprint(i))
	}
	code, body := adminCall(t, srv.URL, "GET", "")
	if code != 200 || !strings.Contains(body, `"matched": 4`) || !strings.Contains(body, `"fired": 2`) || !strings.Contains(body, `"seed": 2`) {
		t.Errorf("GET: %d %s", code, body)
	}
	code, body = adminCall(t, srv.URL, "PUT", `{"rules": [{"operation": "PutItem", "every": 0, "drop": true}]}`)
	if code != 400 || !strings.Contains(body, "fault rules: rules[0].every: must be at least 1") {
		t.Errorf("bad PUT: %d %s", code, body)
	}
	if code, _ := adminCall(t, srv.URL, "DELETE", ""); code != 204 {
		t.Errorf("DELETE: %d", code)
	}
	if _, body := adminCall(t, srv.URL, "GET", ""); !strings.Contains(body, `"rules": []`) {
		t.Errorf("GET after DELETE: %s", body)
	}
	if err := putPK(c, "Adm", "after"); err != nil {
		t.Errorf("PutItem with no rules: %v", err)
	}
}

func TestFaultAdminAPIIsOffUnlessAskedAndLocalOnly(t *testing.T) {
	off := sortkeytest.New(t)
	for _, m := range []string{"PUT", "DELETE"} {
		if code, _ := adminCall(t, off.URL, m, `{"rules": []}`); code != 404 {
			t.Errorf("%s without Admin: %d", m, code)
		}
	}
	if _, body := adminCall(t, off.URL, "GET", ""); strings.Contains(body, "rules") {
		t.Errorf("GET without Admin shows rules: %s", body)
	}
	for _, remote := range []bool{false, true} {
		db, err := sortkey.Open("", &sortkey.Options{InMemory: true, Admin: true, AdminRemote: remote})
		if err != nil {
			t.Fatal(err)
		}
		r := httptest.NewRequest("GET", "/sortkey/faults", nil)
		r.RemoteAddr = "192.0.2.7:5000"
		w := httptest.NewRecorder()
		db.Handler().ServeHTTP(w, r)
		if want := map[bool]int{false: 404, true: 200}[remote]; w.Code != want {
			t.Errorf("remote client, AdminRemote %v: %d, want %d", remote, w.Code, want)
		}
		db.Close()
	}
}
