package server

import (
	"bytes"
	"compress/gzip"
	"compress/zlib"
	"hash/crc32"
	"io"
	"math"
	"net/http"
	"strconv"
	"strings"
	"sync"

	"github.com/sortkeydb/sortkey/internal/apierr"
)

// compressMinBytes is the largest response sent uncompressed to a client
// that takes gzip or deflate: DynamoDB compresses only responses over 4096
// bytes (observed on AWS). A compressed stream costs about 10µs of CPU
// however small (BenchmarkWriteBody), as much as a whole GetItem: below
// this size compressing would double the cost of a typical item read or
// write to save a few hundred bytes.
const compressMinBytes = 4 << 10

const (
	contentEncodingHeader = "Content-Encoding"
	acceptEncodingHeader  = "Accept-Encoding"
)

// The errors of a compressed request body. DynamoDB answers both with
// HTTP 500 (observed on AWS; its texts are not known): these are
// sortkey's, under sortkey's InternalServerError.
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
		return nil, apierr.New(apierr.InternalServerError, msgUnknownEncoding, coding)
	}
	if err != nil {
		return nil, apierr.New(apierr.InternalServerError, msgBadContent, coding)
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
		return nil, apierr.New(apierr.InternalServerError, msgBadContent, coding)
	}
	return out, nil
}

// coding is a response's content coding.
type coding uint8

const (
	identity coding = iota
	gzipCoding
	deflateCoding
)

// codingNames are the Content-Encoding values of the codings.
var codingNames = [...]string{gzipCoding: "gzip", deflateCoding: "deflate"}

// candidate is a coding an Accept-Encoding line allows, its q-value, and
// its rank among those of equal q: the lower, the earlier it was listed.
type candidate struct {
	c    coding
	q    float64
	rank int
}

// better reports whether a wins over b: a higher q-value, then a lower rank.
func (a candidate) better(b candidate) bool {
	return a.q > b.q || a.q == b.q && a.rank < b.rank
}

// responseCoding is the coding DynamoDB chooses (observed on AWS) for a
// response to a request whose first Accept-Encoding line is accept:
// gzip or deflate, whichever has the higher q-value, then whichever was
// listed first. "*" gives its q-value to each of them not named, ranked
// after every coding named, gzip before deflate. identity and other
// codings (x-gzip among them) count for nothing; none with q > 0 is
// identity.
func responseCoding(accept string) coding {
	best, wild, named := candidate{}, 0.0, codingSet{}
	for i := 0; accept != ""; i++ {
		var part string
		part, accept, _ = strings.Cut(accept, ",")
		name, params, _ := strings.Cut(part, ";")
		name = strings.TrimSpace(name)
		switch c, q := codingNamed(name), qValue(params); {
		case c != identity:
			named[c] = true
			best = pick(best, candidate{c, q, i})
		case name == "*":
			wild = max(wild, q)
		}
	}
	return wildcard(best, wild, named).c
}

// codingSet holds a flag per coding.
type codingSet [deflateCoding + 1]bool

// wildcard is best, or a coding not named that "*" allows at q if that
// wins over it.
func wildcard(best candidate, q float64, named codingSet) candidate {
	for _, c := range []coding{gzipCoding, deflateCoding} {
		if !named[c] {
			best = pick(best, candidate{c, q, math.MaxInt - 2 + int(c)})
		}
	}
	return best
}

// pick is the better of best and c, when c is allowed at all (q > 0).
func pick(best, c candidate) candidate {
	if c.q > 0 && (best.c == identity || c.better(best)) {
		return c
	}
	return best
}

// codingNamed is the compressed coding an Accept-Encoding entry names, in
// any case, or identity.
func codingNamed(name string) coding {
	switch {
	case strings.EqualFold(name, "gzip"):
		return gzipCoding
	case strings.EqualFold(name, "deflate"):
		return deflateCoding
	}
	return identity
}

// qValue reads an Accept-Encoding entry's parameters as DynamoDB does
// (observed on AWS): the value after the first "q=" anywhere in them (so
// "nq=0" counts, "q =0" does not), up to the next ';', spaces trimmed.
// Values over 1 count as 1; one that is not a number, or no "q=", is 1.
func qValue(params string) float64 {
	i := strings.Index(params, "q=")
	if i < 0 {
		return 1
	}
	v, _, _ := strings.Cut(params[i+2:], ";")
	q, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
	if err != nil || math.IsNaN(q) {
		return 1
	}
	return min(q, 1)
}

// compressors recycle the writers of each coding; BestSpeed, because a
// response is compressed on the request's critical path.
var compressors = [...]sync.Pool{
	gzipCoding: {New: func() any {
		w, _ := gzip.NewWriterLevel(nil, gzip.BestSpeed)
		return w
	}},
	deflateCoding: {New: func() any {
		w, _ := zlib.NewWriterLevel(nil, zlib.BestSpeed)
		return w
	}},
}

// compressor is what the gzip and zlib writers share.
type compressor interface {
	io.WriteCloser
	Reset(io.Writer)
}

// writeCompressedBody writes body compressed with c. X-Amz-Crc32 is over
// the bytes sent, the compressed ones, which is what SDKs check.
func writeCompressedBody(rp reply, status int, body []byte, c coding) {
	buf := bodies.Get().(*[]byte)
	defer recycle(buf)
	out := bytes.NewBuffer((*buf)[:0])
	zw := compressors[c].Get().(compressor)
	zw.Reset(out)
	_, _ = zw.Write(body)
	_ = zw.Close()
	compressors[c].Put(zw)
	*buf = out.Bytes()[:0]
	writeCompressed(rp, status, out.Bytes(), codingNames[c])
}

func writeCompressed(rp reply, status int, z []byte, name string) {
	h := rp.w.Header()
	vals := make([]string, 4)
	vals[0], vals[1], vals[2] = rp.contentType, strconv.Itoa(len(z)), name
	vals[3] = strconv.FormatUint(uint64(crc32.ChecksumIEEE(z)), 10)
	h[contentTypeHeader], h[contentLengthHeader] = vals[0:1:1], vals[1:2:2]
	h[contentEncodingHeader], h[crc32Header] = vals[2:3:3], vals[3:4:4]
	rp.w.WriteHeader(status)
	_, _ = rp.w.Write(z)
}
