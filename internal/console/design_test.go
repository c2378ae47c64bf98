package console_test

import (
	"context"
	"net/http"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/sortkeydb/sortkey"
	"github.com/sortkeydb/sortkey/sortkeytest"
)

// newDesignServer is a sortkey with the console on and the Market design
// loaded, its table created through the SDK, and a few requests made:
// two profile reads (pattern 1), a sign-up (write W1) and a Scan that no
// pattern declares.
func newDesignServer(t testing.TB) *sortkeytest.Server {
	t.Helper()
	doc, err := os.ReadFile("../design/testdata/market.yaml")
	if err != nil {
		t.Fatal(err)
	}
	srv := sortkeytest.NewWithOptions(t, &sortkey.Options{Console: true, Design: doc})
	c := dynamodb.NewFromConfig(srv.AWSConfig())
	ctx := context.Background()
	_, err = c.CreateTable(ctx, &dynamodb.CreateTableInput{TableName: aws.String("Market"), BillingMode: types.BillingModePayPerRequest,
		KeySchema:            []types.KeySchemaElement{key("pk", types.KeyTypeHash), key("sk", types.KeyTypeRange)},
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS}, {AttributeName: aws.String("sk"), AttributeType: types.ScalarAttributeTypeS}}})
	if err != nil {
		t.Fatal(err)
	}
	user := map[string]types.AttributeValue{"pk": s("U#1"), "sk": s("U#1"), "tp": s("U"), "name": s(scriptValue)}
	if _, err := c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("Market"), Item: user,
		ConditionExpression: aws.String("attribute_not_exists(pk)")}); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if _, err := c.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("Market"),
			Key: map[string]types.AttributeValue{"pk": s("U#1"), "sk": s("U#1")}}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := c.Scan(ctx, &dynamodb.ScanInput{TableName: aws.String("Market")}); err != nil {
		t.Fatal(err)
	}
	return srv
}

var patternRe = regexp.MustCompile(`(?s)<tr class="pattern( never)?"><td>([^<]*)</td><td>(.*?)</td>\s*<td>([^<]*)</td><td>([^<]*)</td><td><code>([^<]*)</code></td>\s*<td class="num">(\d+)</td>`)

// designRows are the pattern rows of the design page by number: whether
// never exercised, operation, where, key condition and calls.
func designRows(body string) map[string][]string {
	out := map[string][]string{}
	for _, m := range patternRe.FindAllStringSubmatch(body, -1) {
		out[m[2]] = []string{m[1], m[4], m[5], m[6], m[7]}
	}
	return out
}

// counters are the first five numeric cells of pattern number's row.
func counters(body, number string) string {
	i := strings.Index(body, "<td>"+number+"</td>")
	if i < 0 {
		return ""
	}
	row := body[i:]
	row = row[:strings.Index(row, "</tr>")]
	var nums []string
	for _, m := range regexp.MustCompile(`<td class="num">([^<]*)</td>`).FindAllStringSubmatch(row, 5) {
		nums = append(nums, m[1])
	}
	return strings.Join(nums, " ")
}

func TestDesignPageShowsPatternsWithLiveCoverage(t *testing.T) {
	srv := newDesignServer(t)
	status, _, body := get(t, srv.URL+"/console/design")
	if status != http.StatusOK {
		t.Fatalf("GET /console/design: %d\n%s", status, body)
	}
	rs := designRows(body)
	for number, want := range map[string][]string{
		"1":  {"", "GetItem", "Market", "pk = U#{userId} AND sk = U#{userId}", "2"},
		"2":  {" never", "Query", "Market", "pk = U#{userId}#O", "0"},
		"4":  {" never", "Query", "Market / IdLookupIndex", "id = {orderNumber} AND tp = O", "0"},
		"4b": {" never", "Query", "Market", "pk = U#{userId}#O AND begins_with(sk, O#{orderId})", "0"},
		"W1": {"", "PutItem", "User", "attribute_not_exists(pk)", "1"},
	} {
		got := rs[number]
		if strings.Join(got, "|") != strings.Join(want, "|") {
			t.Errorf("pattern %s: %q, want %q", number, got, want)
		}
	}
	// Calls, errors, items (written, for a write), RCU, WCU: a profile of
	// under 4 KB costs 0.5 RCU eventually consistent, twice; a put 1 WCU.
	for number, want := range map[string]string{"1": "2 0 2 1 0", "W1": "1 0 1 0 1", "2": "0 0 0 0 0"} {
		if got := counters(body, number); got != want {
			t.Errorf("pattern %s counters %q, want %q", number, got, want)
		}
	}
	for _, want := range []string{"never exercised", "Never exercised: 2 Get the list of last N orders for user",
		`<table class="chart" id="chart-Market">`, "<th>ReverseIndex</th>", "<code>pk: U#{userId}#O, sk: O#{orderId}</code>",
		"<code>id: {orderNumber}, tp: O</code>", "not in index", `<table id="undeclared">`, "(Scan)"} {
		if !strings.Contains(body, want) {
			t.Errorf("design page lacks %q", want)
		}
	}
}

