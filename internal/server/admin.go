package server

import (
	"net/http"
	"strings"
)

// AdminPrefix is where sortkey's own endpoints live (faults, the clock),
// beside the DynamoDB API and never part of it.
const AdminPrefix = "/sortkey/"

// admin is the handler's admin endpoints: none until one is mounted.
type admin struct {
	mux    *http.ServeMux
	remote bool // non-loopback clients may use them
}

// Mount serves handler at pattern, an http.ServeMux pattern whose path is
// under AdminPrefix (e.g. "POST /sortkey/clock"). Admin endpoints answer
// clients on this machine only, unless AllowRemoteAdmin; any other client
// gets the 404 of a path that does not exist. Mount before serving.
func (h *Handler) Mount(pattern string, handler http.Handler) {
	if h.admin.mux == nil {
		h.admin.mux = http.NewServeMux()
	}
	h.admin.mux.Handle(pattern, handler)
}

// AllowRemoteAdmin lets clients on other machines use the admin endpoints,
// for a server shared by a team; call it only when asked to.
func (h *Handler) AllowRemoteAdmin() { h.admin.remote = true }

// serveAdmin answers r if it is for a mounted admin endpoint and reports
// whether it did; other paths go on to the API and the health check.
func (h *Handler) serveAdmin(w http.ResponseWriter, r *http.Request) bool {
	if h.admin.mux == nil || !strings.HasPrefix(r.URL.Path, AdminPrefix) {
		return false
	}
	handler, pattern := h.admin.mux.Handler(r)
	if pattern == "" {
		return false
	}
	if !h.admin.remote && !loopback(r.RemoteAddr) {
		writeNotFound(w)
		return true
	}
	handler.ServeHTTP(w, r)
	return true
}
