package console_test

import (
	"encoding/json"
	"html"
	"net/http"
	"net/url"
	"os/exec"
	"regexp"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

var (
	sdkRe      = regexp.MustCompile(`(?s)<pre class="request" id="q-sdk">(.*?)</pre>`)
	cliRe      = regexp.MustCompile(`(?s)<pre class="request" id="q-cli">(.*?)</pre>`)
	capacityRe = regexp.MustCompile(`<span id="q-capacity">([^<]*)</span>`)
	countRe    = regexp.MustCompile(`Count <span id="q-count">(\d+)</span>, ScannedCount <span id="q-scanned">(\d+)</span>`)
	errorRe    = regexp.MustCompile(`(?s)<p class="error" id="q-error">(.*?)</p>`)
)

func queryPath(v url.Values) string { return "/console/tables/Market/query?" + v.Encode() }

func userOrders() url.Values {
	return url.Values{"key": {"PK = :pk AND begins_with(SK, :o)"},
		"values": {`{":pk": {"S": "USER#u2"}, ":o": {"S": "ORDER#"}}`}}
}

func TestQueryShowsMatchingItemsCountsAndCapacity(t *testing.T) {
	srv, _ := newServer(t)
	v := userOrders()
	v.Set("direction", "backward")
	status, _, body := get(t, srv.URL+queryPath(v))
	if status != http.StatusOK {
		t.Fatalf("%d\n%s", status, body)
	}
	if got := partitions(body); len(got) != 1 || got[0] != "USER#u2" {
		t.Errorf("partitions %q, want USER#u2 only", got)
	}
	rs := rows(body)
	if len(rs) != 2 || rs[0][1] != "ORDER#2024-02" || rs[1][1] != "ORDER#2024-01" {
		t.Errorf("rows %q, want u2's two orders, newest first", rs)
	}
	if m := countRe.FindStringSubmatch(body); m == nil || m[1] != "2" || m[2] != "2" {
		t.Errorf("counts %q, want Count 2, ScannedCount 2", m)
	}
	if m := capacityRe.FindStringSubmatch(body); m == nil || m[1] == "" || m[1] == "0" || m[1] == "not reported" {
		t.Errorf("consumed capacity %q, want a number of units", m)
	}
}

func TestQueryShowsTheRequestSentAsSDKJSON(t *testing.T) {
	srv, _ := newServer(t)
	v := userOrders()
	v.Set("filter", "#t > :min")
	v.Set("names", `{"#t": "total"}`)
	v.Set("values", `{":pk": {"S": "USER#u2"}, ":o": {"S": "ORDER#"}, ":min": {"N": "22"}}`)
	v.Set("consistent", "1")
	_, _, body := get(t, srv.URL+queryPath(v))
	m := sdkRe.FindStringSubmatch(body)
	if m == nil {
		t.Fatalf("no SDK JSON:\n%s", body)
	}
	var in map[string]any
	if err := json.Unmarshal([]byte(html.UnescapeString(m[1])), &in); err != nil {
		t.Fatalf("SDK JSON does not parse: %v\n%s", err, m[1])
	}
	for k, want := range map[string]any{"TableName": "Market", "KeyConditionExpression": "PK = :pk AND begins_with(SK, :o)",
		"FilterExpression": "#t > :min", "ConsistentRead": true, "Limit": 100.0, "ReturnConsumedCapacity": "TOTAL"} {
		if in[k] != want {
			t.Errorf("%s = %v, want %v", k, in[k], want)
		}
	}
	if rs := rows(body); len(rs) != 1 || rs[0][1] != "ORDER#2024-02" {
		t.Errorf("rows %q, want the one order over 22", rs)
	}
	if m := countRe.FindStringSubmatch(body); m == nil || m[1] != "1" || m[2] != "2" {
		t.Errorf("counts %q, want Count 1 of ScannedCount 2", m)
	}
}

// Following Next links runs the same query on, page by page, until every
// match was seen once.
func TestQueryPagesWithNextLinks(t *testing.T) {
	srv, _ := newServer(t)
	v := url.Values{"index": {"GSI1"}, "key": {"GSI1PK = :s"}, "values": {`{":s": {"S": "STATUS#OPEN"}}`}, "limit": {"1"}}
	next, seen := queryPath(v), map[string]bool{}
	for pages := 0; next != "" && pages < 10; pages++ {
		status, _, body := get(t, srv.URL+html.UnescapeString(next))
		if status != http.StatusOK {
			t.Fatalf("%s: %d\n%s", next, status, body)
		}
		for _, r := range rows(body) {
			if seen[r[1]] {
				t.Errorf("%s on two pages", r[1])
			}
			seen[r[1]] = true
		}
		next = ""
		if m := nextRe.FindStringSubmatch(body); m != nil {
			next = m[1]
		}
	}
	if len(seen) != 3 || !seen["2024-01#u1"] || !seen["2024-01#u3"] {
		t.Errorf("saw %v, want the three open orders", seen)
	}
}

// DynamoDB's own validation message shows beside the form, escaped, and
// the form keeps what was typed.
func TestQueryErrorShowsBesideTheFormAsTyped(t *testing.T) {
	srv, _ := newServer(t)
	v := url.Values{"key": {"SK = :v"}, "values": {`{":v": {"S": "<b>x</b>"}}`}, "filter": {"note <> :v"}}
	status, _, body := get(t, srv.URL+queryPath(v))
	if status != http.StatusBadRequest {
		t.Errorf("%d, want 400", status)
	}
	m := errorRe.FindStringSubmatch(body)
	if m == nil || !strings.Contains(m[1], "ValidationException") {
		t.Fatalf("no ValidationException beside the form:\n%s", body)
	}
	for _, want := range []string{`value="SK = :v"`, `value="note &lt;&gt; :v"`, `{&#34;:v&#34;: {&#34;S&#34;: &#34;&lt;b&gt;x&lt;/b&gt;&#34;}}</textarea>`} {
		if !strings.Contains(body, want) {
			t.Errorf("form lacks %s", want)
		}
	}
	if strings.Contains(body, "<b>x") {
		t.Errorf("a typed value reached the page unescaped")
	}
}

func TestQueryRefusesBadJSONAndLimitBeforeCallingTheAPI(t *testing.T) {
	srv, _ := newServer(t)
	for field, bad := range map[string]string{"names": `{"#a": 1}`, "values": `{":v": "plain"}`, "limit": "0", "start": "!!"} {
		v := userOrders()
		v.Set(field, bad)
		status, _, body := get(t, srv.URL+queryPath(v))
		if status != http.StatusBadRequest || errorRe.FindString(body) == "" || sdkRe.FindString(body) != "" {
			t.Errorf("%s=%s: %d, want 400 with the error and no request sent\n%s", field, bad, status, body)
		}
	}
}

func TestQueryFormOpensEmptyAndIsLinkedFromCollections(t *testing.T) {
	srv, _ := newServer(t)
	status, _, body := get(t, srv.URL+"/console/tables/Market/query?index=ByPlace")
	if status != http.StatusOK || !strings.Contains(body, `<option value="ByPlace" selected>`) || strings.Contains(body, `id="q-sdk"`) {
		t.Errorf("empty form: %d, want the form with ByPlace chosen and no request\n%s", status, body)
	}
	_, _, body = get(t, srv.URL+"/console/tables/Market/indexes/GSI1")
	if !strings.Contains(body, `href="/console/tables/Market/query?index=GSI1"`) {
		t.Errorf("index page does not link to its query")
	}
	if status, _, _ := get(t, srv.URL+"/console/tables/Nope/query"); status != http.StatusNotFound {
		t.Errorf("query of a missing table: %d, want 404", status)
	}
}

// The CLI command, run for real against the test server, answers the same
// items the page shows.
func TestQueryCLICommandRuns(t *testing.T) {
	srv, _ := newServer(t)
	v := userOrders()
	v.Set("direction", "backward")
	v.Set("names", `{"#n": "it's"}`)
	v.Set("filter", "attribute_not_exists(#n)")
	_, _, body := get(t, srv.URL+queryPath(v))
	m := cliRe.FindStringSubmatch(body)
	if m == nil {
		t.Fatalf("no CLI command:\n%s", body)
	}
	cmd := html.UnescapeString(m[1])
	for _, want := range []string{"aws dynamodb query --endpoint-url " + srv.URL + " --table-name Market",
		`--key-condition-expression 'PK = :pk AND begins_with(SK, :o)'`, `--expression-attribute-names '{"#n":"it'\''s"}'`,
		"--no-scan-index-forward --limit 100 --return-consumed-capacity TOTAL"} {
		if !strings.Contains(cmd, want) {
			t.Errorf("command lacks %s:\n%s", want, cmd)
		}
	}
	if _, err := exec.LookPath("aws"); err != nil {
		return // the text is checked; running it needs the AWS CLI
	}
	sh := exec.Command("sh", "-c", cmd+" --output json")
	sh.Env = append(sh.Environ(), "AWS_ACCESS_KEY_ID=x", "AWS_SECRET_ACCESS_KEY=x", "AWS_DEFAULT_REGION=us-east-1",
		"AWS_CONFIG_FILE=/dev/null", "AWS_SHARED_CREDENTIALS_FILE=/dev/null")
	out, err := sh.Output()
	if err != nil {
		t.Fatalf("%s: %v", cmd, err)
	}
	var got struct {
		Items []map[string]map[string]any
	}
	if err := json.Unmarshal(out, &got); err != nil || len(got.Items) != 2 || got.Items[0]["SK"]["S"] != "ORDER#2024-02" {
		t.Errorf("CLI answered %s (%v), want u2's orders newest first", out, err)
	}
}

// A person fills in the form, runs it, and sees the items and what the
// query cost.
func TestBrowserQuery(t *testing.T) {
	srv, _ := newServer(t)
	ctx := tab(t)
	w := watchTab(t, ctx)
	open(t, ctx, srv.URL+"/console/tables/Market")
	clickThrough(t, ctx, "a#query-link")
	err := chromedp.Do(ctx,
		chromedp.SetValue(chromedp.CSS("#q-index"), "GSI1"),
		chromedp.SendKeys(chromedp.CSS("#q-key"), "GSI1PK = :s"),
		chromedp.SendKeys(chromedp.CSS("#q-values"), `{":s": {"S": "STATUS#SHIPPED"}}`),
		chromedp.SetValue(chromedp.CSS("#q-direction"), "backward"))
	if err != nil {
		t.Fatal(err)
	}
	clickThrough(t, ctx, "#q-run")
	if n := count(t, ctx, "#items td:first-child"); n != 3 {
		t.Errorf("%d items, want the 3 shipped orders", n)
	}
	if c := text(t, ctx, "#q-capacity"); c == "" || c == "not reported" {
		t.Errorf("capacity %q, want units", c)
	}
	if cli := text(t, ctx, "#q-cli"); !strings.Contains(cli, "--index-name GSI1") {
		t.Errorf("CLI command %q lacks the index", cli)
	}
	loc := get1(t, ctx, chromedp.Location())
	if !strings.Contains(loc, "direction=backward") || !strings.Contains(loc, "key=GSI1PK") {
		t.Errorf("result URL %s does not carry the query", loc)
	}
	shoot(t, ctx, "query")
	checkTraffic(t, w, srv.URL)
}
