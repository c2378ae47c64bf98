package console_test

import (
	"context"
	"flag"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

var screenshots = flag.String("screenshots", "", "directory to write the console's screenshots to (docs/ in the repository)")

// Launch flags that keep Chromium off the network: with background
// networking on it opens connections of its own, which this machine's
// closed network refuses.
var chromiumFlags = []chromedp.ExecAllocatorOption{
	chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
	chromedp.NoDefaultBrowserCheck, chromedp.Flag("disable-quic", true),
	chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-component-update", true),
	chromedp.Flag("disable-sync", true), chromedp.WindowSize(1200, 800),
}

// One browser serves the package's tests, each in its own tab: starting
// Chromium is most of a browser test's time on two cores.
var shared struct {
	once    sync.Once
	ctx     context.Context
	cancel  func()
	dataDir string
	err     string
	missing bool // err is that Chromium is not installed
}

func TestMain(m *testing.M) {
	flag.Parse()
	code := m.Run()
	if shared.cancel != nil {
		shared.cancel()
		os.RemoveAll(shared.dataDir)
	}
	os.Exit(code)
}

// requireBrowser, set by .ci/run (which installs Chromium), turns a
// missing Chromium from a skip into a failure, so CI cannot pass without
// the browser tests.
const requireBrowser = "SORTKEY_REQUIRE_BROWSER"

// tab is a new browser tab. Without Chromium installed the browser tests
// skip, saying so, unless requireBrowser is set; a Chromium that is
// installed but does not start is a failure.
func tab(t testing.TB) context.Context {
	t.Helper()
	shared.once.Do(startBrowser)
	switch {
	case shared.missing && os.Getenv(requireBrowser) == "":
		t.Skip(shared.err)
	case shared.err != "":
		t.Fatal(shared.err)
	}
	ctx, cancel := chromedp.NewContext(shared.ctx)
	t.Cleanup(cancel)
	ctx, cancelTimeout := context.WithTimeout(ctx, 60*time.Second)
	t.Cleanup(cancelTimeout)
	return ctx
}

func startBrowser() {
	path, err := exec.LookPath("chromium")
	if err != nil {
		shared.err = "chromium is not installed (apt-get install chromium): " + err.Error()
		shared.missing = true
		return
	}
	dir, err := os.MkdirTemp("", "console-chromium-")
	if err != nil {
		shared.err = err.Error()
		return
	}
	opts := append([]chromedp.ExecAllocatorOption{chromedp.ExecPath(path), chromedp.UserDataDir(dir)}, chromiumFlags...)
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	browser, cancelBrowser := chromedp.NewContext(alloc)
	if err := chromedp.Do(browser); err != nil {
		shared.err = "chromium did not start: " + err.Error()
	}
	shared.ctx, shared.dataDir = browser, dir
	shared.cancel = func() { cancelBrowser(); cancelAlloc() }
}

// watch records every URL the tab requests and every dialog it opens.
type watch struct {
	mu      sync.Mutex
	urls    []string
	dialogs []string
}

func watchTab(t *testing.T, ctx context.Context) *watch {
	t.Helper()
	w := &watch{}
	err := chromedp.Listen(ctx, func(ev any) {
		w.mu.Lock()
		defer w.mu.Unlock()
		switch ev := ev.(type) {
		case *network.EventRequestWillBeSent:
			w.urls = append(w.urls, ev.Request.URL)
		case *page.EventJavascriptDialogOpening:
			w.dialogs = append(w.dialogs, ev.Message)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// shoot writes the tab's screenshot to -screenshots, when given.
func shoot(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	if *screenshots == "" {
		return
	}
	png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(*screenshots, "console-"+name+".png"), png, 0o644); err != nil {
		t.Fatal(err)
	}
}

// count is how many elements of the tab's page match the CSS selector.
func count(t *testing.T, ctx context.Context, sel string) int {
	t.Helper()
	return get1(t, ctx, chromedp.Evaluate[int](`document.querySelectorAll(`+quote(sel)+`).length`))
}

// text waits for sel, then reads its text in one script: pages that poll
// (live numbers, the stream tail) replace their rows, and a node looked up
// before a refresh and read after it is gone ("No node with given id").
func text(t *testing.T, ctx context.Context, sel string) string {
	t.Helper()
	if err := chromedp.Do(ctx, chromedp.WaitReady(sel)); err != nil {
		t.Fatal(err)
	}
	return get1(t, ctx, chromedp.Evaluate[string](`(document.querySelector(`+quote(sel)+`)||{}).innerText||""`))
}

func get1[T any](t *testing.T, ctx context.Context, a chromedp.Action[T]) T {
	t.Helper()
	v, err := chromedp.Run(ctx, a)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func quote(s string) string { return "'" + strings.ReplaceAll(s, "'", `\'`) + "'" }

// clickThrough clicks sel and waits for the page it leads to.
func clickThrough(t *testing.T, ctx context.Context, sel string) {
	t.Helper()
	if _, err := chromedp.RunResponse(ctx, chromedp.Click(chromedp.CSS(sel))); err != nil {
		t.Fatalf("click %s: %v", sel, err)
	}
}

func open(t *testing.T, ctx context.Context, rawURL string) {
	t.Helper()
	if _, err := chromedp.RunResponse(ctx, chromedp.Navigate(rawURL)); err != nil {
		t.Fatalf("open %s: %v", rawURL, err)
	}
}

// A person opens the console, picks a table, sees its item collections,
// switches to an index and pages on, and the browser never talks to any
// host but sortkey.
func TestBrowserWalkThrough(t *testing.T) {
	srv, _ := newServer(t)
	ctx := tab(t)
	w := watchTab(t, ctx)
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(1200, 800)); err != nil {
		t.Fatal(err)
	}
	open(t, ctx, srv.URL+"/console/")
	if list := text(t, ctx, "#tables"); !strings.Contains(list, "Market") || !strings.Contains(list, "GSI1") {
		t.Fatalf("table list shows %q", list)
	}
	shoot(t, ctx, "tables")

	clickThrough(t, ctx, `a.table-link[href="/console/tables/Market"]`)
	if groups := count(t, ctx, "tr.partition"); groups != 3 {
		t.Errorf("%d item collections, want 3", groups)
	}
	if !strings.Contains(text(t, ctx, "main"), scriptValue) {
		t.Errorf("the script value is not shown as text")
	}
	if n := count(t, ctx, "script"); n != 0 {
		t.Errorf("%d script elements in the page", n)
	}
	shoot(t, ctx, "collections")

	clickThrough(t, ctx, `a.index-link[href="/console/tables/Market/indexes/GSI1"]`)
	if items, h1 := count(t, ctx, "#items td:first-child"), text(t, ctx, "h1"); items != 6 || !strings.Contains(h1, "GSI1") {
		t.Errorf("index page %q shows %d items, want GSI1's 6", h1, items)
	}
	shoot(t, ctx, "index")

	pageOn(t, ctx, srv.URL)
	checkTraffic(t, w, srv.URL)
}

// pageOn opens a page of four items and follows its Next link.
func pageOn(t *testing.T, ctx context.Context, base string) {
	t.Helper()
	open(t, ctx, base+"/console/tables/Market?limit=4")
	first := text(t, ctx, "#items")
	clickThrough(t, ctx, "a#next")
	loc := get1(t, ctx, chromedp.Location())
	if second := text(t, ctx, "#items"); !strings.Contains(loc, "start=") || first == second {
		t.Errorf("next page %s shows the same items", loc)
	}
}

func checkTraffic(t *testing.T, w *watch, base string) {
	t.Helper()
	want, _ := url.Parse(base)
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(w.urls) < 5 {
		t.Errorf("saw only %d requests: network events not recorded", len(w.urls))
	}
	for _, u := range w.urls {
		if got, err := url.Parse(u); err != nil || got.Host != want.Host {
			t.Errorf("request to %s, not to sortkey at %s", u, want.Host)
		}
	}
	if len(w.dialogs) > 0 {
		t.Errorf("dialogs opened: %q", w.dialogs)
	}
}

// A person edits an item in the browser: opens its edit page from the
// collection, changes an attribute, saves, and sees it in the collection.
func TestBrowserEditsAnItem(t *testing.T) {
	srv, _ := newServer(t)
	ctx := tab(t)
	w := watchTab(t, ctx)
	open(t, ctx, srv.URL+"/console/tables/Market")
	clickThrough(t, ctx, "a.edit-link")
	text0 := get1(t, ctx, chromedp.Value(chromedp.CSS("#item-text")))
	edited := strings.Replace(text0, `"PK": {`, `"status": {"S": "edited-in-browser"}, "PK": {`, 1)
	if _, err := chromedp.Run(ctx, chromedp.SetValue(chromedp.CSS("#item-text"), edited)); err != nil {
		t.Fatal(err)
	}
	shoot(t, ctx, "item")
	clickThrough(t, ctx, "#item-save")
	if loc := get1(t, ctx, chromedp.Location()); loc != srv.URL+"/console/tables/Market" {
		t.Fatalf("after save the browser is at %s, want the collection\n%s", loc, text(t, ctx, "main"))
	}
	if !strings.Contains(text(t, ctx, "#items"), "edited-in-browser") {
		t.Errorf("the collection does not show the saved attribute")
	}
	checkTraffic(t, w, srv.URL)
}
