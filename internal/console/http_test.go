package console_test

import (
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/sortkeydb/sortkey"
	"github.com/sortkeydb/sortkey/sortkeytest"
)

// noRedirect reads answers as they are, redirects included.
var noRedirect = &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}

func get(t *testing.T, rawURL string) (int, http.Header, string) {
	t.Helper()
	return do(t, http.MethodGet, rawURL)
}

func do(t *testing.T, method, rawURL string) (int, http.Header, string) {
	t.Helper()
	req, err := http.NewRequest(method, rawURL, nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := noRedirect.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, resp.Header, string(b)
}

var (
	partitionRe = regexp.MustCompile(`<tr class="partition"><th colspan="\d+">(.*?) <span`)
	cellRe      = regexp.MustCompile(`<td[^>]*>(.*?)</td>`)
	rowRe       = regexp.MustCompile(`(?s)<tr>(<td.*?)</tr>`)
	headRe      = regexp.MustCompile(`<th>(.*?)</th>`)
	nextRe      = regexp.MustCompile(`<a id="next" href="([^"]+)"`)
)

func partitions(body string) []string {
	var out []string
	for _, m := range partitionRe.FindAllStringSubmatch(body, -1) {
		out = append(out, m[1])
	}
	return out
}

// rows are the items of a page, each as its cells' text.
func rows(body string) [][]string {
	var out [][]string
	for _, r := range rowRe.FindAllStringSubmatch(body, -1) {
		var cells []string
		for _, c := range cellRe.FindAllStringSubmatch(r[1], -1) {
			cells = append(cells, c[1])
		}
		out = append(out, cells)
	}
	return out
}

func TestTableListShowsEveryTableWithItsShape(t *testing.T) {
	srv, c := newServer(t)
	loadItems(t, c, 30)
	status, _, body := get(t, srv.URL+"/console/")
	if status != http.StatusOK {
		t.Fatalf("GET /console/: %d\n%s", status, body)
	}
	for _, want := range []string{`href="/console/tables/Market"`, `href="/console/tables/Big"`,
		"PK (HASH), SK (RANGE)", `href="/console/tables/Market/indexes/GSI1"`, ">ByPlace<", "PAY_PER_REQUEST",
		`<td class="num">9</td>`, `<td class="num">30</td>`} {
		if !strings.Contains(body, want) {
			t.Errorf("table list lacks %q:\n%s", want, body)
		}
	}
}

func TestItemCollectionsGroupByPartitionInSortKeyOrder(t *testing.T) {
	srv, _ := newServer(t)
	_, _, body := get(t, srv.URL+"/console/tables/Market")
	got := partitions(body)
	if len(got) != 3 {
		t.Fatalf("partitions %q, want the three users", got)
	}
	heads := headRe.FindAllStringSubmatch(body, 3)
	if heads[0][1] != "PK" || heads[1][1] != "SK" {
		t.Errorf("columns start %q %q, want the key attributes PK, SK", heads[0][1], heads[1][1])
	}
	rs := rows(body)
	if len(rs) != 9 {
		t.Fatalf("%d rows, want 9 items", len(rs))
	}
	for i := 0; i < 9; i += 3 {
		sks := []string{rs[i][1], rs[i+1][1], rs[i+2][1]}
		if sks[0] != "ORDER#2024-01" || sks[1] != "ORDER#2024-02" || sks[2] != "PROFILE" {
			t.Errorf("partition %d sort keys %q, want them in order", i/3, sks)
		}
	}
	for _, want := range []string{`title="N">11.5<`, `[{&#34;qty&#34;:2,&#34;sku&#34;:&#34;SKU-1&#34;}]`, `[&#34;gold&#34;,&#34;vip&#34;]`} {
		if !strings.Contains(body, want) {
			t.Errorf("page lacks value %s", want)
		}
	}
}

func TestScriptValueIsText(t *testing.T) {
	srv, _ := newServer(t)
	_, _, body := get(t, srv.URL+"/console/tables/Market")
	if strings.Contains(body, scriptValue) || strings.Contains(body, "<script") {
		t.Fatalf("page holds a script element")
	}
	if !strings.Contains(body, "&lt;script&gt;alert(1)&lt;/script&gt;") {
		t.Fatalf("the script value is not shown as text")
	}
}

func TestSparseIndexShowsOnlyWhatItHolds(t *testing.T) {
	srv, _ := newServer(t)
	status, _, body := get(t, srv.URL+"/console/tables/Market/indexes/GSI1")
	if status != http.StatusOK {
		t.Fatalf("%d\n%s", status, body)
	}
	if got := partitions(body); len(got) != 2 || got[0] == got[1] {
		t.Errorf("partitions %q, want STATUS#OPEN and STATUS#SHIPPED", got)
	}
	rs := rows(body)
	if len(rs) != 6 {
		t.Errorf("%d rows, want the 6 orders and no profile", len(rs))
	}
	for _, r := range rs {
		if !strings.HasPrefix(r[0], "STATUS#") || r[3] == "PROFILE" {
			t.Errorf("row %q is not an order under its GSI1 key", r)
		}
	}
	if !strings.Contains(body, "The table has 9 items; this index holds 6") {
		t.Errorf("page does not compare the table's items with the index's:\n%s", body)
	}
}

func TestIndexOnTwoPartitionAttributesGroupsByBoth(t *testing.T) {
	srv, _ := newServer(t)
	_, _, body := get(t, srv.URL+"/console/tables/Market/indexes/ByPlace")
	got := partitions(body)
	if len(got) != 2 {
		t.Fatalf("partitions %q, want acme · eu-0 and acme · eu-1", got)
	}
	for _, p := range got {
		if p != "acme · eu-0" && p != "acme · eu-1" {
			t.Errorf("partition %q is not tenant · region", p)
		}
	}
}

// Following Next links pages through every item once, a page at a time.
func TestPagingVisitsEveryItemOnce(t *testing.T) {
	srv, _ := newServer(t)
	seen := map[string]bool{}
	next, pages := "/console/tables/Market?limit=2", 0
	for next != "" && pages < 20 {
		status, _, body := get(t, srv.URL+strings.ReplaceAll(next, "&amp;", "&"))
		if status != http.StatusOK {
			t.Fatalf("%s: %d\n%s", next, status, body)
		}
		pages++
		rs := rows(body)
		if len(rs) > 2 {
			t.Fatalf("page of %d items, limit 2", len(rs))
		}
		for _, r := range rs {
			id := r[0] + "/" + r[1]
			if seen[id] {
				t.Errorf("item %s on two pages", id)
			}
			seen[id] = true
		}
		next = ""
		if m := nextRe.FindStringSubmatch(body); m != nil {
			next = m[1]
		}
	}
	if len(seen) != 9 || pages < 5 {
		t.Errorf("%d items over %d pages, want 9 over at least 5", len(seen), pages)
	}
}

func TestBadPagingIsRefused(t *testing.T) {
	srv, _ := newServer(t)
	bad := url.QueryEscape(`eyJQSyI6eyJTIjoiVVNFUiN1MSJ9fQ`) // {"PK":{"S":"USER#u1"}}: no sort key
	for _, q := range []string{"limit=0", "limit=1001", "limit=x", "start=!!!", "start=" + bad} {
		status, _, body := get(t, srv.URL+"/console/tables/Market?"+q)
		if status != http.StatusBadRequest || !strings.Contains(body, `class="error"`) {
			t.Errorf("?%s: %d, want a 400 page\n%s", q, status, body)
		}
	}
}

func TestUnknownPagesAre404WithTheAPIError(t *testing.T) {
	srv, _ := newServer(t)
	for path, want := range map[string]string{
		"/console/tables/Nope":                  "ResourceNotFoundException",
		"/console/tables/Market/indexes/Nope":   "ValidationException",
		"/console/elsewhere":                    "no console page",
		"/console/tables/Market/indexes/GSI1/x": "no console page",
	} {
		status, _, body := get(t, srv.URL+path)
		if status != http.StatusNotFound || !strings.Contains(body, want) {
			t.Errorf("%s: %d, want 404 naming %s\n%s", path, status, want, body)
		}
	}
}

func TestEveryPageSetsSecurityHeaders(t *testing.T) {
	srv, _ := newServer(t)
	for _, path := range []string{"/console/", "/console/tables/Market", "/console/tables/Market/indexes/GSI1",
		"/console/tables/Nope", "/console/static/console.css"} {
		_, h, _ := get(t, srv.URL+path)
		for name, want := range map[string]string{"Content-Security-Policy": "default-src 'self'",
			"X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer", "X-Frame-Options": "DENY"} {
			if got := h.Get(name); got != want {
				t.Errorf("%s: %s %q, want %q", path, name, got, want)
			}
		}
	}
}

func TestConsoleIsReadOnlyAndRedirectsItsRoot(t *testing.T) {
	srv, _ := newServer(t)
	if status, _, _ := do(t, http.MethodPost, srv.URL+"/console/tables/Market"); status != http.StatusMethodNotAllowed {
		t.Errorf("POST: %d, want 405", status)
	}
	status, h, _ := get(t, srv.URL+"/console")
	if status != http.StatusMovedPermanently || h.Get("Location") != "/console/" {
		t.Errorf("GET /console: %d to %q, want a redirect to /console/", status, h.Get("Location"))
	}
}

func TestConsoleOffServesNoPages(t *testing.T) {
	srv := sortkeytest.New(t)
	_, _, body := get(t, srv.URL+"/console/")
	if strings.Contains(body, "sortkey console") {
		t.Errorf("console served though it is off:\n%s", body)
	}
}

const authDoc = `{"account": "123456789012", "principals": [{"arn": "arn:aws:iam::123456789012:user/alice",
 "accessKeyId": "AKIDALICE", "secretAccessKey": "alice-secret",
 "policies": [{"Version": "2012-10-17", "Statement": [{"Effect": "Allow", "Action": "dynamodb:*", "Resource": "*"}]}]}]}`

// With access control on, a page without a session is a redirect to
// sign in, with the security headers and no data.
func TestAccessControlOnShowsNoDataWithoutSignIn(t *testing.T) {
	srv := sortkeytest.NewWithOptions(t, &sortkey.Options{Console: true, Auth: []byte(authDoc)})
	for _, path := range []string{"/console/", "/console/tables/Market", "/console/anything"} {
		status, h, _ := get(t, srv.URL+path)
		if status != http.StatusSeeOther || !strings.HasPrefix(h.Get("Location"), "/console/signin?") {
			t.Errorf("%s: %d to %q, want 303 to the sign-in form", path, status, h.Get("Location"))
		}
		if h.Get("Content-Security-Policy") == "" {
			t.Errorf("%s: no security headers", path)
		}
	}
}

// The API allows any origin (CORS), but console pages are for the
// console's own origin: no other site's script may read them.
func TestConsolePagesAllowNoOtherOrigin(t *testing.T) {
	srv, _ := newServer(t)
	req, _ := http.NewRequest(http.MethodGet, srv.URL+"/console/tables/Market", nil)
	req.Header.Set("Origin", "http://elsewhere.example")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if got := resp.Header.Get("Access-Control-Allow-Origin"); got != "" {
		t.Errorf("console page allows origin %q", got)
	}
}
