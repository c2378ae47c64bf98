package console_test

import (
	"context"
	"html"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/chromedp/chromedp"
	"github.com/sortkeydb/sortkey/sortkeytest"
)

var updRequestRe = regexp.MustCompile(`(?s)<pre class="request" id="u-request">(.*?)</pre>`)

const updPath = "/console/tables/Market/update"

// updateValues is Market's update form, with its token, filled with pairs.
func updateValues(t *testing.T, srv *sortkeytest.Server, pairs ...string) url.Values {
	t.Helper()
	_, _, body := get(t, srv.URL+updPath)
	return formValues(tableForm(t, body), pairs...)
}

func gsiNames(t *testing.T, c *dynamodb.Client) []string {
	t.Helper()
	var names []string
	for _, g := range tableExists(t, c, "Market").GlobalSecondaryIndexes {
		names = append(names, aws.ToString(g.IndexName))
	}
	return names
}

// Preview shows the UpdateTable request and changes nothing; Update adds
// the GSI, which DescribeTable then lists.
func TestUpdateTableAddsAGSI(t *testing.T) {
	srv, c := newServer(t)
	_, _, tablePage := get(t, srv.URL+"/console/tables/Market")
	if !strings.Contains(tablePage, `href="/console/tables/Market/update"`) {
		t.Fatal("table page has no update link")
	}
	v := updateValues(t, srv, "gsiname", "ByName", "gsipk", "name", "gsipktype", "S", "gsiproj", "ALL", "action", "preview")
	status, _, page := post(t, srv, updPath, v, nil)
	m := updRequestRe.FindStringSubmatch(page)
	if status != http.StatusOK || m == nil || !strings.Contains(html.UnescapeString(m[1]), `"IndexName": "ByName"`) {
		t.Fatalf("preview: %d, want the UpdateTable request shown\n%s", status, page)
	}
	if names := gsiNames(t, c); len(names) != 2 {
		t.Fatalf("preview changed the table: GSIs %v", names)
	}
	v.Set("action", "update")
	status, h, page := post(t, srv, updPath, v, nil)
	if status != http.StatusSeeOther || h.Get("Location") != "/console/tables/Market" {
		t.Fatalf("update: %d to %q\n%s", status, h.Get("Location"), page)
	}
	if names := gsiNames(t, c); !strings.Contains(strings.Join(names, ","), "ByName") {
		t.Fatalf("GSIs after update %v, want ByName", names)
	}
}

func TestUpdateTableDeletesAGSIAndProtects(t *testing.T) {
	srv, c := newServer(t)
	v := updateValues(t, srv, "dropgsi", "ByPlace", "protection", "on", "action", "update")
	if status, _, page := post(t, srv, updPath, v, nil); status != http.StatusSeeOther {
		t.Fatalf("update: %d\n%s", status, page)
	}
	d := tableExists(t, c, "Market")
	if names := gsiNames(t, c); strings.Contains(strings.Join(names, ","), "ByPlace") || !aws.ToBool(d.DeletionProtectionEnabled) {
		t.Fatalf("GSIs %v, protection %v; want ByPlace gone and protection on", names, aws.ToBool(d.DeletionProtectionEnabled))
	}
}

func TestUpdateTableStreamAndTTL(t *testing.T) {
	srv, c := newServer(t)
	v := updateValues(t, srv, "stream", "on", "viewtype", "NEW_IMAGE", "ttl", "on", "ttlattr", "expires", "action", "update")
	if status, _, page := post(t, srv, updPath, v, nil); status != http.StatusSeeOther {
		t.Fatalf("update: %d\n%s", status, page)
	}
	d := tableExists(t, c, "Market")
	if d.StreamSpecification == nil || !aws.ToBool(d.StreamSpecification.StreamEnabled) ||
		d.StreamSpecification.StreamViewType != types.StreamViewTypeNewImage {
		t.Fatalf("stream %+v, want NEW_IMAGE on", d.StreamSpecification)
	}
	ttl, err := c.DescribeTimeToLive(context.Background(), &dynamodb.DescribeTimeToLiveInput{TableName: aws.String("Market")})
	if err != nil {
		t.Fatal(err)
	}
	if got := ttl.TimeToLiveDescription; got.TimeToLiveStatus != types.TimeToLiveStatusEnabled || aws.ToString(got.AttributeName) != "expires" {
		t.Fatalf("TTL %+v, want enabled on expires", got)
	}
}

// DynamoDB's own error shows with the form as typed; a cross-site post
// is refused before anything is sent.
func TestUpdateTableErrors(t *testing.T) {
	srv, c := newServer(t)
	v := updateValues(t, srv, "gsiname", "GSI1", "gsipk", "name", "gsipktype", "S", "gsiproj", "ALL", "action", "update")
	status, _, page := post(t, srv, updPath, v, nil)
	if status != http.StatusBadRequest || !strings.Contains(page, `id="u-error"`) || !strings.Contains(page, "Exception") ||
		!strings.Contains(page, `id="u-gsipk" value="name"`) {
		t.Fatalf("duplicate GSI: %d, want DynamoDB's error with the form kept\n%s", status, page)
	}
	v = updateValues(t, srv, "action", "preview")
	if status, _, page = post(t, srv, updPath, v, nil); status != http.StatusBadRequest || !strings.Contains(page, "Nothing to change") {
		t.Fatalf("empty form: %d\n%s", status, page)
	}
	v = updateValues(t, srv, "protection", "on", "action", "update")
	status, _, page = post(t, srv, updPath, v, map[string]string{"Sec-Fetch-Site": "cross-site"})
	if status != http.StatusForbidden {
		t.Fatalf("cross-site: %d\n%s", status, page)
	}
	if d := tableExists(t, c, "Market"); aws.ToBool(d.DeletionProtectionEnabled) || len(d.GlobalSecondaryIndexes) != 2 {
		t.Fatalf("a refused update changed the table: %+v", d)
	}
}

// A person opens the update form, adds a GSI, and sees it on the table page.
func TestBrowserUpdatesATable(t *testing.T) {
	srv, _ := newServer(t)
	ctx := tab(t)
	w := watchTab(t, ctx)
	open(t, ctx, srv.URL+"/console/tables/Market")
	clickThrough(t, ctx, "#update-table-link")
	for sel, v := range map[string]string{"#u-gsiname": "ByName", "#u-gsipk": "name"} {
		if _, err := chromedp.Run(ctx, chromedp.SetValue(chromedp.CSS(sel), v)); err != nil {
			t.Fatal(err)
		}
	}
	clickThrough(t, ctx, "#u-preview")
	if !strings.Contains(text(t, ctx, "#u-request"), "ByName") {
		t.Fatalf("preview does not show the index\n%s", text(t, ctx, "main"))
	}
	shoot(t, ctx, "update")
	clickThrough(t, ctx, "#u-update")
	if loc := get1(t, ctx, chromedp.Location()); loc != srv.URL+"/console/tables/Market" {
		t.Fatalf("after update the browser is at %s\n%s", loc, text(t, ctx, "main"))
	}
	if count(t, ctx, `a[href="/console/tables/Market/indexes/ByName"]`) == 0 {
		t.Errorf("the table page does not list ByName\n%s", text(t, ctx, "main"))
	}
	checkTraffic(t, w, srv.URL)
}
