package console_test

import (
	"context"
	"encoding/json"
	"slices"
	"strconv"
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

// walk is one person's path through the console: a browser tab, the
// server it talks to, and an SDK client used only to load the sample and
// to check what the pages claim.
type walk struct {
	t     *testing.T
	ctx   context.Context
	srv   *sortkeytest.Server
	db    *dynamodb.Client
	seen  []*watch
	edit  string // the href of the item edited, to come back to it
	steps int
}

// The whole path a new user takes, in one browser: create a table with a
// GSI from the form, load the sample, see its item collections and the
// GSI's, query the GSI, edit an item, turn the stream on, and watch the
// next edit arrive on the stream tail. Each step asserts what the page
// shows, as the person would read it.
func TestConsoleWalkthrough(t *testing.T) {
	srv := sortkeytest.NewWithOptions(t, &sortkey.Options{Console: true})
	w := &walk{t: t, ctx: tab(t), srv: srv, db: dynamodb.NewFromConfig(srv.AWSConfig())}
	w.seen = append(w.seen, watchTab(t, w.ctx))
	w.do(w.ctx, chromedp.EmulateViewport(1200, 800))
	w.createTable()
	w.loadSample()
	w.seeCollections()
	w.seeIndex()
	w.runQuery()
	w.editItem()
	w.enableStream()
	w.watchTail()
	for _, seen := range w.seen {
		checkTraffic(t, seen, srv.URL)
	}
}

func (w *walk) do(ctx context.Context, actions ...chromedp.Action[chromedp.Void]) {
	w.t.Helper()
	if err := chromedp.Do(ctx, actions...); err != nil {
		w.t.Fatal(err)
	}
}

// shot saves the step's screenshot under -screenshots, numbered in order.
func (w *walk) shot(ctx context.Context, name string) {
	w.t.Helper()
	w.steps++
	shoot(w.t, ctx, "walk-"+strconv.Itoa(w.steps)+"-"+name)
}

const walkGSIs = `[{"IndexName": "GSI1", "KeySchema": [{"AttributeName": "GSI1PK", "KeyType": "HASH"},
 {"AttributeName": "GSI1SK", "KeyType": "RANGE"}], "Projection": {"ProjectionType": "ALL"}}]`

const walkDefs = `[{"AttributeName": "GSI1PK", "AttributeType": "S"}, {"AttributeName": "GSI1SK", "AttributeType": "S"}]`

// createTable: New table on the list, the form typed in, a preview of
// the request, then Create, which lands on the new, empty table.
func (w *walk) createTable() {
	open(w.t, w.ctx, w.srv.URL+"/console/")
	clickThrough(w.t, w.ctx, "a#new-table")
	w.do(w.ctx, chromedp.SendKeys(chromedp.CSS("#t-name"), "Market"),
		chromedp.SendKeys(chromedp.CSS("#t-pk"), "PK"), chromedp.SendKeys(chromedp.CSS("#t-sk"), "SK"),
		chromedp.SendKeys(chromedp.CSS("#t-gsis"), walkGSIs), chromedp.SendKeys(chromedp.CSS("#t-defs"), walkDefs))
	clickThrough(w.t, w.ctx, "#t-preview")
	if req := text(w.t, w.ctx, "#t-request"); !strings.Contains(req, `"IndexName": "GSI1"`) || !strings.Contains(req, `"KeyType": "RANGE"`) {
		w.t.Fatalf("preview shows %q, want the CreateTable request with GSI1", req)
	}
	w.shot(w.ctx, "create")
	shoot(w.t, w.ctx, "walkthrough") // docs/console-walkthrough.png: no other screenshot shows the create form
	clickThrough(w.t, w.ctx, "#t-create")
	if loc := get1(w.t, w.ctx, chromedp.Location()); loc != w.srv.URL+"/console/tables/Market" {
		w.t.Fatalf("after Create the browser is at %s\n%s", loc, text(w.t, w.ctx, "main"))
	}
	if main := text(w.t, w.ctx, "main"); !strings.Contains(main, "No items on this page") || count(w.t, w.ctx, `a.index-link`) != 1 {
		w.t.Fatalf("the new table's page does not show an empty table with GSI1\n%s", main)
	}
	if d := tableExists(w.t, w.db, "Market"); d == nil || len(d.GlobalSecondaryIndexes) != 1 {
		w.t.Fatalf("DescribeTable: %+v, want Market with one GSI", d)
	}
}

// loadSample writes the console tests' sample (seed_test.go: three users,
// each a profile and two orders) with BatchWriteItem, as a loader would:
// the console has no bulk load of its own.
func (w *walk) loadSample() {
	var reqs []types.WriteRequest
	for _, it := range marketItems() {
		reqs = append(reqs, types.WriteRequest{PutRequest: &types.PutRequest{Item: it}})
	}
	out, err := w.db.BatchWriteItem(context.Background(), &dynamodb.BatchWriteItemInput{
		RequestItems: map[string][]types.WriteRequest{"Market": reqs}})
	if err != nil || len(out.UnprocessedItems) > 0 {
		w.t.Fatalf("BatchWriteItem: %v, %d unprocessed", err, len(out.UnprocessedItems))
	}
}

// collection is one item collection as the page draws it: the partition
// header and the named column's values, top to bottom.
type collection struct {
	Key  string
	Sort []string
}

// collections reads the page's item collections, with sortCol's values.
func (w *walk) collections(ctx context.Context, sortCol string) []collection {
	w.t.Helper()
	js := `(() => {
	  const col = Array.from(document.querySelectorAll('#items thead th')).map(th => th.textContent).indexOf(` + quote(sortCol) + `);
	  return Array.from(document.querySelectorAll('#items tbody.collection')).map(b => ({
	    Key: b.querySelector('tr.partition th').firstChild.textContent.trim(),
	    Sort: Array.from(b.querySelectorAll('tr:not(.partition)')).map(r => col < 0 ? '' : r.cells[col].textContent)}));
	})()`
	return get1(w.t, ctx, chromedp.Evaluate[[]collection](js))
}

// checkGroups asserts the page shows exactly the collections want, each
// with its sort keys in order.
func (w *walk) checkGroups(got []collection, want map[string][]string) {
	w.t.Helper()
	if len(got) != len(want) {
		w.t.Errorf("%d item collections %+v, want %d", len(got), got, len(want))
	}
	for _, g := range got {
		if !slices.Equal(g.Sort, want[g.Key]) {
			w.t.Errorf("collection %q shows sort keys %q, want %q", g.Key, g.Sort, want[g.Key])
		}
	}
}

// seeCollections: the table page, reloaded, shows one collection per user,
// the orders then the profile (sort keys in order), and the stored
// <script> as text.
func (w *walk) seeCollections() {
	w.do(w.ctx, chromedp.Reload())
	want := map[string][]string{}
	for _, u := range []string{"u1", "u2", "u3"} {
		want["USER#"+u] = []string{"ORDER#2024-01", "ORDER#2024-02", "PROFILE"}
	}
	w.checkGroups(w.collections(w.ctx, "SK"), want)
	if summary := text(w.t, w.ctx, "p.summary"); !strings.Contains(summary, "9 items") {
		w.t.Errorf("summary %q, want 9 items", summary)
	}
	if !strings.Contains(text(w.t, w.ctx, "#items"), scriptValue) || count(w.t, w.ctx, "script") != 0 {
		w.t.Errorf("the stored <script> is not shown as text")
	}
	w.shot(w.ctx, "collections")
}

// seeIndex: GSI1 from the table page's views, each status a collection of
// its orders by date, and the profiles (no GSI1 keys) not in it.
func (w *walk) seeIndex() {
	clickThrough(w.t, w.ctx, `a.index-link[href="/console/tables/Market/indexes/GSI1"]`)
	w.checkGroups(w.collections(w.ctx, "GSI1SK"), map[string][]string{
		"STATUS#OPEN":    {"2024-01#u1", "2024-01#u2", "2024-01#u3"},
		"STATUS#SHIPPED": {"2024-02#u1", "2024-02#u2", "2024-02#u3"},
	})
	if summary := text(w.t, w.ctx, "p.summary"); !strings.Contains(summary, "The table has 9 items; this index holds 6") {
		w.t.Errorf("index summary %q, want 9 in the table and 6 in GSI1", summary)
	}
	w.shot(w.ctx, "index")
}

// runQuery: from the index page to the query builder, the open orders by
// key condition, newest first; the page shows them, the counts and the
// capacity consumed.
func (w *walk) runQuery() {
	clickThrough(w.t, w.ctx, "a#query-link")
	w.do(w.ctx, chromedp.SendKeys(chromedp.CSS("#q-key"), "GSI1PK = :s"),
		chromedp.SendKeys(chromedp.CSS("#q-values"), `{":s": {"S": "STATUS#OPEN"}}`),
		chromedp.SetValue(chromedp.CSS("#q-direction"), "backward"))
	clickThrough(w.t, w.ctx, "#q-run")
	w.checkGroups(w.collections(w.ctx, "GSI1SK"), map[string][]string{
		"STATUS#OPEN": {"2024-01#u3", "2024-01#u2", "2024-01#u1"}})
	if n, scanned := text(w.t, w.ctx, "#q-count"), text(w.t, w.ctx, "#q-scanned"); n != "3" || scanned != "3" {
		w.t.Errorf("Count %s, ScannedCount %s, want 3 and 3", n, scanned)
	}
	if c := text(w.t, w.ctx, "#q-capacity"); c == "" || c == "0" || c == "not reported" {
		w.t.Errorf("consumed capacity %q, want the units", c)
	}
	if cli := text(w.t, w.ctx, "#q-cli"); !strings.Contains(cli, "--index-name GSI1") || !strings.Contains(cli, "--no-scan-index-forward") {
		w.t.Errorf("CLI command %q, want the index and the direction", cli)
	}
	w.shot(w.ctx, "query")
}

// editItem: back to the table, the first item's edit page, a status
// added in the JSON, Save, and the collection shows it.
func (w *walk) editItem() {
	clickThrough(w.t, w.ctx, `nav.crumbs a[href="/console/tables/Market"]`)
	w.edit = get1(w.t, w.ctx, chromedp.Evaluate[string](`document.querySelector('a.edit-link').getAttribute('href')`))
	clickThrough(w.t, w.ctx, "a.edit-link")
	w.setStatus(w.ctx, "PACKED")
	w.shot(w.ctx, "item")
	clickThrough(w.t, w.ctx, "#item-save")
	if loc := get1(w.t, w.ctx, chromedp.Location()); loc != w.srv.URL+"/console/tables/Market" {
		w.t.Fatalf("after Save the browser is at %s\n%s", loc, text(w.t, w.ctx, "main"))
	}
	if n := get1(w.t, w.ctx, chromedp.Evaluate[int](`Array.from(document.querySelectorAll('#items td')).filter(td => td.textContent === 'PACKED').length`)); n != 1 {
		w.t.Errorf("%d cells show PACKED on the collection page, want the edited item's", n)
	}
}

// setStatus sets the item form's status attribute, keeping the rest of
// the item as loaded, as a person editing the JSON would.
func (w *walk) setStatus(ctx context.Context, status string) {
	w.t.Helper()
	var it map[string]json.RawMessage
	if err := json.Unmarshal([]byte(get1(w.t, ctx, chromedp.Value(chromedp.CSS("#item-text")))), &it); err != nil {
		w.t.Fatalf("the item form does not hold a JSON object: %v", err)
	}
	it["status"] = json.RawMessage(`{"S": "` + status + `"}`)
	edited, _ := json.MarshalIndent(it, "", "  ")
	w.do(ctx, chromedp.SetValue(chromedp.CSS("#item-text"), string(edited)))
}

// enableStream: the update form, stream on with both images, Update, and
// the table page links the stream.
func (w *walk) enableStream() {
	clickThrough(w.t, w.ctx, "#update-table-link")
	w.do(w.ctx, chromedp.SetValue(chromedp.CSS("#u-stream"), "on"),
		chromedp.SetValue(chromedp.CSS("#u-viewtype"), "NEW_AND_OLD_IMAGES"))
	w.shot(w.ctx, "update")
	clickThrough(w.t, w.ctx, "#u-update")
	if link := text(w.t, w.ctx, "p.stream-link"); !strings.Contains(link, "NEW_AND_OLD_IMAGES") {
		w.t.Fatalf("the table page shows no stream after the update\n%s", text(w.t, w.ctx, "main"))
	}
}

// watchTail: the stream tail, empty, live; the same item edited again in a
// second tab; the tail shows the MODIFY with both images as it arrives.
func (w *walk) watchTail() {
	clickThrough(w.t, w.ctx, "a#stream-link")
	if n := count(w.t, w.ctx, "#records tr.record"); n != 0 {
		w.t.Fatalf("%d records before any write with the stream on", n)
	}
	w.do(w.ctx, chromedp.Poll[chromedp.Void](`document.getElementById('tail-status').textContent.startsWith('Live')`,
		chromedp.WithPollingTimeout(10*time.Second)))
	other, cancel := chromedp.NewContext(w.ctx)
	defer cancel()
	w.seen = append(w.seen, watchTab(w.t, other))
	open(w.t, other, w.srv.URL+w.edit)
	w.setStatus(other, "SHIPPED")
	clickThrough(w.t, other, "#item-save")
	w.do(w.ctx, chromedp.Poll[chromedp.Void](`!!document.querySelector('#records tbody tr.live')`,
		chromedp.WithPollingTimeout(10*time.Second)))
	row := get1(w.t, w.ctx, chromedp.Evaluate[[]string](
		`Array.from(document.querySelector('#records tbody tr.live').cells).map(c => c.textContent)`))
	if len(row) != 6 || row[1] != "MODIFY" || !strings.Contains(row[4], `"PACKED"`) || !strings.Contains(row[5], `"SHIPPED"`) {
		w.t.Errorf("the new stream row is %q, want a MODIFY from PACKED to SHIPPED", row)
	}
	w.shot(w.ctx, "stream")
	w.checkStored("SHIPPED")
}

// checkStored: one item, the one edited, holds status, as the pages said.
func (w *walk) checkStored(status string) {
	w.t.Helper()
	out, err := w.db.Scan(context.Background(), &dynamodb.ScanInput{TableName: aws.String("Market"),
		FilterExpression: aws.String("#s = :s"), ExpressionAttributeNames: map[string]string{"#s": "status"},
		ExpressionAttributeValues: map[string]types.AttributeValue{":s": s(status)}})
	if err != nil {
		w.t.Fatal(err)
	}
	if len(out.Items) != 1 {
		w.t.Errorf("%d items hold status %s, want the one edited", len(out.Items), status)
	}
}
