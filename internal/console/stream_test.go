package console_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
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

// imgValue is a stored value that must show as text on the stream page.
const imgValue = "<img src=x onerror=alert(1)>"

// newStreamServer is a sortkey with table Feed, its stream on with both
// images, and three writes to one item: a put, an update and a delete.
func newStreamServer(t testing.TB) (*sortkeytest.Server, *dynamodb.Client) {
	t.Helper()
	srv := sortkeytest.NewWithOptions(t, &sortkey.Options{Console: true})
	c := dynamodb.NewFromConfig(srv.AWSConfig())
	ctx := context.Background()
	_, err := c.CreateTable(ctx, &dynamodb.CreateTableInput{TableName: aws.String("Feed"), BillingMode: types.BillingModePayPerRequest,
		KeySchema:            []types.KeySchemaElement{key("id", types.KeyTypeHash)},
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("id"), AttributeType: types.ScalarAttributeTypeS}},
		StreamSpecification:  &types.StreamSpecification{StreamEnabled: aws.Bool(true), StreamViewType: types.StreamViewTypeNewAndOldImages}})
	if err != nil {
		t.Fatal(err)
	}
	feedPut(t, c, "a1", "first")
	if _, err := c.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String("Feed"), Key: map[string]types.AttributeValue{"id": s("a1")},
		UpdateExpression: aws.String("SET msg = :m"), ExpressionAttributeValues: map[string]types.AttributeValue{":m": s("second")}}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.DeleteItem(ctx, &dynamodb.DeleteItemInput{TableName: aws.String("Feed"), Key: map[string]types.AttributeValue{"id": s("a1")}}); err != nil {
		t.Fatal(err)
	}
	return srv, c
}

func feedPut(t testing.TB, c *dynamodb.Client, id, msg string) {
	t.Helper()
	if _, err := c.PutItem(context.Background(), &dynamodb.PutItemInput{TableName: aws.String("Feed"),
		Item: map[string]types.AttributeValue{"id": s(id), "msg": s(msg)}}); err != nil {
		t.Fatal(err)
	}
}

var recordRe = regexp.MustCompile(`<tr class="record" data-seq="(\d+)"><td class="num">\d+</td><td class="ev-\w+">(\w+)</td><td>[^<]+</td><td class="image">([^<]*)</td><td class="image">([^<]*)</td><td class="image">([^<]*)</td></tr>`)

