package console_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/chromedp/chromedp"

	"github.com/sortkeydb/sortkey"
	"github.com/sortkeydb/sortkey/sortkeytest"
)

// newLiveServer is newServer with metrics on, so the live page has
// numbers: the Market table's puts, then gets of one user's profile and
// a get of a table that does not exist.
func newLiveServer(t testing.TB, gets int) (*sortkeytest.Server, *dynamodb.Client) {
	t.Helper()
	srv := sortkeytest.NewWithOptions(t, &sortkey.Options{Console: true, Metrics: true})
	c := dynamodb.NewFromConfig(srv.AWSConfig())
	createMarket(t, c)
	putMarket(t, c)
	for range gets {
		getProfile(t, c)
	}
	_, err := c.GetItem(context.Background(), &dynamodb.GetItemInput{TableName: aws.String("Missing"),
		Key: map[string]types.AttributeValue{"PK": s("x")}})
	if nf := (*types.ResourceNotFoundException)(nil); !errors.As(err, &nf) {
		t.Fatalf("GetItem of a missing table: %v", err)
	}
	return srv, c
}

func getProfile(t testing.TB, c *dynamodb.Client) {
	t.Helper()
	_, err := c.GetItem(context.Background(), &dynamodb.GetItemInput{TableName: aws.String("Market"),
		Key: map[string]types.AttributeValue{"PK": s("USER#u1"), "SK": s("PROFILE")}})
	if err != nil {
		t.Fatal(err)
	}
}

type liveAnswer struct {
	Window int
	Ops    []struct{ Op, PerSecond, Calls, P50, P99 string }
	Errors []struct{ Code, PerSecond string }
	Tables []struct{ Table, RCU, WCU string }
}

func liveJSON(t *testing.T, base string) (int, liveAnswer) {
	t.Helper()
	code, _, body := get(t, base+"/console/live.json")
	var a liveAnswer
	if code == 200 {
		if err := json.Unmarshal([]byte(body), &a); err != nil {
			t.Fatalf("live.json: %v\n%s", err, body)
		}
	}
	return code, a
}

// The live numbers are the application's calls: its GetItems and PutItems
// with their rates and latency, its error by code and the capacity its
// table consumed, and none of the console's own reads.
func TestLiveNumbersAreTheApplicationsCalls(t *testing.T) {
	srv, _ := newLiveServer(t, 5)
	get(t, srv.URL+"/console/") // the console's own ListTables and DescribeTables
	code, a := liveJSON(t, srv.URL)
	if code != 200 || a.Window != 10 {
		t.Fatalf("live.json: %d %+v", code, a)
	}
	calls := map[string]string{}
	for _, o := range a.Ops {
		calls[o.Op] = o.Calls
		if o.PerSecond == "0.0" || o.P50 == "" || o.P99 == "" {
			t.Errorf("%s: %+v, want a rate and latency", o.Op, o)
		}
	}
	if len(calls) != 3 || calls["GetItem"] != "6" || calls["PutItem"] != "9" || calls["CreateTable"] != "1" {
		t.Errorf("operations %v, want CreateTable 1, PutItem 9, GetItem 6 and none of the console's", calls)
	}
	if len(a.Errors) != 1 || a.Errors[0].Code != "ResourceNotFoundException" || a.Errors[0].PerSecond != "0.1" {
		t.Errorf("errors %+v, want ResourceNotFoundException once in 10 s", a.Errors)
	}
	if len(a.Tables) != 1 || a.Tables[0].Table != "Market" || a.Tables[0].RCU == "0.0" || a.Tables[0].WCU == "0.0" {
		t.Errorf("tables %+v, want Market's reads and writes", a.Tables)
	}
	_, _, body := get(t, srv.URL+"/console/live")
	for _, want := range []string{"<td>GetItem</td>", "<td>ResourceNotFoundException</td>", "<td>Market</td>", `src="/console/static/live.js"`} {
		if !strings.Contains(body, want) {
			t.Errorf("the live page has no %q", want)
		}
	}
}

// With metrics off the page says so and the JSON endpoint is 404.
func TestLivePageWithMetricsOff(t *testing.T) {
	srv, _ := newServer(t)
	code, _, body := get(t, srv.URL+"/console/live")
	if code != 200 || !strings.Contains(body, `id="live-off"`) || strings.Contains(body, "live.js") {
		t.Errorf("GET /console/live with metrics off: %d\n%s", code, body)
	}
	if code, _ := liveJSON(t, srv.URL); code != 404 {
		t.Errorf("live.json with metrics off: %d", code)
	}
}

// A person follows the table list's Live link and sees the application's
// GetItems at a non-zero rate; a Query made while the page is open
// appears on its own, polled.
func TestBrowserLiveNumbers(t *testing.T) {
	srv, c := newLiveServer(t, 20)
	ctx := tab(t)
	w := watchTab(t, ctx)
	open(t, ctx, srv.URL+"/console/")
	clickThrough(t, ctx, "a#live-link")
	row := text(t, ctx, "#live-ops tbody tr:nth-child(2)")
	if f := strings.Fields(row); len(f) < 2 || f[0] != "GetItem" || f[1] == "0.0" {
		t.Fatalf("GetItem row %q, want a non-zero rate", row)
	}
	_, err := c.Query(context.Background(), &dynamodb.QueryInput{TableName: aws.String("Market"), IndexName: aws.String("GSI1"),
		KeyConditionExpression:    aws.String("GSI1PK = :s"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":s": s("STATUS#OPEN")}})
	if err != nil {
		t.Fatal(err)
	}
	wait, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	if _, err := chromedp.Run(wait, chromedp.Poll[bool](`[...document.querySelectorAll('#live-ops td')].some(td => td.textContent === 'Query')`)); err != nil {
		t.Fatalf("the Query never appeared on the open page: %v", err)
	}
	if status := text(t, ctx, "#live-status"); !strings.HasPrefix(status, "Live:") {
		t.Errorf("status %q", status)
	}
	shoot(t, ctx, "live")
	checkTraffic(t, w, srv.URL)
}
