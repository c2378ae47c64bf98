package server

import (
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
)

func TestAdminEndpointsLoopbackOnly(t *testing.T) {
	h := &Handler{}
	h.Mount("POST /sortkey/clock", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.WriteString(w, "moved")
	}))
	cases := []struct {
		remote, allow bool
		method, path  string
		want          int
		body          string
	}{
		{false, false, http.MethodPost, "/sortkey/clock", 200, "moved"},
		{true, false, http.MethodPost, "/sortkey/clock", 404, ""},
		{true, true, http.MethodPost, "/sortkey/clock", 200, "moved"},
	}
	for _, c := range cases {
		if c.allow {
			h.AllowRemoteAdmin()
		}
		r := httptest.NewRequest(c.method, c.path, nil)
		r.RemoteAddr = "127.0.0.1:5000"
		if c.remote {
			r.RemoteAddr = "192.0.2.7:5000"
		}
		w := httptest.NewRecorder()
		if !h.serveAdmin(w, r) {
			t.Fatalf("%+v: not answered", c)
		}
		if w.Code != c.want || (c.body != "" && w.Body.String() != c.body) {
			t.Errorf("%+v: got %d %q", c, w.Code, w.Body.String())
		}
	}
}

func TestAdminLeavesOtherPathsToTheAPI(t *testing.T) {
	h := &Handler{}
	h.Mount("POST /sortkey/clock", http.NotFoundHandler())
	for _, path := range []string{"/", "/sortkey/other", "/sortkeyclock"} {
		r := httptest.NewRequest(http.MethodPost, path, nil)
		if h.serveAdmin(httptest.NewRecorder(), r) {
			t.Errorf("%s: answered by admin", path)
		}
	}
	if (&Handler{}).serveAdmin(httptest.NewRecorder(), httptest.NewRequest(http.MethodPost, "/sortkey/clock", nil)) {
		t.Error("answered with nothing mounted")
	}
}
