package bench

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"sync"
	"time"
)

// rawEndpoint is where raw requests go: the address to dial, and the Host
// header and request target every request carries.
type rawEndpoint struct {
	addr, host, path string
}

// parseRaw reports whether endpoint can be loaded over raw HTTP/1.1:
// plain http only, as TLS is net/http's job.
func parseRaw(endpoint string) (rawEndpoint, bool) {
	u, err := url.Parse(endpoint)
	if err != nil || u.Scheme != "http" || u.Host == "" {
		return rawEndpoint{}, false
	}
	addr := u.Host
	if u.Port() == "" {
		addr = net.JoinHostPort(u.Hostname(), "80")
	}
	return rawEndpoint{addr: addr, host: u.Host, path: u.RequestURI()}, true
}

// wire is r's whole request on the wire, built once so a send is one
// Write; the body it returns is the tail of the same bytes, so keeping
// both costs no second copy of the body.
func (e rawEndpoint) wire(r Request) (wire, body []byte) {
	return e.signedWire(r, nil)
}

// signedWire is wire with extra headers: a SigV4 signature's.
func (e rawEndpoint) signedWire(r Request, extra http.Header) (wire, body []byte) {
	head := "POST " + e.path + " HTTP/1.1\r\nHost: " + e.host +
		"\r\nContent-Type: application/x-amz-json-1.0\r\nX-Amz-Target: DynamoDB_20120810." + r.Op +
		"\r\nContent-Length: " + strconv.Itoa(len(r.Body)) + "\r\n"
	for k, vs := range extra {
		for _, v := range vs {
			head += k + ": " + v + "\r\n"
		}
	}
	head += "\r\n"
	wire = make([]byte, 0, len(head)+len(r.Body))
	wire = append(append(wire, head...), r.Body...)
	return wire, wire[len(head):]
}

// rawConn is one goroutine's keep-alive connection. net/http hands each
// request to a connection's read and write goroutines and builds a
// Request and a Header map per send: on a machine the client shares with
// the server it measures, that costs more CPU than a GetItem costs the
// server, so the client would set the pace it claims to measure.
type rawConn struct {
	addr    string
	timeout time.Duration // per request; 0: none

	mu   sync.Mutex // guards conn between its owner and abort
	conn net.Conn   // nil: dial on the next send
	br   *bufio.Reader
	body []byte // the last kept body, reused from send to send
}

// rawBufSize holds a Query's answer in one read.
const rawBufSize = 32 << 10

// maxRawBody bounds what a wrong Content-Length or chunk size can make
// the client allocate.
const maxRawBody = 256 << 20

// errStale marks a failure before any answer on a connection that had
// answered before: a server may close an idle keep-alive connection at
// any time, and the request is then sent again on a new one.
var errStale = errors.New("connection closed before answering")

// do sends one request's wire bytes and reads the answer: its status,
// and its body when keep is set or the status is not 200 (for the error
// message). The body is valid until the next call.
func (c *rawConn) do(ctx context.Context, wire []byte, keep bool) (int, []byte, error) {
	reused := c.conn != nil
	status, body, err := c.once(ctx, wire, keep)
	if err != nil && reused && errors.Is(err, errStale) && ctx.Err() == nil {
		status, body, err = c.once(ctx, wire, keep)
	}
	return status, body, err
}

// once is one attempt; any failure leaves the connection closed, as
// what is left on it can no longer be told apart from the next answer.
func (c *rawConn) once(ctx context.Context, wire []byte, keep bool) (int, []byte, error) {
	status, body, closing, err := c.exchange(ctx, wire, keep)
	if err != nil || closing {
		c.close()
	}
	return status, body, err
}

func (c *rawConn) exchange(ctx context.Context, wire []byte, keep bool) (int, []byte, bool, error) {
	if err := c.ready(ctx); err != nil {
		return 0, nil, false, err
	}
	if _, err := c.conn.Write(wire); err != nil {
		return 0, nil, false, stale(err)
	}
	h, err := c.readHead()
	if err != nil {
		return 0, nil, false, err
	}
	c.body = c.body[:0]
	err = c.readBody(&h, keep || h.status != 200)
	return h.status, c.body, h.close, err
}

