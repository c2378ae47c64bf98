package server

import (
	"net/http"
	"strings"
)

// ConsolePath is where the web console (internal/console) is served,
// ahead of the 404 page that answers GET on every other path but /.
const ConsolePath = "/console/"

// SetConsole serves c at ConsolePath and below; nil, the default, serves
// no console. Set it before the handler serves. The console reaches data
// only through this handler's API, as a client does.
func (h *Handler) SetConsole(c http.Handler) { h.console = c }

// consolePath reports whether path is the console's: /console itself
// (redirected) or anything under /console/.
func consolePath(path string) bool {
	return path == "/console" || strings.HasPrefix(path, ConsolePath)
}

// serveConsole answers a console request; the console itself answers every
// method but GET and HEAD with 405, so no API call arrives by way of it.
func (h *Handler) serveConsole(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path == "/console" {
		http.Redirect(w, r, ConsolePath, http.StatusMovedPermanently)
		return
	}
	h.console.ServeHTTP(w, r)
}
