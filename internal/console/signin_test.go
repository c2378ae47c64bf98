package console_test

import (
	"html"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sortkeydb/sortkey"
	"github.com/sortkeydb/sortkey/sortkeytest"
)

// The principals of the sign-in tests: admin may do anything; alice may
// list tables and do anything to Market, nothing to Big; bob may list
// tables, describe Market and Query it in USER#u1's partition only;
// carol is an assumed-role session, with a session token.
const (
	adminArn = "arn:aws:iam::123456789012:user/admin"
	aliceArn = "arn:aws:iam::123456789012:user/alice"
	bobArn   = "arn:aws:iam::123456789012:user/bob"
	carolArn = "arn:aws:sts::123456789012:assumed-role/Reader/carol"
	market   = "arn:aws:dynamodb:us-east-1:123456789012:table/Market"

	adminPrincipal = `{"arn": "` + adminArn + `", "accessKeyId": "AKIDADMIN", "secretAccessKey": "admin-secret",
 "policies": [{"Version": "2012-10-17", "Statement": [{"Effect": "Allow", "Action": "dynamodb:*", "Resource": "*"}]}]}`
	alicePrincipal = `{"arn": "` + aliceArn + `", "accessKeyId": "AKIDALICE", "secretAccessKey": "alice-secret", "policies": [
 {"Version": "2012-10-17", "Statement": [{"Effect": "Allow", "Action": "dynamodb:ListTables", "Resource": "*"}]}` + aliceMarket + `]}`
	aliceMarket = `,
 {"Version": "2012-10-17", "Statement": [{"Effect": "Allow", "Action": "dynamodb:*", "Resource": ["` + market + `", "` + market + `/index/*"]}]}`
	bobPrincipal = `{"arn": "` + bobArn + `", "accessKeyId": "AKIDBOB", "secretAccessKey": "bob-secret", "policies": [
 {"Version": "2012-10-17", "Statement": [
  {"Effect": "Allow", "Action": "dynamodb:ListTables", "Resource": "*"},
  {"Effect": "Allow", "Action": ["dynamodb:DescribeTable", "dynamodb:DescribeTimeToLive"], "Resource": "` + market + `"},
  {"Effect": "Allow", "Action": "dynamodb:Query", "Resource": "` + market + `",
   "Condition": {"ForAllValues:StringEquals": {"dynamodb:LeadingKeys": ["USER#u1"]}}}]}]}`
	carolPrincipal = `{"arn": "` + carolArn + `", "accessKeyId": "ASIACAROL", "secretAccessKey": "carol-secret", "sessionToken": "carol-token",
 "policies": [{"Version": "2012-10-17", "Statement": [{"Effect": "Allow", "Action": "dynamodb:ListTables", "Resource": "*"}]}]}`
)

func authFile(principals ...string) []byte {
	return []byte(`{"account": "123456789012", "principals": [` + strings.Join(principals, ",") + `]}`)
}

// newSignInServer is a server with access control on, Market and Big
// loaded by admin, and the console asking for sign-in. now, if not nil,
// is its clock.
func newSignInServer(t *testing.T, now func() time.Time) *sortkeytest.Server {
	t.Helper()
	srv := sortkeytest.NewWithOptions(t, &sortkey.Options{Console: true, Now: now,
		Auth: authFile(adminPrincipal, alicePrincipal, bobPrincipal, carolPrincipal)})
	admin := srv.ClientAs(t, adminArn)
	createMarket(t, admin)
	putMarket(t, admin)
	loadItems(t, admin, 3)
	return srv
}

// visitor is a browser: it keeps cookies, and posts forms from the
// console's own pages.
type visitor struct {
	t   *testing.T
	srv *sortkeytest.Server
	c   *http.Client
}

func newVisitor(t *testing.T, srv *sortkeytest.Server) *visitor {
	jar, err := cookiejar.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	c := &http.Client{Jar: jar, CheckRedirect: noRedirect.CheckRedirect}
	return &visitor{t, srv, c}
}