func TestStreamPageShowsRecordsNewestFirstWithImages(t *testing.T) {
	srv, _ := newStreamServer(t)
	status, _, body := get(t, srv.URL+"/console/tables/Feed/stream")
	if status != http.StatusOK {
		t.Fatalf("%d\n%s", status, body)
	}
	var got []string
	for _, m := range recordRe.FindAllStringSubmatch(body, -1) {
		got = append(got, strings.Join(m[2:], " | "))
	}
	want := []string{
		`REMOVE | {&#34;id&#34;:&#34;a1&#34;} | {&#34;id&#34;:&#34;a1&#34;,&#34;msg&#34;:&#34;second&#34;} | `,
		`MODIFY | {&#34;id&#34;:&#34;a1&#34;} | {&#34;id&#34;:&#34;a1&#34;,&#34;msg&#34;:&#34;first&#34;} | {&#34;id&#34;:&#34;a1&#34;,&#34;msg&#34;:&#34;second&#34;}`,
		`INSERT | {&#34;id&#34;:&#34;a1&#34;} |  | {&#34;id&#34;:&#34;a1&#34;,&#34;msg&#34;:&#34;first&#34;}`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("records:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	for _, w := range []string{"NEW_AND_OLD_IMAGES", "Read 3 records", `id="refresh"`, `src="/console/static/tail.js"`} {
		if !strings.Contains(body, w) {
			t.Errorf("stream page lacks %q", w)
		}
	}
}

type recordsAnswer struct {
	Records []struct{ Seq, Event, Keys, Old, New string }
	Error   string
}

func records(t *testing.T, rawURL string) (int, recordsAnswer) {
	t.Helper()
	status, h, body := get(t, rawURL)
	var a recordsAnswer
	if err := json.Unmarshal([]byte(body), &a); err != nil || h.Get("Content-Type") != "application/json" {
		t.Fatalf("%s: not JSON (%v): %s", rawURL, err, body)
	}
	return status, a
}

func TestStreamRecordsAfterASequenceNumber(t *testing.T) {
	srv, c := newStreamServer(t)
	base := srv.URL + "/console/tables/Feed/stream/records"
	_, all := records(t, base+"?after=")
	if len(all.Records) != 3 || all.Records[0].Event != "INSERT" || all.Records[2].Event != "REMOVE" {
		t.Fatalf("all records %+v, want INSERT, MODIFY, REMOVE oldest first", all.Records)
	}
	status, after := records(t, base+"?after="+all.Records[0].Seq)
	if status != http.StatusOK || len(after.Records) != 2 || after.Records[0].Seq != all.Records[1].Seq || after.Records[1].Event != "REMOVE" {
		t.Errorf("after the first: %d %+v, want the MODIFY and the REMOVE", status, after.Records)
	}
	if _, none := records(t, base+"?after="+all.Records[2].Seq); len(none.Records) != 0 {
		t.Errorf("after the last: %+v, want none", none.Records)
	}
	feedPut(t, c, "b2", imgValue)
	_, fresh := records(t, base+"?after="+all.Records[2].Seq)
	if len(fresh.Records) != 1 || fresh.Records[0].Event != "INSERT" || !strings.Contains(fresh.Records[0].New, imgValue) {
		t.Errorf("after a new put: %+v, want its INSERT with the value as written", fresh.Records)
	}
	for _, q := range []string{"x", "12a", strings.Repeat("9", 41)} {
		if status, a := records(t, base+"?after="+q); status != http.StatusBadRequest || !strings.Contains(a.Error, "digits only") {
			t.Errorf("after=%s: %d %q, want 400", q, status, a.Error)
		}
	}
}

func TestStreamPageOfATableWithoutAStream(t *testing.T) {
	srv, _ := newServer(t)
	status, _, body := get(t, srv.URL+"/console/tables/Market/stream")
	if status != http.StatusOK || !strings.Contains(body, `id="no-stream"`) || strings.Contains(body, "tail.js") {
		t.Errorf("stream page of Market: %d\n%s", status, body)
	}
	if _, _, page := get(t, srv.URL+"/console/tables/Market"); strings.Contains(page, "/stream") {
		t.Errorf("table page links a stream though there is none")
	}
	if status, a := records(t, srv.URL+"/console/tables/Market/stream/records"); status != http.StatusBadRequest || !strings.Contains(a.Error, "no stream") {
		t.Errorf("records of Market: %d %q", status, a.Error)
	}
	if status, _, _ := get(t, srv.URL+"/console/tables/Nope/stream"); status != http.StatusNotFound {
		t.Errorf("stream page of a missing table: %d, want 404", status)
	}
	if status, _ := records(t, srv.URL+"/console/tables/Nope/stream/records"); status != http.StatusNotFound {
		t.Errorf("records of a missing table: %d, want 404", status)
	}
}

// Reading the stream changes nothing: the page and the endpoint read
// the same records however often they are opened.
func TestStreamReadsChangeNothing(t *testing.T) {
	srv, _ := newStreamServer(t)
	_, first := records(t, srv.URL+"/console/tables/Feed/stream/records")
	get(t, srv.URL+"/console/tables/Feed/stream")
	_, again := records(t, srv.URL+"/console/tables/Feed/stream/records")
	if len(first.Records) != 3 || len(again.Records) != 3 || first.Records[2].Seq != again.Records[2].Seq {
		t.Errorf("records changed by reading: %+v then %+v", first.Records, again.Records)
	}
}

// A person opens the stream page from the table page, writes an item, and
// watches its record arrive; the stored markup shows as text.
func TestBrowserWatchesAStreamRecordArrive(t *testing.T) {
	srv, c := newStreamServer(t)
	ctx := tab(t)
	w := watchTab(t, ctx)
	open(t, ctx, srv.URL+"/console/tables/Feed")
	clickThrough(t, ctx, "a#stream-link")
	if n := count(t, ctx, "#records tr.record"); n != 3 {
		t.Fatalf("%d records at load, want 3", n)
	}
	if err := chromedp.Do(ctx, chromedp.WaitVisible(`#tail-status`)); err != nil {
		t.Fatal(err)
	}
	feedPut(t, c, "live-1", imgValue)
	wait, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	if err := chromedp.Do(wait, chromedp.WaitVisible(`#records tbody tr.live:first-child`)); err != nil {
		t.Fatalf("the new record never appeared: %v", err)
	}
	row := text(t, ctx, "#records tbody tr.live:first-child")
	if !strings.Contains(row, "INSERT") || !strings.Contains(row, "live-1") || !strings.Contains(row, imgValue) {
		t.Errorf("new row %q, want the INSERT of live-1 with its value as text", row)
	}
	if n := count(t, ctx, "main img"); n != 0 {
		t.Errorf("%d img elements in the page", n)
	}
	shoot(t, ctx, "stream")
	checkTraffic(t, w, srv.URL)
}

func TestStreamPageShowsMarkupAsText(t *testing.T) {
	srv, c := newStreamServer(t)
	feedPut(t, c, "b2", imgValue)
	_, _, body := get(t, srv.URL+"/console/tables/Feed/stream")
	if strings.Contains(body, "<img") || !strings.Contains(body, "&lt;img src=x onerror=alert(1)&gt;") {
		t.Errorf("the stored markup is not shown as text")
	}
}

// One poll reads at most 100 records; the next poll, after the last one
// read, gets the rest.
func TestStreamPollIsBounded(t *testing.T) {
	srv, c := newStreamServer(t)
	for i := 0; i < 150; i += 25 {
		var reqs []types.WriteRequest
		for j := i; j < i+25; j++ {
			reqs = append(reqs, types.WriteRequest{PutRequest: &types.PutRequest{Item: map[string]types.AttributeValue{"id": s(fmt.Sprint("bulk-", j))}}})
		}
		if _, err := c.BatchWriteItem(context.Background(), &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{"Feed": reqs}}); err != nil {
			t.Fatal(err)
		}
	}
	base := srv.URL + "/console/tables/Feed/stream/records?after="
	_, first := records(t, base)
	if len(first.Records) != 100 {
		t.Fatalf("first poll read %d records, want the bound of 100", len(first.Records))
	}
	_, rest := records(t, base+first.Records[99].Seq)
	if len(rest.Records) != 53 {
		t.Errorf("second poll read %d records, want the other 53", len(rest.Records))
	}
	_, _, body := get(t, srv.URL+"/console/tables/Feed/stream")
	if n := len(recordRe.FindAllString(body, -1)); n != 100 || !strings.Contains(body, "Read 153 records") {
		t.Errorf("page shows %d rows, want the newest 100 of the 153 read", n)
	}
}
