package conformance_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/aws-sdk-go-v2/service/dynamodbstreams"
	stypes "github.com/aws/aws-sdk-go-v2/service/dynamodbstreams/types"

	"github.com/sortkeydb/sortkey"
	"github.com/sortkeydb/sortkey/sortkeytest"
)

var clockStart = time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)

// virtualServer is a server on a virtual clock with the background TTL
// sweeper off, so that only a move of the clock can delete anything, and
// clients for it over TCP.
func virtualServer(t *testing.T) (*sortkeytest.Server, *dynamodb.Client, *dynamodbstreams.Client) {
	srv := sortkeytest.NewWithOptions(t, &sortkey.Options{Clock: sortkey.NewVirtualClock(clockStart), TTLInterval: -1})
	cfg := srv.NetworkAWSConfig()
	return srv, dynamodb.NewFromConfig(cfg), dynamodbstreams.NewFromConfig(cfg)
}

func enableTTL(t *testing.T, c *dynamodb.Client, table, attr string) {
	t.Helper()
	_, err := c.UpdateTimeToLive(ctx, &dynamodb.UpdateTimeToLiveInput{TableName: aws.String(table),
		TimeToLiveSpecification: &types.TimeToLiveSpecification{Enabled: aws.Bool(true), AttributeName: aws.String(attr)}})
	if err != nil {
		t.Fatal(err)
	}
}

func stored(t *testing.T, c *dynamodb.Client, table, key string) bool {
	t.Helper()
	out, err := c.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(table), Key: pk(key), ConsistentRead: aws.Bool(true)})
	if err != nil {
		t.Fatal(err)
	}
	return out.Item != nil
}

// TestAdvanceDeletesExpiredItemsAtOnce: no sleep, no sweeper; when Advance
// returns, what expired is gone, and the stream says the TTL service
// deleted it.
func TestAdvanceDeletesExpiredItemsAtOnce(t *testing.T) {
	srv, c, sc := virtualServer(t)
	arn := createStreamed(t, c, "sessions", types.StreamViewTypeOldImage)
	enableTTL(t, c, "sessions", "exp")
	for key, in := range map[string]time.Duration{"soon": time.Hour, "later": 3 * time.Hour} {
		if err := put(c, "sessions", map[string]types.AttributeValue{"pk": s(key), "exp": n(fmt.Sprint(clockStart.Add(in).Unix()))}); err != nil {
			t.Fatal(err)
		}
	}
	if now := srv.Advance(90 * time.Minute); !now.Equal(clockStart.Add(90 * time.Minute)) {
		t.Fatalf("Advance returned %v", now)
	}
	if stored(t, c, "sessions", "soon") || !stored(t, c, "sessions", "later") {
		t.Fatal("after 90 minutes the item expiring in one hour must be gone, the one in three hours kept")
	}
	recs := readAll(t, sc, arn)
	last := recs[len(recs)-1]
	if len(recs) != 3 || last.EventName != stypes.OperationTypeRemove || last.UserIdentity == nil ||
		aws.ToString(last.UserIdentity.Type) != "Service" || aws.ToString(last.UserIdentity.PrincipalId) != "dynamodb.amazonaws.com" {
		t.Fatalf("stream after the expiry: %d records, last %s by %+v", len(recs), last.EventName, last.UserIdentity)
	}
	if got := last.Dynamodb.ApproximateCreationDateTime; got == nil || !got.Equal(clockStart.Add(90*time.Minute)) {
		t.Fatalf("the REMOVE record is dated %v, want the virtual time", got)
	}
}

// TestVirtualClockDatesTables: CreationDateTime is the virtual time.
func TestVirtualClockDatesTables(t *testing.T) {
	srv, c, _ := virtualServer(t)
	srv.Advance(48 * time.Hour)
	createSimple(t, c, "dated")
	out, err := c.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String("dated")})
	if err != nil || !out.Table.CreationDateTime.Equal(clockStart.Add(48*time.Hour)) {
		t.Fatalf("CreationDateTime %v (%v), want %v", out.Table.CreationDateTime, err, clockStart.Add(48*time.Hour))
	}
}

func TestVirtualClockNeverGoesBack(t *testing.T) {
	srv, _, _ := virtualServer(t)
	srv.SetTime(clockStart.Add(time.Hour))
	if _, err := srv.DB.Clock().Set(clockStart); !errors.Is(err, sortkey.ErrClockBackwards) {
		t.Fatalf("Set to an earlier time: %v", err)
	}
	if _, err := srv.DB.Clock().Advance(-time.Minute); !errors.Is(err, sortkey.ErrClockBackwards) {
		t.Fatalf("a negative Advance: %v", err)
	}
	code, out := postClock(t, srv.URL, `{"set": "2026-03-02T09:00:00Z"}`)
	if code != http.StatusBadRequest || !strings.Contains(out["error"], "never goes back") {
		t.Fatalf("POST set back: %d %v", code, out)
	}
	if !srv.Now().Equal(clockStart.Add(time.Hour)) {
		t.Fatalf("refused moves left the clock at %v", srv.Now())
	}
}

