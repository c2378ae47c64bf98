package console_test

import (
	"context"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/sortkeydb/sortkey"
	"github.com/sortkeydb/sortkey/sortkeytest"
)

// ttlNow is the injected server clock of the TTL tests.
var ttlNow = time.Date(2030, 6, 1, 12, 0, 0, 0, time.UTC)

// newTTLServer is a sortkey on an injected clock, with no background
// sweeper, and table Sessions with TTL on attribute exp: items expiring
// at known times, one already past, and two that never expire.
func newTTLServer(t testing.TB) *sortkeytest.Server {
	t.Helper()
	srv := sortkeytest.NewWithOptions(t, &sortkey.Options{Console: true, Now: func() time.Time { return ttlNow }, TTLInterval: -1})
	c := dynamodb.NewFromConfig(srv.AWSConfig())
	ctx := context.Background()
	_, err := c.CreateTable(ctx, &dynamodb.CreateTableInput{TableName: aws.String("Sessions"), BillingMode: types.BillingModePayPerRequest,
		KeySchema:            []types.KeySchemaElement{key("id", types.KeyTypeHash)},
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("id"), AttributeType: types.ScalarAttributeTypeS}}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.UpdateTimeToLive(ctx, &dynamodb.UpdateTimeToLiveInput{TableName: aws.String("Sessions"),
		TimeToLiveSpecification: &types.TimeToLiveSpecification{AttributeName: aws.String("exp"), Enabled: aws.Bool(true)}}); err != nil {
		t.Fatal(err)
	}
	at := func(d time.Duration) types.AttributeValue { return n(strconv.FormatInt(ttlNow.Add(d).Unix(), 10)) }
	for _, it := range []map[string]types.AttributeValue{
		{"id": s("hour"), "exp": at(time.Hour)},
		{"id": s("past"), "exp": at(-time.Minute)},
		{"id": s("minute"), "exp": at(time.Minute)},
		{"id": s("none")},
		{"id": s("text"), "exp": s("tomorrow")},
	} {
		if _, err := c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("Sessions"), Item: it}); err != nil {
			t.Fatal(err)
		}
	}
	return srv
}

var expiringRe = regexp.MustCompile(`<tr class="(\w+)"><td>(\w+)</td><td class="num">\d+</td><td>([^<]+)</td><td>([^<]+)</td></tr>`)

func TestTTLPageListsSoonestFirstByTheServerClock(t *testing.T) {
	srv := newTTLServer(t)
	status, _, body := get(t, srv.URL+"/console/tables/Sessions/ttl")
	if status != http.StatusOK {
		t.Fatalf("%d\n%s", status, body)
	}
	var got []string
	for _, m := range expiringRe.FindAllStringSubmatch(body, -1) {
		got = append(got, strings.Join(m[1:], " | "))
	}
	want := []string{
		"expired | past | 2030-06-01T11:59:00Z | expired 1m0s ago, awaiting the sweeper",
		"pending | minute | 2030-06-01T12:01:00Z | in 1m0s",
		"pending | hour | 2030-06-01T13:00:00Z | in 1h0m0s",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("expiring items:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	for _, w := range []string{"Server clock: 2030-06-01T12:00:00Z", "Read 5 items", "reads at most 1000",
		"3 carry a TTL, 1 already past and awaiting the sweeper"} {
		if !strings.Contains(body, w) {
			t.Errorf("TTL page lacks %q:\n%s", w, body)
		}
	}
}

func TestTablePageLinksTTLOnlyWhenEnabled(t *testing.T) {
	srv := newTTLServer(t)
	if _, _, body := get(t, srv.URL+"/console/tables/Sessions"); !strings.Contains(body, `href="/console/tables/Sessions/ttl"`) {
		t.Errorf("table page with TTL on does not link its TTL view")
	}
	market, _ := newServer(t)
	if _, _, body := get(t, market.URL+"/console/tables/Market"); strings.Contains(body, "/ttl") {
		t.Errorf("table page links a TTL view though TTL is off")
	}
	status, _, body := get(t, market.URL+"/console/tables/Market/ttl")
	if status != http.StatusOK || !strings.Contains(body, "no item expires") {
		t.Errorf("TTL page with TTL off: %d\n%s", status, body)
	}
	if status, _, _ := get(t, market.URL+"/console/tables/Nope/ttl"); status != http.StatusNotFound {
		t.Errorf("TTL page of a missing table: %d, want 404", status)
	}
}
