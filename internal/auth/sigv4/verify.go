package sigv4

import (
	"crypto/hmac"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/sortkeydb/sortkey/internal/apierr"
)

// Key is the secret side of an access key, looked up by its ID.
type Key struct {
	Secret       string
	SessionToken string // non-empty: temporary credentials; the request must carry exactly this token
}

// Verifier checks requests signed for one region and service. It must not be
// copied after first use: it holds the signing-key cache.
type Verifier struct {
	Region  string // e.g. "us-east-1"; the credential scope must name it
	Service string // "dynamodb" (also what DynamoDB Streams clients sign with)
	Lookup  func(accessKeyID string) (Key, bool)
	Now     func() time.Time // nil = time.Now

	keys keyCache
}

// maxSkew is how far DynamoDB lets a request's date stray from its clock.
const maxSkew = 15 * time.Minute

const (
	headerAuthorization = "Authorization"
	headerAmzDate       = "X-Amz-Date"
	headerDate          = "Date"
	headerToken         = "X-Amz-Security-Token"
	headerContentSHA256 = "X-Amz-Content-Sha256"
)

// request is what a signature covers and claims, read either from the
// Authorization header or from presigned query parameters.
type request struct {
	scope         scope
	amzDate       string
	when          time.Time
	expires       time.Duration // presigned only; 0 = the plain clock window
	signedHeaders string
	signature     string
	token         string
	presigned     bool
}

// Verify checks r's SigV4 Authorization header against body (the raw request body bytes as received,
// before any Content-Encoding is undone) and returns the access key ID that signed it.
// Every error is an *apierr.Error (package internal/apierr) with DynamoDB's code and message.
func (v *Verifier) Verify(r *http.Request, body []byte) (accessKeyID string, err error) {
	var req request
	var e *apierr.Error
	if header, ok := r.Header[headerAuthorization]; ok {
		req, e = fromHeader(r, strings.Join(header, ","))
	} else if r.URL.Query().Has(queryAlgorithm) {
		req, e = fromQuery(r)
	} else {
		e = apierr.New(apierr.MissingAuthenticationToken, msgMissingToken)
	}
	if e == nil {
		e = v.verify(r, body, &req)
	}
	if e != nil {
		return "", e
	}
	return req.scope.accessKeyID, nil
}

// fromHeader reads an Authorization-header signature, checking its form in
// the order AWS reports problems.
func fromHeader(r *http.Request, header string) (request, *apierr.Error) {
	amzDate, date := r.Header.Get(headerAmzDate), r.Header.Get(headerDate)
	auth, e := parseAuthorization(header, amzDate != "" || date != "")
	if e != nil {
		return request{}, e
	}
	req := request{signedHeaders: auth.signedHeaders, signature: auth.signature, token: r.Header.Get(headerToken)}
	if req.scope, e = parseScope(auth.credential); e != nil {
		return req, e
	}
	req.when, req.amzDate, e = requestTime(amzDate, date)
	return req, e
}

// verify runs the checks common to both forms of signature.
func (v *Verifier) verify(r *http.Request, body []byte, req *request) *apierr.Error {
	if e := req.scope.check(req.amzDate, v.Region, v.Service); e != nil {
		return e
	}
	if !signsHost(req.signedHeaders) {
		return apierr.New(apierr.InvalidSignature, msgHostUnsigned)
	}
	if e := v.checkClock(req); e != nil {
		return e
	}
	key, e := v.lookup(req)
	if e != nil {
		return e
	}
	return v.checkSignature(r, body, req, key)
}

func signsHost(signedHeaders string) bool {
	for name := range strings.SplitSeq(signedHeaders, ";") {
		if strings.EqualFold(name, "host") {
			return true
		}
	}
	return false
}

func (v *Verifier) now() time.Time {
	if v.Now != nil {
		return v.Now().UTC()
	}
	return time.Now().UTC()
}

// checkClock rejects a request dated too far from now either way; a
// presigned request may instead be as old as its X-Amz-Expires.
func (v *Verifier) checkClock(req *request) *apierr.Error {
	now := v.now()
	if late := now.Add(maxSkew); req.when.After(late) {
		return apierr.New(apierr.InvalidSignature, msgNotYetCurrent, req.amzDate, late.Format(amzDateFmt), now.Format(amzDateFmt))
	}
	if req.expires > 0 {
		return checkExpires(req, now)
	}
	if early := now.Add(-maxSkew); req.when.Before(early) {
		return apierr.New(apierr.InvalidSignature, msgExpired, req.amzDate, early.Format(amzDateFmt), now.Format(amzDateFmt))
	}
	return nil
}

// lookup finds the key and checks the session token, comparing tokens in
// constant time.
func (v *Verifier) lookup(req *request) (Key, *apierr.Error) {
	var key Key
	ok := v.Lookup != nil
	if ok {
		key, ok = v.Lookup(req.scope.accessKeyID)
	}
	if !ok || subtle.ConstantTimeCompare([]byte(req.token), []byte(key.SessionToken)) != 1 {
		return Key{}, apierr.New(apierr.UnrecognizedClient, msgBadToken)
	}
	return key, nil
}

// checkSignature recomputes the signature and compares it in constant time.
// A payload hash header that disagrees with the body means the body is not
// what was signed.
func (v *Verifier) checkSignature(r *http.Request, body []byte, req *request, key Key) *apierr.Error {
	hash := payloadHash(body)
	if claimed, ok := r.Header[headerContentSHA256]; ok && (len(claimed) != 1 || claimed[0] != hash) {
		return apierr.New(apierr.InvalidSignature, msgMismatch)
	}
	buf := bufs.Get().(*[]byte)
	defer bufs.Put(buf)
	canonical, e := canonicalRequest((*buf)[:0], r, req.signedHeaders, hash, req.presigned)
	if e != nil {
		return e
	}
	sum := sha256.Sum256(canonical)
	// The string to sign and the signature follow the canonical request in
	// the same recycled buffer.
	toSign := stringToSign(canonical[len(canonical):], req, &sum)
	s := v.keys.signingKey(keyID{req.scope.accessKeyID, key.Secret, req.scope.date, req.scope.region, req.scope.service})
	want := s.sign(toSign[len(toSign):], toSign)
	*buf = canonical[:0]
	if !hmac.Equal(want, []byte(req.signature)) {
		return apierr.New(apierr.InvalidSignature, msgMismatch)
	}
	return nil
}

// bufs recycles canonical-request buffers across requests.
var bufs = sync.Pool{New: func() any { b := make([]byte, 0, 1024); return &b }}

// stringToSign appends to b the algorithm, request date, scope and the
// canonical request's hash, one per line.
func stringToSign(b []byte, req *request, sum *[sha256.Size]byte) []byte {
	s := req.scope
	b = append(b, algorithm+"\n"...)
	b = append(b, req.amzDate...)
	b = append(b, '\n')
	for _, part := range [...]string{s.date, "/", s.region, "/", s.service, "/", terminator, "\n"} {
		b = append(b, part...)
	}
	return hex.AppendEncode(b, sum[:])
}
