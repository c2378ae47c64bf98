package httpfast

import (
	"context"
	"errors"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"time"
)

// DefaultMaxBodyBytes bounds a fast-path body when Server.MaxBodyBytes is
// 0: DynamoDB's largest requests (BatchWriteItem, up to 16 MB of items) fit
// in it. A larger Content-Length is handed to net/http, so the handler
// refuses it exactly as it refuses it there.
const DefaultMaxBodyBytes = 16 << 20

// Server serves Handler's fast-path requests and hands every other
// connection to Fallback. Its timeouts and MaxHeaderBytes are Fallback's.
type Server struct {
	Handler  http.Handler
	Fallback *http.Server
	// MaxBodyBytes is the largest Content-Length served on the fast path
	// (0: DefaultMaxBodyBytes); set it to the handler's own bound.
	MaxBodyBytes int64

	mu        sync.Mutex
	listeners map[net.Listener]struct{}
	conns     map[*conn]struct{}
	handed    *handoffListener
	closing   atomic.Bool
	handoffs  atomic.Int64 // connections handed to Fallback, for tests
}

// Serve accepts connections on ln until it is closed or the server stops;
// after Shutdown or Close it returns http.ErrServerClosed.
func (s *Server) Serve(ln net.Listener) error {
	if !s.track(ln) {
		return http.ErrServerClosed
	}
	defer s.untrack(ln)
	var backoff time.Duration
	for {
		rw, err := ln.Accept()
		if err != nil {
			if s.closing.Load() {
				return http.ErrServerClosed
			}
			if backoff = nextBackoff(backoff); isTemporary(err) {
				time.Sleep(backoff)
				continue
			}
			return err
		}
		backoff = 0
		if c := s.newConn(rw); c != nil {
			go c.serve()
		}
	}
}

// nextBackoff is net/http's: 5 ms doubling to 1 s between failed accepts.
func nextBackoff(d time.Duration) time.Duration {
	return min(max(2*d, 5*time.Millisecond), time.Second)
}

func isTemporary(err error) bool {
	var ne interface{ Temporary() bool }
	return errors.As(err, &ne) && ne.Temporary()
}

func (s *Server) track(ln net.Listener) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closing.Load() {
		return false
	}
	if s.listeners == nil {
		s.listeners, s.conns = map[net.Listener]struct{}{}, map[*conn]struct{}{}
		s.handed = newHandoffListener()
		go s.serveFallback(s.handed)
	}
	s.listeners[ln] = struct{}{}
	return true
}

func (s *Server) untrack(ln net.Listener) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.listeners, ln)
}

// serveFallback has Fallback serve the connections handed to it. Once
// Fallback stops, connections still handed over are closed.
func (s *Server) serveFallback(l *handoffListener) {
	s.Fallback.Serve(l)
	l.Close()
}

// newConn tracks rw, or closes it when the server is stopping.
func (s *Server) newConn(rw net.Conn) *conn {
	c := newConn(s, rw)
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closing.Load() {
		rw.Close()
		return nil
	}
	s.conns[c] = struct{}{}
	return c
}

func (s *Server) forget(c *conn) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.conns, c)
}

// handOver gives rw, its first bytes already read, to Fallback.
func (s *Server) handOver(c *conn, rw net.Conn) {
	s.forget(c)
	s.handoffs.Add(1)
	s.handed.give(rw)
}

// Shutdown stops accepting connections, closes idle ones and waits for the
// others to finish their request and close, or for ctx to end; Fallback
// shuts down alongside.
func (s *Server) Shutdown(ctx context.Context) error {
	s.stopAccepting()
	fallback := make(chan error, 1)
	go func() { fallback <- s.Fallback.Shutdown(ctx) }()
	poll := time.Millisecond
	for !s.closeIdle() {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(poll):
			poll = min(2*poll, 500*time.Millisecond)
		}
	}
	return <-fallback
}

// Close closes the listeners and every connection at once, requests in
// flight too, and Fallback's.
func (s *Server) Close() error {
	s.stopAccepting()
	s.mu.Lock()
	for c := range s.conns {
		c.rw.Close()
		delete(s.conns, c)
	}
	s.mu.Unlock()
	return s.Fallback.Close()
}

func (s *Server) stopAccepting() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closing.Store(true)
	for ln := range s.listeners {
		ln.Close()
	}
}

// closeIdle closes the connections waiting for a request and reports
// whether none is left.
func (s *Server) closeIdle() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	for c := range s.conns {
		if c.state.CompareAndSwap(stateIdle, stateClosed) {
			c.rw.Close()
			delete(s.conns, c)
		}
	}
	return len(s.conns) == 0
}

func (s *Server) maxBody() int64 {
	if s.MaxBodyBytes > 0 {
		return s.MaxBodyBytes
	}
	return DefaultMaxBodyBytes
}

// handoffListener is the listener Fallback serves: the connections handed
// over, one by one.
type handoffListener struct {
	conns  chan net.Conn
	done   chan struct{}
	closed sync.Once
}

func newHandoffListener() *handoffListener {
	return &handoffListener{conns: make(chan net.Conn), done: make(chan struct{})}
}

func (l *handoffListener) Accept() (net.Conn, error) {
	select {
	case c := <-l.conns:
		return c, nil
	case <-l.done:
		return nil, net.ErrClosed
	}
}

// give hands c to Fallback, or closes it when Fallback has stopped.
func (l *handoffListener) give(c net.Conn) {
	select {
	case l.conns <- c:
	case <-l.done:
		c.Close()
	}
}

func (l *handoffListener) Close() error {
	l.closed.Do(func() { close(l.done) })
	return nil
}

func (l *handoffListener) Addr() net.Addr { return handoffAddr{} }

type handoffAddr struct{}

func (handoffAddr) Network() string { return "httpfast" }
func (handoffAddr) String() string  { return "httpfast-handoff" }