func postClock(t *testing.T, url, body string) (int, map[string]string) {
	t.Helper()
	resp, err := http.Post(url+sortkey.ClockPath, "application/json", strings.NewReader(body))
	return clockAnswer(t, resp, err)
}

func clockAnswer(t *testing.T, resp *http.Response, err error) (int, map[string]string) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	var out map[string]string
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatalf("%d %q is not a JSON answer", resp.StatusCode, b)
	}
	return resp.StatusCode, out
}

// TestClockEndpoint moves the clock over plain HTTP, as a test in another
// language would, and watches an item expire through the SDK.
func TestClockEndpoint(t *testing.T) {
	srv, c, _ := virtualServer(t)
	createSimple(t, c, "carts")
	enableTTL(t, c, "carts", "exp")
	if err := put(c, "carts", map[string]types.AttributeValue{"pk": s("c1"), "exp": n(fmt.Sprint(clockStart.Add(2 * time.Hour).Unix()))}); err != nil {
		t.Fatal(err)
	}
	resp, err := http.Get(srv.URL + sortkey.ClockPath)
	if code, out := clockAnswer(t, resp, err); code != 200 || out["now"] != "2026-03-02T09:00:00Z" {
		t.Fatalf("GET: %d %v", code, out)
	}
	if code, out := postClock(t, srv.URL, `{"advance": "2h"}`); code != 200 || out["now"] != "2026-03-02T11:00:00Z" || !stored(t, c, "carts", "c1") {
		t.Fatalf("advance to the ttl itself: %d %v (the item expires only once its ttl is past)", code, out)
	}
	if code, out := postClock(t, srv.URL, `{"set": "2026-03-02T11:00:01Z"}`); code != 200 || out["now"] != "2026-03-02T11:00:01Z" {
		t.Fatalf("set: %d %v", code, out)
	}
	if stored(t, c, "carts", "c1") {
		t.Fatal("an item past its ttl survived the move")
	}
	for _, body := range []string{`{"advance": "soon"}`, `{}`, `not json`} {
		if code, out := postClock(t, srv.URL, body); code != 400 || out["error"] == "" {
			t.Errorf("%s: %d %v", body, code, out)
		}
	}
}

// TestClockEndpointOnlyOnAVirtualClockAndThisMachine: a server on the real
// clock answers 404, and so does a virtual one to another machine.
func TestClockEndpointOnlyOnAVirtualClockAndThisMachine(t *testing.T) {
	real := sortkeytest.New(t)
	for _, method := range []string{http.MethodGet, http.MethodPost} {
		req, _ := http.NewRequest(method, real.URL+sortkey.ClockPath, strings.NewReader(`{"advance": "1h"}`))
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if code, out := clockAnswer(t, resp, err); code != 404 || !strings.Contains(out["error"], "real clock") {
			t.Errorf("%s on the real clock: %d %v", method, code, out)
		}
	}
	srv, _, _ := virtualServer(t)
	r := httptest.NewRequest(http.MethodPost, sortkey.ClockPath, strings.NewReader(`{"advance": "1h"}`))
	r.RemoteAddr = "192.0.2.7:40000"
	w := httptest.NewRecorder()
	srv.DB.Handler().ServeHTTP(w, r)
	if w.Code != 404 || !srv.Now().Equal(clockStart) {
		t.Fatalf("a client on another machine: %d, clock at %v", w.Code, srv.Now())
	}
}

func TestOptionsNowAndClockTogetherRefused(t *testing.T) {
	_, err := sortkey.Open("", &sortkey.Options{InMemory: true, Now: time.Now, Clock: sortkey.NewVirtualClock(time.Time{})})
	if !errors.Is(err, sortkey.ErrTwoClocks) {
		t.Fatalf("Open with both clocks: %v", err)
	}
}

// TestSignaturesKeepTheRealTime: a client signs with its own, real clock,
// so SigV4's 15-minute window is checked against the real time even when
// the server's clock is days ahead.
func TestSignaturesKeepTheRealTime(t *testing.T) {
	srv := sortkeytest.NewWithOptions(t, &sortkey.Options{Clock: sortkey.NewVirtualClock(time.Time{}), Auth: []byte(authFile)})
	srv.Advance(72 * time.Hour)
	if _, err := srv.ClientAs(t, adminArn, once).ListTables(ctx, &dynamodb.ListTablesInput{}); err != nil {
		t.Fatalf("a request signed now, three virtual days later: %v", err)
	}
}

// TestCloseBesideClockMoves: a clock shared by a test outlives its
// database; moves during and after Close neither fail nor reach the
// closed engine.
func TestCloseBesideClockMoves(t *testing.T) {
	vc := sortkey.NewVirtualClock(clockStart)
	db, err := sortkey.Open("", &sortkey.Options{InMemory: true, Clock: vc, TTLInterval: -1})
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		for range 200 {
			if _, err := vc.Advance(time.Minute); err != nil {
				t.Error(err)
				return
			}
		}
	}()
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	<-done
	if _, err := vc.Advance(time.Hour); err != nil || !vc.Now().Equal(clockStart.Add(260*time.Minute)) {
		t.Fatalf("after Close: %v, %v", vc.Now(), err)
	}
}
