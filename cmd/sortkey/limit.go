package main

import (
	"net"
	"sync"
)

// limitListener keeps at most cap(slots) connections open. Accept takes a
// slot before it takes a connection, so connections beyond the cap wait in
// the kernel's accept backlog, and are served in turn as others close,
// rather than refused: a burst of clients is slowed, not failed. Slow and
// idle connections free their slot within the read and idle timeouts, so
// the wait is bounded.
type limitListener struct {
	net.Listener
	slots     chan struct{}
	done      chan struct{} // closed by Close, to end an Accept waiting for a slot
	closeOnce sync.Once
}

func limitListen(ln net.Listener, n int) *limitListener {
	return &limitListener{Listener: ln, slots: make(chan struct{}, n), done: make(chan struct{})}
}

func (l *limitListener) Accept() (net.Conn, error) {
	select {
	case l.slots <- struct{}{}:
	case <-l.done:
		return nil, net.ErrClosed
	}
	c, err := l.Listener.Accept()
	if err != nil {
		<-l.slots
		return nil, err
	}
	return &limitConn{Conn: c, release: sync.OnceFunc(func() { <-l.slots })}, nil
}

func (l *limitListener) Close() error {
	l.closeOnce.Do(func() { close(l.done) })
	return l.Listener.Close()
}

// limitConn gives its slot back when closed, once however often it is
// closed.
type limitConn struct {
	net.Conn
	release func()
}

func (c *limitConn) Close() error {
	err := c.Conn.Close()
	c.release()
	return err
}

// CloseWrite passes through to the TCP connection: net/http half-closes a
// connection before closing it, so that a client still sending reads the
// answer before a reset.
func (c *limitConn) CloseWrite() error {
	if cw, ok := c.Conn.(interface{ CloseWrite() error }); ok {
		return cw.CloseWrite()
	}
	return nil
}