// Every chart row is an entity on the table, in the design's order,
// with a cell per key space.
func TestDesignPageChartsEveryEntity(t *testing.T) {
	srv := newDesignServer(t)
	_, _, body := get(t, srv.URL+"/console/design")
	rowRe := regexp.MustCompile(`<tr><th>(\w+)</th>((?:<td>.*?</td>){3})</tr>`)
	var entities []string
	for _, m := range rowRe.FindAllStringSubmatch(body, -1) {
		entities = append(entities, m[1])
	}
	if strings.Join(entities, ",") != "User,Order,OrderItem" {
		t.Errorf("chart rows %q, want User, Order, OrderItem", entities)
	}
}

func TestDesignLinkOnlyWithADesign(t *testing.T) {
	withDesign := newDesignServer(t)
	if _, _, body := get(t, withDesign.URL+"/console/"); !strings.Contains(body, `href="/console/design"`) {
		t.Errorf("table list does not link the design")
	}
	without, _ := newServer(t)
	if _, _, body := get(t, without.URL+"/console/"); strings.Contains(body, `href="/console/design"`) {
		t.Errorf("table list links a design though none is loaded")
	}
	status, _, body := get(t, without.URL+"/console/design")
	if status != http.StatusOK || !strings.Contains(body, "No design is loaded") || !strings.Contains(body, "--design FILE") {
		t.Errorf("design page without a design: %d\n%s", status, body)
	}
}

// The console's own reads are not the application's: viewing pages adds
// nothing to the coverage it shows.
func TestDesignPageLeavesCoverageAlone(t *testing.T) {
	srv := newDesignServer(t)
	for range 3 {
		get(t, srv.URL+"/console/tables/Market")
	}
	_, _, body := get(t, srv.URL+"/console/design")
	if got := designRows(body)["1"]; len(got) != 5 || got[4] != "2" {
		t.Errorf("pattern 1 after console views: %q, want 2 calls", got)
	}
	if n := strings.Count(body, `<tr class="scan">`); n != 1 {
		t.Errorf("%d undeclared scans, want the application's one", n)
	}
}

// A person follows the table list's link to the design and sees which
// patterns the application has not exercised yet.
func TestBrowserDesignPage(t *testing.T) {
	srv := newDesignServer(t)
	ctx := tab(t)
	w := watchTab(t, ctx)
	open(t, ctx, srv.URL+"/console/")
	clickThrough(t, ctx, "a#design-link")
	if h1 := text(t, ctx, "h1"); !strings.Contains(h1, "Market") {
		t.Errorf("design page heading %q", h1)
	}
	if never, all := count(t, ctx, "tr.pattern.never"), count(t, ctx, "tr.pattern"); never != 3 || all != 5 {
		t.Errorf("%d of %d pattern rows highlighted as never exercised, want 3 of 5", never, all)
	}
	if entities := count(t, ctx, "table.chart tbody tr"); entities != 3 {
		t.Errorf("entity chart has %d rows, want 3", entities)
	}
	shoot(t, ctx, "design")
	checkTraffic(t, w, srv.URL)
}