// ready dials if need be and sets this request's deadline. Checking ctx
// after setting it catches an abort that ran just before and whose past
// deadline the new one replaced.
func (c *rawConn) ready(ctx context.Context) error {
	if c.conn == nil {
		if err := c.dial(ctx); err != nil {
			return err
		}
	}
	if c.timeout > 0 {
		if err := c.conn.SetDeadline(time.Now().Add(c.timeout)); err != nil {
			return err
		}
	}
	return ctx.Err()
}

func (c *rawConn) dial(ctx context.Context) error {
	d := net.Dialer{Timeout: c.timeout}
	conn, err := d.DialContext(ctx, "tcp", c.addr)
	if err != nil {
		return err
	}
	c.mu.Lock()
	c.conn = conn
	c.mu.Unlock()
	if c.br == nil {
		c.br = bufio.NewReaderSize(conn, rawBufSize)
	} else {
		c.br.Reset(conn)
	}
	return nil
}

func (c *rawConn) close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.conn != nil {
		c.conn.Close()
		c.conn = nil
	}
}

// abort makes the request in flight, if any, fail now: it runs when the
// owner's context ends, from another goroutine.
func (c *rawConn) abort() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.conn != nil {
		c.conn.SetDeadline(time.Unix(1, 0))
	}
}

// stale marks err as a stale connection's failure unless it is a
// timeout, which sending again would only repeat.
func stale(err error) error {
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		return err
	}
	return fmt.Errorf("%w: %w", errStale, err)
}

// rawHead is what the client needs of a response's status and headers.
type rawHead struct {
	status  int
	length  int64 // -1: not given
	chunked bool
	close   bool // the server closes the connection after this answer
}

// readHead reads the status line and headers, skipping any 1xx interim
// answer. Lines are read in place in the buffer, so headers allocate
// nothing.
func (c *rawConn) readHead() (rawHead, error) {
	for {
		line, err := c.br.ReadSlice('\n')
		if err != nil {
			if len(line) == 0 && c.br.Buffered() == 0 {
				err = stale(err)
			}
			return rawHead{}, fmt.Errorf("reading status line: %w", err)
		}
		h, err := parseStatus(line)
		if err != nil {
			return h, err
		}
		if err := c.readHeaders(&h); err != nil || h.status >= 200 || h.status == 101 {
			return h, err
		}
	}
}

// parseStatus parses "HTTP/1.x NNN reason".
func parseStatus(line []byte) (rawHead, error) {
	line = trimCRLF(line)
	if len(line) < 12 || !bytes.HasPrefix(line, []byte("HTTP/1.")) || line[8] != ' ' || (len(line) > 12 && line[12] != ' ') {
		return rawHead{}, fmt.Errorf("malformed status line %.100q", line)
	}
	status, ok := atoi(line[9:12])
	if !ok {
		return rawHead{}, fmt.Errorf("malformed status line %.100q", line)
	}
	// HTTP/1.0 closes after each answer unless it says keep-alive.
	return rawHead{status: int(status), length: -1, close: line[7] == '0'}, nil
}

func (c *rawConn) readHeaders(h *rawHead) error {
	for {
		line, err := c.br.ReadSlice('\n')
		if err != nil {
			return fmt.Errorf("reading headers: %w", err)
		}
		line = trimCRLF(line)
		if len(line) == 0 {
			return nil
		}
		if err := h.header(line); err != nil {
			return err
		}
	}
}

var (
	hContentLength    = []byte("Content-Length")
	hTransferEncoding = []byte("Transfer-Encoding")
	hConnection       = []byte("Connection")
	tChunked          = []byte("chunked")
	tClose            = []byte("close")
	tKeepAlive        = []byte("keep-alive")
)

