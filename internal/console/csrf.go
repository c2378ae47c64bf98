package console

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"net/http"
	"net/url"
)

// The console's write pages are forms a browser posts. A cross-site page
// could post the same forms with the user's browser, so every POST must
// prove it came from a console page: same origin by the browser's own
// headers, and a token only this process can have issued.

const (
	msgCrossSite = "This request came from another site (Sec-Fetch-Site is not same-origin), so the console refused it and wrote nothing."
	msgOrigin    = "This request's Origin (or Referer) is missing or names another host than the console's, so the console refused it and wrote nothing."
	msgToken     = "This form's token is missing or was not issued by this console for this form (the server may have restarted): reload the form and try again. Nothing was written."
	maxFormBytes = 2 << 20
)

// csrfKey signs the form tokens; random per process, so a restart
// voids every open form rather than letting a guessed key in.
var csrfKey = func() []byte {
	k := make([]byte, 32)
	_, _ = rand.Read(k) // crypto/rand.Read never fails: it crashes the program instead
	return k
}()

// postRoutes are the patterns that take POST; readOnly lets a POST
// through only to one of them, and only from the console's own origin.
var postRoutes = http.NewServeMux()

// postRoute registers a POST route from a page's init: once per process
// in postRoutes, and in each console's mux through handlePost when New
// runs the route. The form carries the token for purpose(r); h runs only
// when the token is right.
func postRoute(pattern string, purpose func(*http.Request) string, h func(*Console) http.HandlerFunc) {
	postRoutes.HandleFunc(pattern, func(http.ResponseWriter, *http.Request) {})
	routes = append(routes, func(c *Console) { c.handlePost(pattern, purpose, h(c)) })
}

func (c *Console) handlePost(pattern string, purpose func(*http.Request) string, h http.HandlerFunc) {
	c.mux.HandleFunc(pattern, func(w http.ResponseWriter, r *http.Request) {
		r.Body = http.MaxBytesReader(w, r.Body, maxFormBytes)
		if err := r.ParseForm(); err != nil {
			page(w, http.StatusBadRequest, "error", errorPage{Title: "Bad request", Message: err.Error()})
			return
		}
		if !validToken(r.PostForm.Get("csrf"), purpose(r)) {
			forbid(w, msgToken)
			return
		}
		h(w, r)
	})
}

// writable reports whether r is a POST to a route that takes one.
func writable(r *http.Request) bool {
	if r.Method != http.MethodPost {
		return false
	}
	_, pattern := postRoutes.Handler(r)
	return pattern != ""
}

// sameOrigin refuses a POST the browser marks as cross-site, or whose
// Origin (else Referer) is not this host; it reports whether r may go on.
func sameOrigin(w http.ResponseWriter, r *http.Request) bool {
	if site := r.Header.Get("Sec-Fetch-Site"); site != "" && site != "same-origin" {
		forbid(w, msgCrossSite)
		return false
	}
	from := r.Header.Get("Origin")
	if from == "" {
		from = r.Header.Get("Referer")
	}
	u, err := url.Parse(from)
	if from == "" || err != nil || u.Host == "" || u.Host != r.Host {
		forbid(w, msgOrigin)
		return false
	}
	return true
}

func forbid(w http.ResponseWriter, msg string) {
	page(w, http.StatusForbidden, "error", errorPage{Title: "Refused", Message: msg})
}

// formToken is the token a form for purpose carries.
func formToken(purpose string) string {
	m := hmac.New(sha256.New, csrfKey)
	m.Write([]byte(purpose))
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}

func validToken(tok, purpose string) bool {
	return tok != "" && hmac.Equal([]byte(tok), []byte(formToken(purpose)))
}
