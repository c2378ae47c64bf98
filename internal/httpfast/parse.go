package httpfast

import (
	"bytes"
	"net/http"
	"strings"
)

// requestLine is the only request line the fast path takes.
const requestLine = "POST / HTTP/1.1\r\n"

// maxHeaderLines bounds the header lines of a fast-path request; a request
// with more is handed to net/http, which applies its own limits.
const maxHeaderLines = 128

// verdict is what parseRequest makes of the bytes so far.
type verdict int

const (
	needMore verdict = iota // a prefix of a fast-path request: read more
	handOver                // not the fast path's: net/http parses it
	accepted                // a fast-path request's head, complete
)

// head is a fast-path request's parsed head.
type head struct {
	header        http.Header
	host          string
	contentLength int64
	close         bool // Connection: close
	size          int  // bytes of request line and headers, final CRLF included
}

// parseRequest parses the head of the request at the start of buf. It
// accepts only what net/http's server would parse into the same request
// (see FuzzParseRequest); anything it is unsure of is handed over.
func parseRequest(buf []byte, maxBody int64) (head, verdict) {
	var h head
	if len(buf) < len(requestLine) {
		if string(buf) == requestLine[:len(buf)] {
			return h, needMore
		}
		return h, handOver
	}
	if string(buf[:len(requestLine)]) != requestLine {
		return h, handOver
	}
	end := bytes.Index(buf, crlfcrlf)
	if end < 0 {
		return h, lineVerdict(buf[len(requestLine):])
	}
	h.size = end + len(crlfcrlf)
	// One string holds every header value: one allocation, not one each.
	block := string(buf[len(requestLine) : end+2])
	return h, h.parseHeaders(block, maxBody)
}

var crlfcrlf = []byte("\r\n\r\n")

// lineVerdict checks the complete header lines of an unfinished head, so
// that malformed input is handed over as soon as it is seen rather than
// once the head is complete (a client may never complete it).
func lineVerdict(b []byte) verdict {
	var sc headerScan
	for {
		i := bytes.Index(b, crlf)
		if i < 0 {
			return needMore
		}
		if _, _, ok := sc.line(string(b[:i])); !ok {
			return handOver
		}
		b = b[i+2:]
	}
}

var crlf = []byte("\r\n")

// parseHeaders parses block, the header lines each ending in CRLF.
func (h *head) parseHeaders(block string, maxBody int64) verdict {
	h.header = make(http.Header, 12)
	// Each name's value slice is cut from one array, capacity one, so a
	// repeated name appends into a copy: one allocation, not one a name.
	values := make([]string, 0, 12)
	var sc headerScan
	hosts, lengths := 0, 0
	for len(block) > 0 {
		i := indexCRLF(block)
		key, value, ok := sc.line(block[:i])
		if !ok {
			return handOver
		}
		block = block[i+2:]
		switch key {
		case "Host":
			hosts++
			h.host = value
			continue
		case "Content-Length":
			lengths++
			if h.contentLength, ok = parseLength(value); !ok {
				return handOver
			}
		case "Transfer-Encoding", "Expect", "Upgrade", "Trailer", "Pragma":
			return handOver
		case "Connection":
			h.close = h.close || hasToken(value, "close")
		}
		if vs, ok := h.header[key]; ok {
			h.header[key] = append(vs, value)
			continue
		}
		values = append(values, value)
		h.header[key] = values[len(values)-1 : len(values) : len(values)]
	}
	if hosts != 1 || lengths != 1 || !validHost(h.host) || h.contentLength > maxBody {
		return handOver
	}
	return accepted
}

func indexCRLF(s string) int {
	if i := strings.Index(s, "\r\n"); i >= 0 {
		return i
	}
	return len(s)
}

// headerScan checks header lines one by one, counting them.
type headerScan struct{ lines int }

// line splits one header line (without its CRLF) into its canonical key
// and its value, trimmed as textproto trims it. It refuses what net/http's
// server would refuse or read differently: a continuation line, a key that
// is not a token, a value with control bytes (a stray CR or LF too).
func (sc *headerScan) line(l string) (key, value string, ok bool) {
	sc.lines++
	colon := strings.IndexByte(l, ':')
	if colon <= 0 || sc.lines > maxHeaderLines {
		return "", "", false
	}
	k, v := l[:colon], l[colon+1:]
	for i := 0; i < len(k); i++ {
		if !tokenByte[k[i]] {
			return "", "", false
		}
	}
	for i := 0; i < len(v); i++ {
		if badValueByte[v[i]] {
			return "", "", false
		}
	}
	return canonicalKey(k), trimSpace(v), true
}