func (v *visitor) do(req *http.Request) (int, http.Header, string) {
	v.t.Helper()
	resp, err := v.c.Do(req)
	if err != nil {
		v.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		v.t.Fatal(err)
	}
	return resp.StatusCode, resp.Header, string(b)
}

func (v *visitor) get(path string) (int, http.Header, string) {
	v.t.Helper()
	req, err := http.NewRequest(http.MethodGet, v.srv.URL+path, nil)
	if err != nil {
		v.t.Fatal(err)
	}
	return v.do(req)
}

func (v *visitor) post(path string, form url.Values) (int, http.Header, string) {
	v.t.Helper()
	req, err := http.NewRequest(http.MethodPost, v.srv.URL+path, strings.NewReader(form.Encode()))
	if err != nil {
		v.t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Origin", v.srv.URL)
	req.Header.Set("Sec-Fetch-Site", "same-origin")
	return v.do(req)
}

var csrfRe = regexp.MustCompile(`name="csrf" value="([^"]*)"`)

// csrf is the form token of the first form on body.
func csrf(t *testing.T, body string) string {
	t.Helper()
	m := csrfRe.FindStringSubmatch(body)
	if m == nil {
		t.Fatalf("no form token on the page:\n%s", body)
	}
	return html.UnescapeString(m[1])
}

// signIn fills in the sign-in form as a person would.
func (v *visitor) signIn(key, secret, token string) (int, http.Header, string) {
	v.t.Helper()
	_, _, form := v.get("/console/signin")
	return v.post("/console/signin", url.Values{"csrf": {csrf(v.t, form)}, "key": {key}, "secret": {secret}, "token": {token}})
}

// mustSignIn signs in and checks it worked.
func (v *visitor) mustSignIn(key, secret string) {
	v.t.Helper()
	if status, h, body := v.signIn(key, secret, ""); status != http.StatusSeeOther || h.Get("Location") != "/console/" {
		v.t.Fatalf("sign-in as %s: %d to %q\n%s", key, status, h.Get("Location"), body)
	}
}

func (v *visitor) sessionCookie() *http.Cookie {
	u, _ := url.Parse(v.srv.URL + "/console/")
	for _, c := range v.c.Jar.Cookies(u) {
		if c.Name == "sortkey_console_session" {
			return c
		}
	}
	return nil
}

// wantSignIn checks that path sends the visitor to the sign-in form.
func (v *visitor) wantSignIn(path string) string {
	v.t.Helper()
	status, h, body := v.get(path)
	if status != http.StatusSeeOther || !strings.HasPrefix(h.Get("Location"), "/console/signin?") {
		v.t.Fatalf("%s: %d to %q, want 303 to the sign-in form\n%s", path, status, h.Get("Location"), body)
	}
	if strings.Contains(body, "USER#") || strings.Contains(body, "<td") {
		v.t.Errorf("%s: the redirect shows data:\n%s", path, body)
	}
	return h.Get("Location")
}

const msgBadCredential = "is not one of the auth file&#39;s principals"

func TestSignInWithAWrongCredentialSetsNoCookie(t *testing.T) {
	srv := newSignInServer(t, nil)
	v := newVisitor(t, srv)
	if loc := v.wantSignIn("/console/tables/Market?limit=2"); loc != "/console/signin?next=%2Fconsole%2Ftables%2FMarket%3Flimit%3D2" {
		t.Errorf("sign-in redirect %q does not come back to the page", loc)
	}
	for _, c := range []struct{ key, secret, token string }{
		{"AKIDALICE", "wrong-secret", ""}, {"AKIDNOBODY", "alice-secret", ""}, {"AKIDALICE", "", ""},
		{"ASIACAROL", "carol-secret", ""}, {"ASIACAROL", "carol-secret", "other-token"}, {"AKIDALICE", "alice-secret", "a-token"},
	} {
		status, h, body := v.signIn(c.key, c.secret, c.token)
		if status != http.StatusUnauthorized || !strings.Contains(body, msgBadCredential) || h.Get("Set-Cookie") != "" {
			t.Errorf("%+v: %d, Set-Cookie %q; want 401 with the error and no cookie\n%s", c, status, h.Get("Set-Cookie"), body)
		}
		if c.secret != "" && strings.Contains(body, c.secret) {
			t.Errorf("%+v: the page shows the secret typed", c)
		}
	}
	v.wantSignIn("/console/")
	if status, _, body := v.signIn("ASIACAROL", "carol-secret", "carol-token"); status != http.StatusSeeOther {
		t.Fatalf("carol with her session token: %d\n%s", status, body)
	}
	if _, _, body := v.get("/console/"); !strings.Contains(body, carolArn) {
		t.Errorf("the header does not name carol:\n%s", body)
	}
}

func TestSignInSetsAStrictHTTPOnlyConsoleCookie(t *testing.T) {
	srv := newSignInServer(t, nil)
	status, h, body := newVisitor(t, srv).signIn("AKIDALICE", "alice-secret", "")
	if status != http.StatusSeeOther {
		t.Fatalf("sign-in: %d\n%s", status, body)
	}
	ck := h.Get("Set-Cookie")
	for _, want := range []string{"sortkey_console_session=", "Path=/console/", "HttpOnly", "SameSite=Strict", "Max-Age=43200"} {
		if !strings.Contains(ck, want) {
			t.Errorf("Set-Cookie %q lacks %s", ck, want)
		}
	}
	if strings.Contains(ck, "alice") || strings.Contains(ck, "AKID") {
		t.Errorf("the cookie names the principal: %q", ck)
	}
}

func TestSignedInPrincipalSeesOnlyWhatItsPoliciesAllow(t *testing.T) {
	srv := newSignInServer(t, nil)
	v := newVisitor(t, srv)
	v.mustSignIn("AKIDALICE", "alice-secret")
	status, _, list := v.get("/console/")
	if status != http.StatusOK {
		t.Fatalf("table list: %d\n%s", status, list)
	}
	if !strings.Contains(list, `<span id="signed-in-as">`+aliceArn+`</span>`) {
		t.Errorf("the header does not say alice is signed in:\n%s", list)
	}
	deniedRow := regexp.MustCompile(`href="/console/tables/Big">Big</a></td>\s*<td colspan="8" class="error row-error">AccessDeniedException: User: ` +
		regexp.QuoteMeta(aliceArn) + ` is not authorized to perform: dynamodb:DescribeTable`)
	if !strings.Contains(list, `href="/console/tables/Market/indexes/GSI1"`) || !deniedRow.MatchString(list) {
		t.Errorf("the list does not show Market whole and Big's denial in its row:\n%s", list)
	}
	if status, _, body := v.get("/console/tables/Market"); status != http.StatusOK || len(rows(body)) != 9 {
		t.Errorf("Market: %d with %d items, want its 9\n%s", status, len(rows(body)), body)
	}
	status, _, body := v.get("/console/tables/Big")
	if status != http.StatusBadRequest || !strings.Contains(body, "AccessDeniedException") ||
		!strings.Contains(body, "is not authorized to perform: dynamodb:DescribeTable on resource: arn:aws:dynamodb:us-east-1:123456789012:table/Big") {
		t.Errorf("Big: %d, want the API's AccessDeniedException\n%s", status, body)
	}
}

func TestLeadingKeysLimitWhatAQueryShows(t *testing.T) {
	srv := newSignInServer(t, nil)
	v := newVisitor(t, srv)
	v.mustSignIn("AKIDBOB", "bob-secret")
	query := func(user string) (int, string) {
		q := url.Values{"key": {"PK = :pk"}, "values": {`{":pk": {"S": "` + user + `"}}`}}
		status, _, body := v.get("/console/tables/Market/query?" + q.Encode())
		return status, body
	}
	status, body := query("USER#u1")
	if status != http.StatusOK || len(rows(body)) != 3 {
		t.Fatalf("bob's own partition: %d with %d items, want 3\n%s", status, len(rows(body)), body)
	}
	for _, r := range rows(body) {
		if r[0] != "USER#u1" {
			t.Errorf("bob's query shows %q", r)
		}
	}
	status, body = query("USER#u2")
	if status != http.StatusBadRequest || !strings.Contains(body, "AccessDeniedException") || strings.Contains(body, "User 2") {
		t.Errorf("another partition: %d, want AccessDenied and no item\n%s", status, body)
	}
	if status, _, body := v.get("/console/tables/Market"); status != http.StatusBadRequest || !strings.Contains(body, "dynamodb:Scan") {
		t.Errorf("a Scan bob may not make: %d\n%s", status, body)
	}
}

func TestSignOutEndsTheSession(t *testing.T) {
	srv := newSignInServer(t, nil)
	v := newVisitor(t, srv)
	v.mustSignIn("AKIDALICE", "alice-secret")
	_, _, body := v.get("/console/tables/Market")
	old := v.sessionCookie()
	if status, _, _ := v.post("/console/signout", url.Values{}); status != http.StatusForbidden {
		t.Errorf("sign-out without its form token: %d, want 403", status)
	}
	if status, _, _ := v.get("/console/"); status != http.StatusOK {
		t.Fatalf("a refused sign-out ended the session: %d", status)
	}
	status, h, _ := v.post("/console/signout", url.Values{"csrf": {csrf(t, body)}})
	if status != http.StatusSeeOther || h.Get("Location") != "/console/signin" || v.sessionCookie() != nil {
		t.Fatalf("sign-out: %d to %q, cookie %v", status, h.Get("Location"), v.sessionCookie())
	}
	v.wantSignIn("/console/tables/Market")
	replay := newVisitor(t, srv)
	u, _ := url.Parse(srv.URL + "/console/")
	replay.c.Jar.SetCookies(u, []*http.Cookie{old})
	replay.wantSignIn("/console/tables/Market")
}

func TestForgedAndExpiredCookiesAreRefused(t *testing.T) {
	var offset atomic.Int64
	now := func() time.Time { return time.Now().Add(time.Duration(offset.Load())) }
	srv := newSignInServer(t, now)
	u, _ := url.Parse(srv.URL + "/console/")
	for _, value := range []string{"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", "not-a-session", "", strings.Repeat("x", 4000)} {
		v := newVisitor(t, srv)
		v.c.Jar.SetCookies(u, []*http.Cookie{{Name: "sortkey_console_session", Value: value}})
		v.wantSignIn("/console/")
	}
	v := newVisitor(t, srv)
	v.mustSignIn("AKIDALICE", "alice-secret")
	offset.Store(int64(12*time.Hour - time.Second))
	if status, _, _ := v.get("/console/"); status != http.StatusOK {
		t.Fatalf("a session a second before its end: %d", status)
	}
	offset.Store(int64(12 * time.Hour))
	v.wantSignIn("/console/")
}

func TestReloadEndsARemovedPrincipalsSessionAtOnce(t *testing.T) {
	srv := newSignInServer(t, nil)
	v := newVisitor(t, srv)
	v.mustSignIn("AKIDALICE", "alice-secret")
	withoutMarket := strings.Replace(alicePrincipal, aliceMarket, "", 1)
	if err := srv.DB.ReloadAuth(authFile(adminPrincipal, withoutMarket)); err != nil {
		t.Fatal(err)
	}
	if status, _, body := v.get("/console/tables/Market"); status != http.StatusBadRequest || !strings.Contains(body, "AccessDeniedException") {
		t.Errorf("a permission removed by a reload still works: %d\n%s", status, body)
	}
	if err := srv.DB.ReloadAuth(authFile(adminPrincipal, strings.Replace(alicePrincipal, "alice-secret", "rotated", 1))); err != nil {
		t.Fatal(err)
	}
	if loc := v.wantSignIn("/console/"); !strings.Contains(loc, "ended=1") {
		t.Errorf("a rotated secret: sent to %q, want the session ended", loc)
	}
	if err := srv.DB.ReloadAuth(authFile(adminPrincipal, alicePrincipal)); err != nil {
		t.Fatal(err)
	}
	v.mustSignIn("AKIDALICE", "alice-secret")
	if err := srv.DB.ReloadAuth(authFile(adminPrincipal)); err != nil {
		t.Fatal(err)
	}
	v.wantSignIn("/console/")
	if err := srv.DB.ReloadAuth(authFile(adminPrincipal, alicePrincipal)); err != nil {
		t.Fatal(err)
	}
	v.wantSignIn("/console/") // the ended session does not come back with her
}

func TestSignInRefusesAPostWithoutItsToken(t *testing.T) {
	srv := newSignInServer(t, nil)
	v := newVisitor(t, srv)
	_, _, form := v.get("/console/signin")
	for name, token := range map[string]string{"missing": "", "forged": forge(csrf(t, form)), "sign-out's": signOutToken(t, srv)} {
		status, h, _ := v.post("/console/signin", url.Values{"csrf": {token}, "key": {"AKIDALICE"}, "secret": {"alice-secret"}})
		if status != http.StatusForbidden || h.Get("Set-Cookie") != "" {
			t.Errorf("%s token: %d, Set-Cookie %q; want 403 and no cookie", name, status, h.Get("Set-Cookie"))
		}
	}
	req, _ := http.NewRequest(http.MethodPost, srv.URL+"/console/signin", strings.NewReader(url.Values{"csrf": {csrf(t, form)},
		"key": {"AKIDALICE"}, "secret": {"alice-secret"}}.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Origin", "http://elsewhere.example")
	if status, h, _ := v.do(req); status != http.StatusForbidden || h.Get("Set-Cookie") != "" {
		t.Errorf("sign-in from another site: %d, want 403 and no cookie", status)
	}
}

// forge changes a token's first character to one it does not already have,
// so the result is never the real token.
func forge(token string) string {
	if strings.HasPrefix(token, "x") {
		return "y" + token[1:]
	}
	return "x" + token[1:]
}

// signOutToken is the sign-out form's token, from a signed-in page.
func signOutToken(t *testing.T, srv *sortkeytest.Server) string {
	v := newVisitor(t, srv)
	v.mustSignIn("AKIDBOB", "bob-secret")
	_, _, body := v.get("/console/")
	return csrf(t, body)
}

func TestSignInGoesBackToThePageAskedForAndOnlyThere(t *testing.T) {
	srv := newSignInServer(t, nil)
	for next, want := range map[string]string{"/console/tables/Market?limit=2": "/console/tables/Market?limit=2",
		"https://elsewhere.example/": "/console/", "//elsewhere.example/console/": "/console/", "/console/signin": "/console/"} {
		v := newVisitor(t, srv)
		_, _, form := v.get("/console/signin?next=" + url.QueryEscape(next))
		status, h, _ := v.post("/console/signin", url.Values{"csrf": {csrf(t, form)}, "key": {"AKIDALICE"},
			"secret": {"alice-secret"}, "next": {next}})
		if status != http.StatusSeeOther || h.Get("Location") != want {
			t.Errorf("next %q: %d to %q, want %q", next, status, h.Get("Location"), want)
		}
	}
}

func TestWithoutAccessControlThereIsNoSignIn(t *testing.T) {
	srv, _ := newServer(t)
	if status, _, body := get(t, srv.URL+"/console/signin"); status != http.StatusNotFound || !strings.Contains(body, "Access control is off") {
		t.Errorf("/console/signin without --auth: %d\n%s", status, body)
	}
	if _, _, body := get(t, srv.URL+"/console/"); strings.Contains(body, "signed-in") {
		t.Errorf("the header names someone without --auth:\n%s", body)
	}
}
