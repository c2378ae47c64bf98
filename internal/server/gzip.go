package server

import (
	"bytes"
	"compress/gzip"
	"compress/zlib"
	"hash/crc32"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"

	"github.com/sortkeydb/sortkey/internal/apierr"
)

// gzipMinBytes is the smallest response compressed for a client that
// takes gzip. DynamoDB compresses only larger responses and does not
// document where it starts (users report about 4 KB). A gzip stream costs
// about 10µs of CPU however small (BenchmarkWriteBody), as much as a whole
// GetItem: below this size, compressing would double the cost of a
// typical item read or write to save a few hundred bytes.
const gzipMinBytes = 4 << 10

const (
	contentEncodingHeader = "Content-Encoding"
	acceptEncodingHeader  = "Accept-Encoding"
)

// The errors of a compressed request body.
const (
	msgBadContent      = "The request body is not valid %s data"
	msgUnknownEncoding = "Unsupported Content-Encoding: %s"
)

// decodeContent undoes the request's Content-Encoding, last coding first.
// The decoded body has the same limit as a plain one, so a small body
// that expands enormously (a gzip bomb) is refused as soon as it passes it.
func decodeContent(h http.Header, body []byte) ([]byte, error) {
	var err error
	for codings := strings.Join(h[contentEncodingHeader], ","); codings != "" && err == nil; {
		var coding string
		codings, coding = lastCoding(codings)
		body, err = decode(coding, body)
	}
	return body, err
}

// lastCoding splits the last coding off a Content-Encoding list.
func lastCoding(codings string) (rest, last string) {
	i := strings.LastIndexByte(codings, ',')
	return codings[:max(i, 0)], strings.TrimSpace(codings[i+1:])
}

// decode undoes one content coding: gzip or deflate (zlib), the codings
// DynamoDB takes.
func decode(coding string, body []byte) ([]byte, error) {
	var r io.Reader
	var err error
	switch strings.ToLower(coding) {
	case "", "identity":
		return body, nil
	case "gzip", "x-gzip":
		r, err = gzip.NewReader(bytes.NewReader(body))
	case "deflate":
		r, err = zlib.NewReader(bytes.NewReader(body))
	default:
		return nil, apierr.New(apierr.Serialization, msgUnknownEncoding, coding)
	}
	if err != nil {
		return nil, apierr.New(apierr.Serialization, msgBadContent, coding)
	}
	return readDecoded(r, coding)
}

// readDecoded reads a decompressing reader to its end, at most one byte
// past the body limit.
func readDecoded(r io.Reader, coding string) ([]byte, error) {
	out, err := io.ReadAll(io.LimitReader(r, MaxBodyBytes+1))
	switch {
	case len(out) > MaxBodyBytes:
		return nil, tooLarge()
	case err != nil:
		return nil, apierr.New(apierr.Serialization, msgBadContent, coding)
	}
	return out, nil
}

// acceptsGzip reports whether the client takes a gzip response: it lists
// gzip without q=0, or lists * without q=0 and does not name gzip.
func acceptsGzip(h http.Header) bool {
	v := h[acceptEncodingHeader]
	if len(v) == 0 || v[0] == "identity" {
		return false
	}
	if q := quality(v, "gzip", "x-gzip"); q >= 0 {
		return q == 1
	}
	return quality(v, "*", "*") == 1
}

// quality is for the first coding named a or b in Accept-Encoding lines:
// -1 if none is listed, 0 if it is refused (q=0), 1 if it is accepted.
func quality(lines []string, a, b string) int {
	for _, line := range lines {
		for line != "" {
			var part string
			part, line, _ = strings.Cut(line, ",")
			name, params, _ := strings.Cut(part, ";")
			if name = strings.TrimSpace(name); strings.EqualFold(name, a) || strings.EqualFold(name, b) {
				return qualityOf(params)
			}
		}
	}
	return -1
}

// qualityOf is 0 when params give q=0 (refused), 1 otherwise.
func qualityOf(params string) int {
	for params != "" {
		var p string
		p, params, _ = strings.Cut(params, ";")
		k, v, _ := strings.Cut(strings.TrimSpace(p), "=")
		if strings.EqualFold(k, "q") && strings.Trim(strings.TrimSpace(v), "0.") == "" {
			return 0
		}
	}
	return 1
}

// gzipWriters recycles compressors; BestSpeed, because a response is
// compressed on the request's critical path.
var gzipWriters = sync.Pool{New: func() any {
	w, _ := gzip.NewWriterLevel(nil, gzip.BestSpeed)
	return w
}}

// writeGzip writes body gzip-compressed. X-Amz-Crc32 is over the bytes
// sent, the compressed ones, which is what SDKs check.
func writeGzip(rp reply, status int, body []byte) {
	buf := bodies.Get().(*[]byte)
	defer recycle(buf)
	out := bytes.NewBuffer((*buf)[:0])
	zw := gzipWriters.Get().(*gzip.Writer)
	zw.Reset(out)
	_, _ = zw.Write(body)
	_ = zw.Close()
	gzipWriters.Put(zw)
	*buf = out.Bytes()[:0]
	writeCompressed(rp, status, out.Bytes())
}

func writeCompressed(rp reply, status int, gz []byte) {
	h := rp.w.Header()
	vals := make([]string, 4)
	vals[0], vals[1], vals[2] = rp.contentType, strconv.Itoa(len(gz)), "gzip"
	vals[3] = strconv.FormatUint(uint64(crc32.ChecksumIEEE(gz)), 10)
	h[contentTypeHeader], h[contentLengthHeader] = vals[0:1:1], vals[1:2:2]
	h[contentEncodingHeader], h[crc32Header] = vals[2:3:3], vals[3:4:4]
	rp.w.WriteHeader(status)
	_, _ = rp.w.Write(gz)
}
