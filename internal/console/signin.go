package console

import (
	"bytes"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/sortkeydb/sortkey/internal/server"
)

// With access control on, the console is a client like any other and
// needs a principal to act as: a person signs in with one of the auth
// file's credentials, and every API call a page makes then carries that
// principal (server.AsCaller), authorised by its policies exactly as a
// signed request would be. The console never holds a way past a policy.

func init() {
	routes = append(routes, func(c *Console) { c.mux.HandleFunc("GET "+signInPath, c.signInForm) })
	postRoute("POST "+signInPath, func(*http.Request) string { return purposeSignIn },
		func(c *Console) http.HandlerFunc { return c.signIn })
	postRoute("POST "+signOutPath, func(*http.Request) string { return purposeSignOut },
		func(c *Console) http.HandlerFunc { return c.signOut })
}

const (
	signInPath     = Path + "signin"
	signOutPath    = Path + "signout"
	purposeSignIn  = "signin"
	purposeSignOut = "signout"

	msgSignInOff = "Access control is off, so there is nothing to sign in to: every console page is open."
	msgEnded     = "Your session ended: the auth file in force no longer has that principal with the key you signed in with. Sign in again."
)

// Principals is access control as the console needs it; the DB adapts
// the auth file's Authorizer to it.
type Principals interface {
	// SignIn checks a credential against the auth file in force in
	// constant time, returning its principal or an error to show.
	SignIn(accessKeyID, secret, sessionToken string) (Principal, error)
}

// Principal is who a session acts as.
type Principal interface {
	// ARN names the principal in every page's header.
	ARN() string
	// Caller is the principal for one console request r, looked up afresh
	// in the auth file in force so that a reload takes effect at once; an
	// error ends the session.
	Caller(r *http.Request) (server.Caller, error)
}

// RequireSignIn turns sign-in on: every page but the sign-in form then
// needs a session, and reads and writes as its principal. Call it before
// the console serves.
//
// Sessions last by now, the clock signatures are checked by (nil: the real
// time), not the server's clock: a virtual clock moved days ahead must not
// sign everyone out.
func (c *Console) RequireSignIn(p Principals, now func() time.Time) {
	c.signin = newSessions(p, now)
}

// signInFree reports whether r may be answered without a session.
func signInFree(r *http.Request) bool {
	return r.URL.Path == signInPath || r.URL.Path == Path+"static/console.css"
}

// gate lets r on only with a live session, then as its principal: r's
// context carries the caller for the API, and w adds who is signed in to
// the page's header. Without one, the browser is sent to sign in.
func (c *Console) gate(w http.ResponseWriter, r *http.Request) (http.ResponseWriter, *http.Request, bool) {
	if c.signin == nil || signInFree(r) {
		return w, r, true
	}
	id, ok := cookieID(r)
	var s session
	if ok {
		s, ok = c.signin.find(id, c.signin.clock())
	}
	if !ok {
		toSignIn(w, r, false)
		return nil, nil, false
	}
	caller, err := s.who.Caller(r)
	if err != nil {
		c.signin.end(id)
		toSignIn(w, r, true)
		return nil, nil, false
	}
	// Every page's header holds the sign-out form, which a browser posts
	// with Origin: null under no-referrer (see itemForm).
	w.Header().Set("Referrer-Policy", "same-origin")
	bw := &barWriter{ResponseWriter: w, bar: signedInBar(s.who.ARN())}
	return bw, r.WithContext(server.AsCaller(r.Context(), caller)), true
}

// toSignIn answers a request without a live session: 303 to the sign-in
// form, which comes back to the page asked for (a GET's) once signed in.
func toSignIn(w http.ResponseWriter, r *http.Request, ended bool) {
	if _, err := r.Cookie(sessionCookie); err == nil {
		setSessionCookie(w, r, "", -1)
	}
	q := url.Values{}
	if r.Method == http.MethodGet {
		q.Set("next", r.URL.RequestURI())
	}
	if ended {
		q.Set("ended", "1")
	}
	http.Redirect(w, r, signInPath+"?"+q.Encode(), http.StatusSeeOther)
}

