package console_test

import (
	"context"
	"encoding/json"
	"html"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/sortkeydb/sortkey"
	"github.com/sortkeydb/sortkey/sortkeytest"
)

var (
	editRe      = regexp.MustCompile(`<a class="edit-link" href="([^"]+)"`)
	hiddenRe    = regexp.MustCompile(`<input type="hidden" name="(\w+)" value="([^"]*)">`)
	formRe      = regexp.MustCompile(`(?s)<form[^>]* id="(item-form|delete-form)".*?</form>`)
	itemErrorRe = regexp.MustCompile(`(?s)<p class="error" id="item-error">(.*?)</p>`)
	textRe      = regexp.MustCompile(`(?s)<textarea name="item" id="item-text"[^>]*>(.*?)</textarea>`)
)

// form is one form of a page: its hidden fields, as a browser would post them.
func form(t *testing.T, body, id string) url.Values {
	t.Helper()
	for _, f := range formRe.FindAllStringSubmatch(body, -1) {
		if f[1] != id {
			continue
		}
		v := url.Values{}
		for _, h := range hiddenRe.FindAllStringSubmatch(f[0], -1) {
			v.Set(h[1], html.UnescapeString(h[2]))
		}
		return v
	}
	t.Fatalf("page has no form %s:\n%s", id, body)
	return nil
}

// post submits a form as a browser on the console's own page does,
// unless headers say otherwise ("" removes a header).
func post(t *testing.T, srv *sortkeytest.Server, path string, v url.Values, headers map[string]string) (int, http.Header, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, srv.URL+path, strings.NewReader(v.Encode()))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Origin", srv.URL)
	req.Header.Set("Sec-Fetch-Site", "same-origin")
	for k, h := range headers {
		req.Header.Del(k)
		if h != "" {
			req.Header.Set(k, h)
		}
	}
	resp, err := noRedirect.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header, string(b)
}

// editPage opens the edit page of the table page's first item, an order
// (each partition's items start with its orders), with that item's key.
func editPage(t *testing.T, srv *sortkeytest.Server) (body, pk, sk string) {
	t.Helper()
	_, _, table := get(t, srv.URL+"/console/tables/Market")
	links := editRe.FindAllStringSubmatch(table, -1)
	if len(links) != 9 {
		t.Fatalf("%d edit links, want one per item (9)", len(links))
	}
	status, _, page := get(t, srv.URL+html.UnescapeString(links[0][1]))
	if status != http.StatusOK {
		t.Fatalf("edit page: %d\n%s", status, page)
	}
	var it map[string]struct{ S string }
	if err := json.Unmarshal([]byte(html.UnescapeString(textRe.FindStringSubmatch(page)[1])), &it); err != nil {
		t.Fatalf("edit text is not DynamoDB JSON: %v", err)
	}
	return page, it["PK"].S, it["SK"].S
}

func getItem(t *testing.T, c *dynamodb.Client, pk, sk string) map[string]types.AttributeValue {
	t.Helper()
	out, err := c.GetItem(context.Background(), &dynamodb.GetItemInput{TableName: aws.String("Market"),
		Key: map[string]types.AttributeValue{"PK": s(pk), "SK": s(sk)}, ConsistentRead: aws.Bool(true)})
	if err != nil {
		t.Fatal(err)
	}
	return out.Item
}

func strAttr(it map[string]types.AttributeValue, name string) string {
	if v, ok := it[name].(*types.AttributeValueMemberS); ok {
		return v.Value
	}
	if v, ok := it[name].(*types.AttributeValueMemberN); ok {
		return v.Value
	}
	return ""
}