// header notes the one header line among those that frame the body or
// end the connection; the rest are skipped.
func (h *rawHead) header(line []byte) error {
	name, value, ok := bytes.Cut(line, []byte(":"))
	if !ok {
		return fmt.Errorf("malformed header %.100q", line)
	}
	value = bytes.TrimSpace(value)
	switch {
	case bytes.EqualFold(name, hContentLength):
		n, ok := atoi(value)
		if !ok {
			return fmt.Errorf("bad Content-Length %.40q", value)
		}
		h.length = n
	case bytes.EqualFold(name, hTransferEncoding):
		h.chunked = lastToken(value, tChunked)
	case bytes.EqualFold(name, hConnection):
		h.close = hasToken(value, tClose) || (h.close && !hasToken(value, tKeepAlive))
	}
	return nil
}

// readBody reads the body as the head frames it, appending it to c.body
// when keep is set and discarding it otherwise.
func (c *rawConn) readBody(h *rawHead, keep bool) error {
	switch {
	case h.status < 200 || h.status == 204 || h.status == 304:
		return nil
	case h.chunked:
		return c.readChunked(keep)
	case h.length >= 0:
		return c.take(h.length, keep)
	default: // no framing: the body ends when the server closes
		h.close = true
		return c.readToEOF(keep)
	}
}

// take reads n bytes of body.
func (c *rawConn) take(n int64, keep bool) error {
	if n > maxRawBody {
		return fmt.Errorf("body of %d bytes", n)
	}
	if !keep {
		_, err := c.br.Discard(int(n))
		return err
	}
	start := len(c.body)
	c.body = slices.Grow(c.body, int(n))[:start+int(n)]
	_, err := io.ReadFull(c.br, c.body[start:])
	return err
}

func (c *rawConn) readToEOF(keep bool) error {
	if !keep {
		_, err := io.Copy(io.Discard, c.br)
		return err
	}
	b := bytes.NewBuffer(c.body)
	_, err := b.ReadFrom(io.LimitReader(c.br, maxRawBody))
	c.body = b.Bytes()
	return err
}

// readChunked reads a chunked body: chunks until the empty one, then
// trailers until an empty line.
func (c *rawConn) readChunked(keep bool) error {
	for {
		n, err := c.chunkSize()
		if err != nil {
			return err
		}
		if n == 0 {
			return c.readHeaders(&rawHead{})
		}
		if err := c.take(n, keep); err != nil {
			return err
		}
		if err := c.crlf(); err != nil {
			return err
		}
	}
}

// chunkSize reads a chunk's size line, ignoring chunk extensions.
func (c *rawConn) chunkSize() (int64, error) {
	line, err := c.br.ReadSlice('\n')
	if err != nil {
		return 0, fmt.Errorf("reading chunk size: %w", err)
	}
	line, _, _ = bytes.Cut(trimCRLF(line), []byte(";"))
	n, err := strconv.ParseInt(string(bytes.TrimSpace(line)), 16, 64)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("bad chunk size %.40q", line)
	}
	return n, nil
}

func (c *rawConn) crlf() error {
	line, err := c.br.ReadSlice('\n')
	if err == nil && len(trimCRLF(line)) != 0 {
		err = fmt.Errorf("chunk followed by %.40q", line)
	}
	return err
}

func trimCRLF(line []byte) []byte {
	line = bytes.TrimSuffix(line, []byte("\n"))
	return bytes.TrimSuffix(line, []byte("\r"))
}

// atoi parses a non-negative decimal without allocating.
func atoi(b []byte) (int64, bool) {
	if len(b) == 0 || len(b) > 18 {
		return 0, false
	}
	var n int64
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int64(c-'0')
	}
	return n, true
}

// hasToken reports whether the comma-separated list holds tok, in any case.
func hasToken(list, tok []byte) bool {
	for part := range bytes.SplitSeq(list, []byte(",")) {
		if bytes.EqualFold(bytes.TrimSpace(part), tok) {
			return true
		}
	}
	return false
}

// lastToken reports whether tok ends the list: "gzip, chunked" is chunked.
func lastToken(list, tok []byte) bool {
	i := bytes.LastIndexByte(list, ',')
	return bytes.EqualFold(bytes.TrimSpace(list[i+1:]), tok)
}
