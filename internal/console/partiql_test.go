package console_test

import (
	"html"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/sortkeydb/sortkey/sortkeytest"
)

var (
	pErrorRe = regexp.MustCompile(`(?s)<p class="error" id="p-error">(.*?)</p>`)
	pTextRe  = regexp.MustCompile(`(?s)<textarea name="statement" id="p-statement"[^>]*>(.*?)</textarea>`)
	pCLIRe   = regexp.MustCompile(`(?s)<pre class="request" id="p-cli">(.*?)</pre>`)
	pTokenRe = regexp.MustCompile(`<input type="hidden" name="csrf" value="([^"]*)">`)
)

// runStatement opens the editor as a browser would, then posts the form.
func runStatement(t *testing.T, srv *sortkeytest.Server, statement, params string, limit ...string) (int, string) {
	t.Helper()
	status, _, body := get(t, srv.URL+"/console/partiql")
	m := pTokenRe.FindStringSubmatch(body)
	if status != http.StatusOK || m == nil {
		t.Fatalf("editor page: %d\n%s", status, body)
	}
	v := url.Values{"csrf": {html.UnescapeString(m[1])}, "statement": {statement}, "parameters": {params}, "limit": limit}
	status, _, body = post(t, srv, "/console/partiql", v, nil)
	return status, body
}

func TestPartiQLSelectByKeyGroupsByPartition(t *testing.T) {
	srv, _ := newServer(t)
	status, body := runStatement(t, srv, `SELECT * FROM "Market" WHERE PK = 'USER#u2'`, "")
	if status != http.StatusOK {
		t.Fatalf("status %d\n%s", status, body)
	}
	if got := partitions(body); len(got) != 1 || got[0] != "USER#u2" {
		t.Errorf("partitions %q, want USER#u2 only", got)
	}
	if got := len(rows(body)); got != 3 {
		t.Errorf("%d rows, want the profile and two orders", got)
	}
	if !strings.Contains(body, `<span id="p-capacity">`) || strings.Contains(body, "not reported") {
		t.Errorf("consumed capacity not shown")
	}
	cli := html.UnescapeString(pCLIRe.FindStringSubmatch(body)[1])
	want := `aws dynamodb execute-statement --endpoint-url ` + srv.URL + ` --statement 'SELECT * FROM "Market" WHERE PK = '\''USER#u2'\''' --return-consumed-capacity TOTAL`
	if cli != want {
		t.Errorf("CLI\n%s\nwant\n%s", cli, want)
	}
}

func TestPartiQLSelectWithParameter(t *testing.T) {
	srv, _ := newServer(t)
	status, body := runStatement(t, srv, `SELECT * FROM "Market" WHERE PK = ? AND SK = ?`, `[{"S": "USER#u1"}, {"S": "PROFILE"}]`)
	if status != http.StatusOK || len(rows(body)) != 1 || !strings.Contains(body, "User 1") {
		t.Fatalf("status %d, %d rows, want User 1's profile\n%s", status, len(rows(body)), body)
	}
	if cli := html.UnescapeString(pCLIRe.FindStringSubmatch(body)[1]); !strings.Contains(cli, `--parameters '[{"S":"USER#u1"},{"S":"PROFILE"}]'`) {
		t.Errorf("CLI lacks the parameters: %s", cli)
	}
}

func TestPartiQLInsertThenSelect(t *testing.T) {
	srv, _ := newServer(t)
	status, body := runStatement(t, srv, `INSERT INTO "Market" VALUE {'PK': 'USER#u9', 'SK': 'PROFILE', 'name': 'Nine'}`, "")
	if status != http.StatusOK {
		t.Fatalf("insert: %d\n%s", status, body)
	}
	_, body = runStatement(t, srv, `SELECT name FROM "Market" WHERE PK = ?`, `[{"S": "USER#u9"}]`)
	if got := rows(body); len(got) != 1 || !strings.Contains(strings.Join(got[0], " "), "Nine") {
		t.Errorf("select after insert shows %q", got)
	}
}

