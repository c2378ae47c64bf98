package server

import (
	"math/rand/v2"
	"strconv"
	"unsafe"
)

// headerValues holds the values of one response's own headers (the
// request id, Content-Type, Content-Length, X-Amz-Crc32) and the text of
// the generated ones, so that they take one allocation per request
// instead of five. The text is written once and never changed after a
// string is made of it, which is what makes those strings safe.
type headerValues struct {
	vals [4]string
	text [requestIDLen + 2*20]byte // the id, then two numbers
	n    int                       // bytes of text handed out
	body bool                      // vals[1:4] are taken by a body's headers
}

const requestIDLen = 52

// keep returns b, which was appended to hv.free(), as a string, and takes
// its bytes out of the free space; text that outgrew it is copied.
func (hv *headerValues) keep(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	if hv.n == len(hv.text) || &b[0] != &hv.text[hv.n] {
		return string(b)
	}
	hv.n += len(b)
	return unsafe.String(&b[0], len(b))
}

func (hv *headerValues) free() []byte { return hv.text[hv.n:hv.n] }

// requestID returns a new id for the request, set as its first value.
func (hv *headerValues) requestID() string {
	hv.vals[0] = hv.keep(appendRequestID(hv.free()))
	return hv.vals[0]
}

// bodyValues returns the slots for a body's three headers, or new ones
// if a body was already written with these.
func (hv *headerValues) bodyValues() []string {
	if hv == nil || hv.body {
		return make([]string, 3)
	}
	hv.body = true
	return hv.vals[1:4]
}

// number returns n in decimal, from hv's text while it has room.
func (hv *headerValues) number(n uint64) string {
	if hv == nil {
		return strconv.FormatUint(n, 10)
	}
	return hv.keep(strconv.AppendUint(hv.free(), n, 10))
}

// appendRequestID appends a random request id in DynamoDB's shape: 52
// characters of upper-case letters and digits.
func appendRequestID(b []byte) []byte {
	const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
	const perDraw = 12 // 36^12 < 2^64
	for i := 0; i < requestIDLen; i += perDraw {
		n := rand.Uint64()
		for j := i; j < min(i+perDraw, requestIDLen); j++ {
			b = append(b, alphabet[n%36])
			n /= 36
		}
	}
	return b
}
