package console_test

import (
	"context"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// A person opens a table's page with access control on, is sent to sign
// in, mistypes the secret, signs in, lands on the page asked for as
// alice, sees a table alice may not describe refused in its row, and
// signs out; the browser talks to sortkey only.
func TestBrowserSignsInThroughTheForm(t *testing.T) {
	srv := newSignInServer(t, nil)
	ctx := tab(t)
	w := watchTab(t, ctx)
	open(t, ctx, srv.URL+"/console/tables/Market")
	if loc := get1(t, ctx, chromedp.Location()); !strings.HasPrefix(loc, srv.URL+"/console/signin?") {
		t.Fatalf("without a session the browser is at %s, want the sign-in form", loc)
	}
	fill(t, ctx, "AKIDALICE", "not-her-secret")
	if got := text(t, ctx, "#signin-error"); !strings.Contains(got, "is not one of the auth file's principals") {
		t.Fatalf("a wrong secret shows %q", got)
	}
	fill(t, ctx, "AKIDALICE", "alice-secret")
	if loc := get1(t, ctx, chromedp.Location()); loc != srv.URL+"/console/tables/Market" {
		t.Fatalf("after signing in the browser is at %s, want the page it asked for", loc)
	}
	if who := text(t, ctx, "#signed-in-as"); who != aliceArn {
		t.Errorf("the header says %q is signed in", who)
	}
	if groups := count(t, ctx, "tr.partition"); groups != 3 {
		t.Errorf("%d item collections, want Market's 3", groups)
	}
	open(t, ctx, srv.URL+"/console/")
	if row := text(t, ctx, "td.row-error"); !strings.Contains(row, "AccessDeniedException") {
		t.Errorf("Big's row shows %q, want the API's refusal", row)
	}
	shoot(t, ctx, "signin")
	clickThrough(t, ctx, "#sign-out")
	open(t, ctx, srv.URL+"/console/")
	if loc := get1(t, ctx, chromedp.Location()); !strings.HasPrefix(loc, srv.URL+"/console/signin?") || count(t, ctx, "#signed-in-as") != 0 {
		t.Errorf("after signing out the browser is at %s", loc)
	}
	checkTraffic(t, w, srv.URL)
}

// fill types a credential into the sign-in form and submits it.
func fill(t *testing.T, ctx context.Context, key, secret string) {
	t.Helper()
	if err := chromedp.Do(ctx, chromedp.SetValue(chromedp.CSS("#signin-key"), key),
		chromedp.SetValue(chromedp.CSS("#signin-secret"), secret)); err != nil {
		t.Fatal(err)
	}
	clickThrough(t, ctx, "#signin-submit")
}