// The edit page shows the item as DynamoDB JSON; saving a change puts it
// and returns to the table.
func TestEditItemSavesAndRedirects(t *testing.T) {
	srv, c := newServer(t)
	body, pk, sk := editPage(t, srv)
	text := html.UnescapeString(textRe.FindStringSubmatch(body)[1])
	if !strings.HasPrefix(sk, "ORDER#") || !strings.Contains(text, `"L": [`) {
		t.Fatalf("edit text is not the order as DynamoDB JSON:\n%s", text)
	}
	v := form(t, body, "item-form")
	v.Set("format", "dynamodb")
	v.Set("item", strings.Replace(text, `"total": {`, `"status": {"S": "checked"}, "total": {`, 1))
	status, h, page := post(t, srv, "/console/tables/Market/items/save", v, nil)
	if status != http.StatusSeeOther || h.Get("Location") != "/console/tables/Market" {
		t.Fatalf("save: %d to %q, want 303 to the table\n%s", status, h.Get("Location"), page)
	}
	if got := strAttr(getItem(t, c, pk, sk), "status"); got != "checked" {
		t.Errorf("item %s/%s status %q after save, want checked", pk, sk, got)
	}
	if _, _, table := get(t, srv.URL+"/console/tables/Market"); !strings.Contains(table, ">checked<") {
		t.Errorf("the collection does not show the saved value")
	}
}

// A change made through the SDK between load and save makes the save and
// the delete fail, and the page shows the item as it now is.
func TestConflictingSaveIsRefused(t *testing.T) {
	srv, c := newServer(t)
	body, pk, sk := editPage(t, srv)
	text := html.UnescapeString(textRe.FindStringSubmatch(body)[1])
	_, err := c.UpdateItem(context.Background(), &dynamodb.UpdateItemInput{TableName: aws.String("Market"),
		Key: map[string]types.AttributeValue{"PK": s(pk), "SK": s(sk)}, UpdateExpression: aws.String("SET #t = :t"),
		ExpressionAttributeNames:  map[string]string{"#t": "total"},
		ExpressionAttributeValues: map[string]types.AttributeValue{":t": n("99")}})
	if err != nil {
		t.Fatal(err)
	}
	v := form(t, body, "item-form")
	v.Set("item", strings.Replace(text, `"total": {`, `"status": {"S": "mine"}, "total": {`, 1))
	status, _, page := post(t, srv, "/console/tables/Market/items/save", v, nil)
	if status != http.StatusConflict || !strings.Contains(page, "Someone else changed or deleted this item") ||
		!strings.Contains(page, `&#34;99&#34;`) || !strings.Contains(page, "mine") {
		t.Errorf("conflicting save: %d, want 409 with the current item and the user's text\n%s", status, page)
	}
	if got := getItem(t, c, pk, sk); strAttr(got, "total") != "99" || strAttr(got, "status") != "" {
		t.Errorf("item after refused save %v, want the other writer's", got)
	}
	status, _, _ = post(t, srv, "/console/tables/Market/items/delete", form(t, body, "delete-form"), nil)
	if status != http.StatusConflict || getItem(t, c, pk, sk) == nil {
		t.Errorf("conflicting delete: %d, want 409 and the item kept", status)
	}
}

// An attribute added by another writer since the item was loaded also
// refuses the save: the form's item would drop it.
func TestSaveRefusedWhenAnAttributeWasAdded(t *testing.T) {
	srv, c := newServer(t)
	body, pk, sk := editPage(t, srv)
	_, err := c.UpdateItem(context.Background(), &dynamodb.UpdateItemInput{TableName: aws.String("Market"),
		Key: map[string]types.AttributeValue{"PK": s(pk), "SK": s(sk)}, UpdateExpression: aws.String("SET added = :a"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":a": s("by-other")}})
	if err != nil {
		t.Fatal(err)
	}
	v := form(t, body, "item-form")
	v.Set("item", html.UnescapeString(textRe.FindStringSubmatch(body)[1]))
	status, _, page := post(t, srv, "/console/tables/Market/items/save", v, nil)
	if status != http.StatusConflict || !strings.Contains(page, "by-other") || strAttr(getItem(t, c, pk, sk), "added") != "by-other" {
		t.Errorf("save over an added attribute: %d, want 409 and the attribute kept\n%s", status, page)
	}
}

