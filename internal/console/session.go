package console

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"net/http"
	"sync"
	"time"
)

// A session is kept on the server, the cookie holding only its random id,
// rather than signed into the cookie itself: sign-out (and a reload that
// removes the principal) then ends it for good, where a signed cookie
// would stay valid until it expired, and the browser holds nothing but an
// unguessable number. A restart ends every session, as it voids every
// form token (csrf.go).

const (
	// sessionCookie names the session's cookie, sent for /console/ only.
	sessionCookie = "sortkey_console_session"
	// sessionLife is how long a sign-in lasts, from when it was made.
	sessionLife = 12 * time.Hour
	// maxSessions bounds the sessions kept; past it the one nearest its
	// end makes way, so signing in again and again cannot fill memory.
	maxSessions = 10000
	idBytes     = 32
)

// session is one signed-in browser: who it acts as, and until when.
type session struct {
	who     Principal
	expires time.Time
}

// sessionID is a session's random id as the cookie carries it.
type sessionID [idBytes]byte

// sessions are the console's signed-in browsers, filed by the SHA-256 of
// their id, so that the map holds no cookie a memory dump could replay.
type sessions struct {
	principals Principals
	mu         sync.Mutex
	m          map[[sha256.Size]byte]session
	now        func() time.Time // nil: time.Now
}

func newSessions(p Principals, now func() time.Time) *sessions {
	return &sessions{principals: p, m: map[[sha256.Size]byte]session{}, now: now}
}

func (s *sessions) clock() time.Time {
	if s.now == nil {
		return time.Now()
	}
	return s.now()
}

// start files a new session for who, lasting from now, and returns its id.
func (s *sessions) start(who Principal, now time.Time) sessionID {
	var id sessionID
	_, _ = rand.Read(id[:]) // crypto/rand.Read never fails: it crashes the program instead
	s.mu.Lock()
	defer s.mu.Unlock()
	s.sweep(now)
	s.m[sha256.Sum256(id[:])] = session{who: who, expires: now.Add(sessionLife)}
	return id
}

// sweep drops expired sessions and, when the map is full, the one that
// would end first. The caller holds mu.
func (s *sessions) sweep(now time.Time) {
	var first [sha256.Size]byte
	var end time.Time
	for k, v := range s.m {
		if !now.Before(v.expires) {
			delete(s.m, k)
		} else if end.IsZero() || v.expires.Before(end) {
			first, end = k, v.expires
		}
	}
	if len(s.m) >= maxSessions {
		delete(s.m, first)
	}
}

// find is the live session id names at now; an expired one is dropped.
func (s *sessions) find(id sessionID, now time.Time) (session, bool) {
	k := sha256.Sum256(id[:])
	s.mu.Lock()
	defer s.mu.Unlock()
	v, ok := s.m[k]
	if ok && !now.Before(v.expires) {
		delete(s.m, k)
		return session{}, false
	}
	return v, ok
}

func (s *sessions) end(id sessionID) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.m, sha256.Sum256(id[:]))
}

// encodeSessionID is id as the cookie's value.
func encodeSessionID(id sessionID) string { return base64.RawURLEncoding.EncodeToString(id[:]) }

// parseSessionID reads a cookie's value: exactly an id's 43 characters of
// unpadded base64url, or nothing.
func parseSessionID(v string) (sessionID, bool) {
	var id sessionID
	if len(v) != base64.RawURLEncoding.EncodedLen(idBytes) {
		return id, false
	}
	b, err := base64.RawURLEncoding.Strict().DecodeString(v)
	if err != nil || len(b) != idBytes {
		return id, false
	}
	copy(id[:], b)
	return id, true
}

// cookieID is the session id r's cookie carries, if any parses.
func cookieID(r *http.Request) (sessionID, bool) {
	ck, err := r.Cookie(sessionCookie)
	if err != nil {
		return sessionID{}, false
	}
	return parseSessionID(ck.Value)
}

// setSessionCookie gives the browser the session's cookie: script cannot
// read it, no other site's request carries it, and it goes to the
// console's pages only. maxAge < 0 deletes it.
func setSessionCookie(w http.ResponseWriter, r *http.Request, value string, maxAge int) {
	http.SetCookie(w, &http.Cookie{Name: sessionCookie, Value: value, Path: Path, MaxAge: maxAge,
		HttpOnly: true, SameSite: http.SameSiteStrictMode, Secure: r.TLS != nil})
}