func TestPartiQLSyntaxErrorKeepsTheText(t *testing.T) {
	srv, _ := newServer(t)
	stmt := `SELEC * FROM "Market" <b>`
	status, body := runStatement(t, srv, stmt, "")
	m := pErrorRe.FindStringSubmatch(body)
	if status != http.StatusBadRequest || m == nil || !strings.Contains(m[1], "ValidationException") {
		t.Fatalf("status %d, error %q, want a ValidationException beside the form", status, m)
	}
	if got := html.UnescapeString(pTextRe.FindStringSubmatch(body)[1]); got != stmt {
		t.Errorf("statement kept as %q, want %q", got, stmt)
	}
	if strings.Contains(body, "<b>") {
		t.Errorf("the statement is not escaped")
	}
	_, body = runStatement(t, srv, `SELECT * FROM "Market"`, `{"S": "x"}`)
	if m := pErrorRe.FindStringSubmatch(body); m == nil || !strings.Contains(html.UnescapeString(m[1]), "JSON array") {
		t.Errorf("bad parameters not explained: %q", m)
	}
}

func TestPartiQLRefusesCrossSitePost(t *testing.T) {
	srv, c := newServer(t)
	_, _, body := get(t, srv.URL+"/console/partiql")
	v := url.Values{"csrf": {html.UnescapeString(pTokenRe.FindStringSubmatch(body)[1])},
		"statement": {`DELETE FROM "Market" WHERE PK = 'USER#u1' AND SK = 'PROFILE'`}}
	status, _, _ := post(t, srv, "/console/partiql", v, map[string]string{"Sec-Fetch-Site": "cross-site", "Origin": "http://evil.example"})
	if status != http.StatusForbidden {
		t.Errorf("cross-site POST: %d, want 403", status)
	}
	v.Set("csrf", "forged")
	if status, _, _ := post(t, srv, "/console/partiql", v, nil); status != http.StatusForbidden {
		t.Errorf("forged token: %d, want 403", status)
	}
	if it := getItem(t, c, "USER#u1", "PROFILE"); it == nil {
		t.Errorf("the refused DELETE deleted the item")
	}
}

func TestPartiQLNextPageRepostsTheToken(t *testing.T) {
	srv, c := newServer(t)
	loadItems(t, c, 50)
	_, body := runStatement(t, srv, `SELECT * FROM "Big"`, "", "20")
	seen, pages := len(rows(body)), 1
	for ; strings.Contains(body, `id="p-next-form"`) && pages < 10; pages++ {
		v := form(t, strings.ReplaceAll(body, `id="p-next-form"`, `id="item-form"`), "item-form")
		_, _, body = post(t, srv, "/console/partiql", v, nil)
		seen += len(rows(body))
	}
	if seen != 50 || pages < 3 {
		t.Errorf("paging saw %d items on %d pages, want 50 on at least 3", seen, pages)
	}
}

// A person opens the editor from the table list, types a SELECT and sees the rows.
func TestBrowserRunsPartiQL(t *testing.T) {
	srv, _ := newServer(t)
	ctx := tab(t)
	w := watchTab(t, ctx)
	open(t, ctx, srv.URL+"/console/")
	clickThrough(t, ctx, "#partiql-link")
	if _, err := chromedp.Run(ctx, chromedp.SetValue(chromedp.CSS("#p-statement"), `SELECT * FROM "Market" WHERE PK = 'USER#u3'`)); err != nil {
		t.Fatal(err)
	}
	clickThrough(t, ctx, "#p-run")
	if n := count(t, ctx, "#items tr.partition"); n != 1 {
		t.Errorf("%d item collections, want USER#u3's one\n%s", n, text(t, ctx, "main"))
	}
	if !strings.Contains(text(t, ctx, "#items"), "User 3") {
		t.Errorf("rows do not show User 3")
	}
	shoot(t, ctx, "partiql")
	checkTraffic(t, w, srv.URL)
}