func TestDeleteItem(t *testing.T) {
	srv, c := newServer(t)
	body, pk, sk := editPage(t, srv)
	status, h, _ := post(t, srv, "/console/tables/Market/items/delete", form(t, body, "delete-form"), nil)
	if status != http.StatusSeeOther || h.Get("Location") != "/console/tables/Market" {
		t.Fatalf("delete: %d to %q, want 303 to the table", status, h.Get("Location"))
	}
	if it := getItem(t, c, pk, sk); it != nil {
		t.Errorf("item still there after delete: %v", it)
	}
}

// A new item in plain JSON is converted as the SDKs marshal; one whose key
// exists is refused rather than overwriting.
func TestNewItemFromPlainJSON(t *testing.T) {
	srv, c := newServer(t)
	_, _, table := get(t, srv.URL+"/console/tables/Market")
	if !strings.Contains(table, `href="/console/tables/Market/items/new"`) {
		t.Fatalf("table page has no new item link")
	}
	_, _, body := get(t, srv.URL+"/console/tables/Market/items/new")
	v := form(t, body, "item-form")
	v.Set("format", "plain")
	v.Set("item", `{"PK": "USER#u9", "SK": "PROFILE", "age": 42.5, "ok": true, "gone": null, "list": [1, "a"], "m": {"x": false}}`)
	if status, _, page := post(t, srv, "/console/tables/Market/items/save", v, nil); status != http.StatusSeeOther {
		t.Fatalf("new item: %d\n%s", status, page)
	}
	it := getItem(t, c, "USER#u9", "PROFILE")
	if strAttr(it, "age") != "42.5" {
		t.Errorf("age %v, want N 42.5", it["age"])
	}
	if b, ok := it["ok"].(*types.AttributeValueMemberBOOL); !ok || !b.Value {
		t.Errorf("ok %v, want BOOL true", it["ok"])
	}
	if _, ok := it["gone"].(*types.AttributeValueMemberNULL); !ok {
		t.Errorf("gone %v, want NULL", it["gone"])
	}
	l, ok := it["list"].(*types.AttributeValueMemberL)
	if !ok || len(l.Value) != 2 || strAttr(map[string]types.AttributeValue{"x": l.Value[0]}, "x") != "1" {
		t.Errorf("list %v, want L [N 1, S a]", it["list"])
	}
	if m, ok := it["m"].(*types.AttributeValueMemberM); !ok || m.Value["x"] == nil {
		t.Errorf("m %v, want M {x: BOOL}", it["m"])
	}
	v.Set("item", `{"PK": "USER#u9", "SK": "PROFILE", "age": 1}`)
	status, _, page := post(t, srv, "/console/tables/Market/items/save", v, nil)
	if status != http.StatusConflict || !strings.Contains(page, "already exists") || strAttr(getItem(t, c, "USER#u9", "PROFILE"), "age") != "42.5" {
		t.Errorf("new item over an existing key: %d, want 409 and the item kept\n%s", status, page)
	}
}

// DynamoDB's validation error shows by the field, escaped, with the text kept.
func TestValidationErrorShownWithTextKept(t *testing.T) {
	srv, c := newServer(t)
	_, _, body := get(t, srv.URL+"/console/tables/Market/items/new")
	for text, want := range map[string]string{
		`{"PK": {"S": "USER#u7"}, "SK": {"N": "1"}, "x": {"S": "<b>"}}`: "ValidationException",
		`{"PK": {"S": "USER#u7"}`:                   "must be one JSON object",
		`{"PK": {"S": "USER#u7"}, "SK": {"S": ""}}`: "ValidationException",
	} {
		v := form(t, body, "item-form")
		v.Set("item", text)
		status, _, page := post(t, srv, "/console/tables/Market/items/save", v, nil)
		m := itemErrorRe.FindStringSubmatch(page)
		if status != http.StatusBadRequest || m == nil || !strings.Contains(m[1], want) {
			t.Errorf("%s: %d, want 400 with %q by the field\n%s", text, status, want, page)
			continue
		}
		if got := html.UnescapeString(textRe.FindStringSubmatch(page)[1]); got != text || strings.Contains(page, "<b>") {
			t.Errorf("text after error %q, want %q kept and escaped", got, text)
		}
	}
	if it := getItem(t, c, "USER#u7", "1"); it != nil {
		t.Errorf("refused item was written: %v", it)
	}
}