func trimSpace(s string) string {
	for len(s) > 0 && (s[0] == ' ' || s[0] == '\t') {
		s = s[1:]
	}
	for len(s) > 0 && (s[len(s)-1] == ' ' || s[len(s)-1] == '\t') {
		s = s[:len(s)-1]
	}
	return s
}

// parseLength reads a Content-Length as net/http does (decimal digits,
// leading zeros allowed), refusing more than 18 digits rather than
// checking for overflow.
func parseLength(s string) (int64, bool) {
	if len(s) == 0 || len(s) > 18 {
		return 0, false
	}
	var n int64
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
		n = n*10 + int64(s[i]-'0')
	}
	return n, true
}

// hasToken reports whether the comma-separated list v holds token,
// ASCII case-insensitively, as net/http reads Connection.
func hasToken(v, token string) bool {
	for len(v) > 0 {
		item := v
		if i := indexByte(v, ','); i >= 0 {
			item, v = v[:i], v[i+1:]
		} else {
			v = ""
		}
		if equalFold(trimSpace(item), token) {
			return true
		}
	}
	return false
}

func indexByte(s string, c byte) int {
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			return i
		}
	}
	return -1
}

func equalFold(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := 0; i < len(a); i++ {
		if lower(a[i]) != lower(b[i]) {
			return false
		}
	}
	return true
}

func lower(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// validHost is a stricter form of net/http's Host check: letters, digits
// and the punctuation of names, IPv4 and IPv6 addresses and ports.
func validHost(h string) bool {
	for i := 0; i < len(h); i++ {
		c := h[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || indexByte(".-:[]_%~", c) >= 0) {
			return false
		}
	}
	return true
}

// canonicalKey is k in net/http's canonical form. The names AWS SDKs send
// come from a table without allocating; another canonical key is a
// substring of the header block; only a key sent in another case is
// copied.
func canonicalKey(k string) string {
	if c, ok := commonKeys[k]; ok {
		return c
	}
	if isCanonical(k) {
		return k
	}
	return http.CanonicalHeaderKey(k)
}

func isCanonical(k string) bool {
	upper := true
	for i := 0; i < len(k); i++ {
		c := k[i]
		if upper && 'a' <= c && c <= 'z' || !upper && 'A' <= c && c <= 'Z' {
			return false
		}
		upper = c == '-'
	}
	return true
}

// commonKeys maps the header names AWS SDKs and CLIs send, in the cases
// they send them, to their canonical form.
var commonKeys = func() map[string]string {
	m := map[string]string{}
	for _, k := range []string{"Host", "User-Agent", "Content-Length", "Content-Type", "Accept-Encoding",
		"Accept", "Authorization", "Connection", "X-Amz-Date", "X-Amz-Target", "X-Amz-Security-Token",
		"X-Amz-Content-Sha256", "X-Amz-User-Agent", "Amz-Sdk-Invocation-Id", "Amz-Sdk-Request",
		"X-Amz-Crc32", "X-Amzn-Trace-Id", "X-Amz-Account-Id"} {
		m[k] = k
		m[toLowerString(k)] = k
	}
	return m
}()

func toLowerString(s string) string {
	b := []byte(s)
	for i, c := range b {
		b[i] = lower(c)
	}
	return string(b)
}

// badValueByte marks the control bytes net/http refuses in a header value
// (all but horizontal tab).
var badValueByte = func() (t [256]bool) {
	for c := 0; c < ' '; c++ {
		t[c] = c != '\t'
	}
	t[0x7f] = true
	return t
}()

// tokenByte marks the bytes of an RFC 7230 token, the bytes net/http
// accepts in a header name.
var tokenByte = func() (t [256]bool) {
	for c := '0'; c <= '9'; c++ {
		t[c] = true
	}
	for c := 'a'; c <= 'z'; c++ {
		t[c], t[c-'a'+'A'] = true, true
	}
	for _, c := range "!#$%&'*+-.^_`|~" {
		t[c] = true
	}
	return t
}()