// signInData is the sign-in form's: the access key id as typed (never
// the secret), where to go next, and why it is shown again.
type signInData struct {
	CSRF, Key, Next, Notice, Error string
}

func (c *Console) signInForm(w http.ResponseWriter, r *http.Request) {
	if c.signin == nil {
		notFoundMsg(w, msgSignInOff)
		return
	}
	q := r.URL.Query()
	d := signInData{Next: safeNext(q.Get("next"))}
	if q.Get("ended") != "" {
		d.Notice = msgEnded
	}
	signInPage(w, http.StatusOK, d)
}

func signInPage(w http.ResponseWriter, status int, d signInData) {
	d.CSRF = formToken(purposeSignIn)
	w.Header().Set("Referrer-Policy", "same-origin") // see itemForm
	page(w, status, "signin", d)
}

// signIn checks the credential posted and, if it is a principal's,
// starts a session and goes on; otherwise it shows the form again with
// the error and sets no cookie.
func (c *Console) signIn(w http.ResponseWriter, r *http.Request) {
	if c.signin == nil {
		notFoundMsg(w, msgSignInOff)
		return
	}
	f := r.PostForm
	next := safeNext(f.Get("next"))
	who, err := c.signin.principals.SignIn(f.Get("key"), f.Get("secret"), f.Get("token"))
	if err != nil {
		signInPage(w, http.StatusUnauthorized, signInData{Key: f.Get("key"), Next: next, Error: err.Error()})
		return
	}
	id := c.signin.start(who, c.signin.clock())
	setSessionCookie(w, r, encodeSessionID(id), int(sessionLife/time.Second))
	http.Redirect(w, r, next, http.StatusSeeOther)
}

// signOut ends the session; gate has already checked there is one.
func (c *Console) signOut(w http.ResponseWriter, r *http.Request) {
	if id, ok := cookieID(r); ok && c.signin != nil {
		c.signin.end(id)
	}
	setSessionCookie(w, r, "", -1)
	http.Redirect(w, r, signInPath, http.StatusSeeOther)
}

// safeNext is next if it is a console page to go on to, else the table
// list: a sign-in link cannot send the browser to another site.
func safeNext(next string) string {
	if !strings.HasPrefix(next, Path) || strings.HasPrefix(next, signInPath) || strings.ContainsAny(next, "\\\r\n\t") {
		return Path
	}
	return next
}

func notFoundMsg(w http.ResponseWriter, msg string) {
	page(w, http.StatusNotFound, "error", errorPage{Title: "Not found", Message: msg})
}

// signedInBar is the header's "signed in as" with its sign-out form.
func signedInBar(arn string) []byte {
	var b bytes.Buffer
	if err := pages.ExecuteTemplate(&b, "signedin", map[string]string{"Arn": arn, "CSRF": formToken(purposeSignOut)}); err != nil {
		return nil
	}
	return b.Bytes()
}

// headerEnd is where the bar goes in a page: every page's header comes
// from layout.html's "head", whose only data is the page's title, so the
// bar is added as the page is written rather than passed through every
// page's data. html/template writes that literal text whole, and an item
// value can never hold it (its < is escaped).
var headerEnd = []byte("</header>")

// barWriter writes an HTML page with the bar before its header's end.
type barWriter struct {
	http.ResponseWriter
	bar  []byte
	done bool
}

func (b *barWriter) Write(p []byte) (int, error) {
	if b.done || !strings.HasPrefix(b.Header().Get("Content-Type"), "text/html") {
		b.done = true
		return b.ResponseWriter.Write(p)
	}
	i := bytes.Index(p, headerEnd)
	if i < 0 {
		return b.ResponseWriter.Write(p)
	}
	b.done = true
	if n, err := b.ResponseWriter.Write(p[:i]); err != nil {
		return n, err
	}
	if _, err := b.ResponseWriter.Write(b.bar); err != nil {
		return i, err
	}
	n, err := b.ResponseWriter.Write(p[i:])
	return i + n, err
}

// Unwrap lets http.ResponseController reach the connection's writer.
func (b *barWriter) Unwrap() http.ResponseWriter { return b.ResponseWriter }