func TestEditRefusesAKeyChange(t *testing.T) {
	srv, c := newServer(t)
	body, pk, sk := editPage(t, srv)
	text := html.UnescapeString(textRe.FindStringSubmatch(body)[1])
	v := form(t, body, "item-form")
	v.Set("item", strings.Replace(text, sk, "ORDER#2030-01", 1))
	status, _, page := post(t, srv, "/console/tables/Market/items/save", v, nil)
	if status != http.StatusBadRequest || !strings.Contains(page, "key changed") || getItem(t, c, pk, "ORDER#2030-01") != nil {
		t.Errorf("key change: %d, want 400 and no new item\n%s", status, page)
	}
}

// Cross-site posts and posts without this console's token for this very
// form are refused, and nothing is written.
func TestCrossSiteWritesAreRefused(t *testing.T) {
	srv, c := newServer(t)
	body, pk, sk := editPage(t, srv)
	good := form(t, body, "delete-form")
	forged := url.Values{}
	for k := range good {
		forged.Set(k, good.Get(k))
	}
	forged.Set("csrf", "AAAA"+good.Get("csrf")[4:])
	other := form(t, body, "item-form") // the save form's token, posted to delete
	other.Set("was", good.Get("was"))
	missing := url.Values{"was": {good.Get("was")}}
	cases := []struct {
		name    string
		v       url.Values
		headers map[string]string
		want    string
	}{
		{"other origin", good, map[string]string{"Origin": "http://evil.example", "Sec-Fetch-Site": ""}, "Origin"},
		{"no origin or referer", good, map[string]string{"Origin": "", "Sec-Fetch-Site": ""}, "Origin"},
		{"null origin", good, map[string]string{"Origin": "null"}, "Origin"},
		{"cross-site fetch", good, map[string]string{"Sec-Fetch-Site": "cross-site"}, "another site"},
		{"missing token", missing, nil, "token"},
		{"forged token", forged, nil, "token"},
		{"token of another form", other, nil, "token"},
	}
	for _, tc := range cases {
		status, _, page := post(t, srv, "/console/tables/Market/items/delete", tc.v, tc.headers)
		if status != http.StatusForbidden || !strings.Contains(page, tc.want) {
			t.Errorf("%s: %d, want 403 naming %s\n%s", tc.name, status, tc.want, page)
		}
	}
	if getItem(t, c, pk, sk) == nil {
		t.Fatal("a refused delete deleted the item")
	}
	status, _, _ := post(t, srv, "/console/tables/Market/items/delete", good, map[string]string{"Origin": "", "Referer": srv.URL + "/console/"})
	if status != http.StatusSeeOther {
		t.Errorf("same-origin Referer without Origin: %d, want the delete done", status)
	}
}

// With access control on, a write without a session is sent to sign in
// and writes nothing.
func TestAccessControlOnRefusesWritesWithoutSignIn(t *testing.T) {
	srv := sortkeytest.NewWithOptions(t, &sortkey.Options{Console: true, Auth: []byte(authDoc)})
	alice := srv.ClientAs(t, "arn:aws:iam::123456789012:user/alice")
	createMarket(t, alice)
	v := url.Values{"item": {`{"PK": {"S": "x"}, "SK": {"S": "y"}}`}, "csrf": {"any"}}
	status, h, _ := post(t, srv, "/console/tables/Market/items/save", v, nil)
	if status != http.StatusSeeOther || !strings.HasPrefix(h.Get("Location"), "/console/signin") {
		t.Errorf("POST with --auth and no session: %d to %q, want 303 to sign in", status, h.Get("Location"))
	}
	if getItem(t, alice, "x", "y") != nil {
		t.Error("a write without a session wrote the item")
	}
}

// formValues is a form's fields, given as name, value pairs after base.
func formValues(base map[string]string, pairs ...string) url.Values {
	v := url.Values{}
	for k, x := range base {
		v.Set(k, x)
	}
	for i := 0; i+1 < len(pairs); i += 2 {
		v.Set(pairs[i], pairs[i+1])
	}
	return v
}
