package console

import (
	"embed"
	"errors"
	"html/template"
	"log/slog"
	"net/http"
	"net/url"
	"strconv"

	"github.com/sortkeydb/sortkey/internal/inproc"
	"github.com/sortkeydb/sortkey/internal/metrics"
)

// Path is where the console is served; every page is under it.
const Path = "/console/"

const (
	defaultLimit = 100
	maxLimit     = 1000
)

//go:embed assets
var assets embed.FS

var pages = template.Must(template.New("").Funcs(template.FuncMap{
	"tableURL":  tableURL,
	"indexURL":  indexURL,
	"vectorURL": vectorURL,
}).ParseFS(assets, "assets/*.html"))

const (
	msgNotFound = "There is no console page at this address."
	msgMethod   = "This console page is read-only: it answers GET only."
	msgLimit    = "limit must be a whole number from 1 to 1000"
)

// Console serves the console's pages.
type Console struct {
	mux    *http.ServeMux
	api    client
	design designSource        // design.go: the loaded design, if any
	now    clock               // ttl.go: the server's clock
	signin *sessions           // signin.go: nil unless access control is on
	live   func() metrics.Live // live.go: the live numbers, nil when metrics are off
}

// New returns the console, reading through api, the server's DynamoDB API
// handler, as a client would.
func New(api http.Handler) *Console {
	c := &Console{mux: http.NewServeMux(), api: client{inproc.Client{API: api}}}
	c.mux.HandleFunc("GET /console/{$}", c.tables)
	c.mux.HandleFunc("GET /console/tables/{table}", c.table)
	c.mux.HandleFunc("GET /console/tables/{table}/indexes/{index}", c.index)
	c.mux.HandleFunc("GET /console/static/console.css", serveCSS)
	for _, add := range routes {
		add(c)
	}
	c.mux.HandleFunc("/console/", notFound)
	return c
}

// routes are the pages that register themselves from their own files
// (an init in each), so that pages are added without editing New.
var routes []func(c *Console)

// ServeHTTP answers one console request.
func (c *Console) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !readOnly(w, r) {
		return
	}
	if w, r, ok := c.gate(w, r); ok { // signin.go: a session, with access control on
		c.mux.ServeHTTP(w, r)
	}
}

// readOnly sets the security headers and refuses every method but GET and
// HEAD, reporting whether the request may go on.
func readOnly(w http.ResponseWriter, r *http.Request) bool {
	h := w.Header()
	h.Set("Content-Security-Policy", "default-src 'self'")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Cache-Control", "no-store")
	if r.Method == http.MethodGet || r.Method == http.MethodHead {
		return true
	}
	if writable(r) { // csrf.go: the write forms, from the console's own pages only
		return sameOrigin(w, r)
	}
	h.Set("Allow", "GET, HEAD")
	page(w, http.StatusMethodNotAllowed, "error", errorPage{Title: "Method not allowed", Message: msgMethod})
	return false
}

func serveCSS(w http.ResponseWriter, r *http.Request) {
	b, _ := assets.ReadFile("assets/console.css")
	w.Header().Set("Content-Type", "text/css; charset=utf-8")
	_, _ = w.Write(b)
}

func notFound(w http.ResponseWriter, r *http.Request) {
	page(w, http.StatusNotFound, "error", errorPage{Title: "Not found", Message: msgNotFound})
}

type errorPage struct {
	Title, Type, Message string
}

// page renders template name; a template that fails mid-way is logged,
// since the status is already sent.
func page(w http.ResponseWriter, status int, name string, data any) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	if err := pages.ExecuteTemplate(w, name, data); err != nil {
		slog.Error("console: render", "page", name, "err", err)
	}
}

// failed answers err from the API as a page with its DynamoDB error text:
// 404 for what does not exist, 400 for what the API refused.
func failed(w http.ResponseWriter, err error) {
	var ae *apiError
	if !errors.As(err, &ae) {
		page(w, http.StatusBadRequest, "error", errorPage{Title: "Bad request", Message: err.Error()})
		return
	}
	status := ae.Status
	if ae.Type == "ResourceNotFoundException" {
		status = http.StatusNotFound
	}
	page(w, status, "error", errorPage{Title: "Error", Type: ae.Type, Message: ae.Message})
}

func tableURL(name string) string { return Path + "tables/" + url.PathEscape(name) }

func indexURL(table, index string) string {
	return tableURL(table) + "/indexes/" + url.PathEscape(index)
}

// paging reads ?start= and ?limit=.
func paging(r *http.Request) (item, int, error) {
	q := r.URL.Query()
	start, err := decodeToken(q.Get("start"))
	if err != nil {
		return nil, 0, err
	}
	limit := defaultLimit
	if s := q.Get("limit"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 || n > maxLimit {
			return nil, 0, errors.New(msgLimit)
		}
		limit = n
	}
	return start, limit, nil
}
