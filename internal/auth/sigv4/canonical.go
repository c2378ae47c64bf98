package sigv4

import (
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"net/textproto"
	"net/url"
	"sort"
	"strconv"
	"strings"

	"github.com/sortkeydb/sortkey/internal/apierr"
)

// canonicalRequest builds AWS's canonical request for r (AWS General
// Reference, "Create a canonical request"): method, URI, query, the signed
// headers in the order the client listed them, the list itself, and the
// payload hash. A presigned request's canonical query leaves out its own
// X-Amz-Signature. It appends to buf so a caller can reuse one buffer.
func canonicalRequest(buf []byte, r *http.Request, signedHeaders, payloadHash string, presigned bool) ([]byte, *apierr.Error) {
	buf = append(buf, r.Method...)
	buf = append(buf, '\n')
	buf = appendCanonicalURI(buf, r.URL)
	buf = append(buf, '\n')
	buf = appendCanonicalQuery(buf, r.URL.RawQuery, presigned)
	buf = append(buf, '\n')
	for name := range strings.SplitSeq(signedHeaders, ";") {
		values, ok := headerValues(r, name)
		if !ok {
			return nil, apierr.New(apierr.IncompleteSignature, msgHeaderAbsent, name)
		}
		buf = appendCanonicalHeader(buf, name, values)
	}
	buf = append(buf, '\n')
	buf = append(buf, signedHeaders...)
	buf = append(buf, '\n')
	return append(buf, payloadHash...), nil
}

// headerValues finds a signed header in r. net/http moves Host, and on the
// client side Content-Length, out of r.Header, so those come from r's fields.
func headerValues(r *http.Request, name string) ([]string, bool) {
	if v, ok := lookupHeader(r.Header, name); ok {
		return v, true
	}
	switch strings.ToLower(name) {
	case "host":
		if r.Host != "" {
			return []string{r.Host}, true
		}
		return []string{r.URL.Host}, r.URL.Host != ""
	case "content-length":
		return []string{strconv.FormatInt(r.ContentLength, 10)}, r.ContentLength > 0
	case "transfer-encoding":
		return []string{strings.Join(r.TransferEncoding, ",")}, len(r.TransferEncoding) > 0
	}
	return nil, false
}

// lookupHeader is r.Header.Values(name) without the allocation of
// canonicalising a lowercase name: signed header names always need it, and
// indexing a map with string(bytes) does not copy.
func lookupHeader(h http.Header, name string) ([]string, bool) {
	var key [64]byte
	if len(name) > len(key) {
		v, ok := h[textproto.CanonicalMIMEHeaderKey(name)]
		return v, ok
	}
	upper := true
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !isTokenChar(c) {
			v, ok := h[name] // textproto leaves such names as they are
			return v, ok
		}
		if upper && 'a' <= c && c <= 'z' {
			c -= 'a' - 'A'
		} else if !upper {
			c = lower(c)
		}
		key[i] = c
		upper = c == '-'
	}
	v, ok := h[string(key[:len(name)])]
	return v, ok
}

// isTokenChar is RFC 9110's tchar, what textproto canonicalises.
func isTokenChar(c byte) bool {
	return unreserved(c) || strings.IndexByte("!#$%&'*+^`|", c) >= 0
}

// appendCanonicalHeader writes "name:v1,v2\n": the name lowercased, each
// value trimmed with runs of spaces collapsed to one.
func appendCanonicalHeader(buf []byte, name string, values []string) []byte {
	for i := 0; i < len(name); i++ {
		buf = append(buf, lower(name[i]))
	}
	buf = append(buf, ':')
	for i, v := range values {
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = appendCollapsed(buf, strings.TrimSpace(v))
	}
	return append(buf, '\n')
}

func lower(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

func appendCollapsed(buf []byte, v string) []byte {
	for i := 0; i < len(v); i++ {
		if v[i] == ' ' && i > 0 && v[i-1] == ' ' {
			continue
		}
		buf = append(buf, v[i])
	}
	return buf
}

// appendCanonicalURI writes the path URI-encoded once more on top of its
// escaped form: every AWS service but S3 signs the path encoded twice.
func appendCanonicalURI(buf []byte, u *url.URL) []byte {
	p := u.EscapedPath()
	if p == "" {
		return append(buf, '/')
	}
	return appendEncoded(buf, p, true)
}

// appendCanonicalQuery writes the query parameters decoded, re-encoded the
// RFC 3986 way and sorted by name, then value.
func appendCanonicalQuery(buf []byte, raw string, presigned bool) []byte {
	if raw == "" {
		return buf
	}
	pairs := queryPairs(raw, presigned)
	sort.Slice(pairs, func(i, j int) bool {
		if pairs[i][0] != pairs[j][0] {
			return pairs[i][0] < pairs[j][0]
		}
		return pairs[i][1] < pairs[j][1]
	})
	for i, p := range pairs {
		if i > 0 {
			buf = append(buf, '&')
		}
		buf = append(buf, p[0]...)
		buf = append(buf, '=')
		buf = append(buf, p[1]...)
	}
	return buf
}

// queryPairs splits a raw query into encoded name/value pairs, leaving
// out the signature of a presigned request, which cannot sign itself.
func queryPairs(raw string, presigned bool) [][2]string {
	var pairs [][2]string
	for part := range strings.SplitSeq(raw, "&") {
		if part == "" {
			continue
		}
		k, v, _ := strings.Cut(part, "=")
		k, v = reencode(k), reencode(v)
		if !presigned || k != querySignature {
			pairs = append(pairs, [2]string{k, v})
		}
	}
	return pairs
}

// reencode decodes one query component (leaving it as sent if it does not
// decode) and encodes it again the way SigV4 wants.
func reencode(s string) string {
	if d, err := url.QueryUnescape(s); err == nil {
		s = d
	}
	return string(appendEncoded(nil, s, false))
}

// appendEncoded percent-encodes every byte but RFC 3986's unreserved ones
// (and '/' when keepSlash), with upper-case hex digits.
func appendEncoded(buf []byte, s string, keepSlash bool) []byte {
	const hexDigits = "0123456789ABCDEF"
	for i := 0; i < len(s); i++ {
		c := s[i]
		if unreserved(c) || (keepSlash && c == '/') {
			buf = append(buf, c)
			continue
		}
		buf = append(buf, '%', hexDigits[c>>4], hexDigits[c&15])
	}
	return buf
}

func unreserved(c byte) bool {
	return 'A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' || '0' <= c && c <= '9' ||
		c == '-' || c == '_' || c == '.' || c == '~'
}

// payloadHash is the lowercase hex SHA-256 of the body as received.
func payloadHash(body []byte) string {
	sum := sha256.Sum256(body)
	return hex.EncodeToString(sum[:])
}
