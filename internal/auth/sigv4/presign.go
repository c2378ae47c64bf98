package sigv4

import (
	"net/http"
	"strconv"
	"time"

	"github.com/sortkeydb/sortkey/internal/apierr"
)

// The query parameters of a presigned request.
const (
	queryAlgorithm     = "X-Amz-Algorithm"
	queryCredential    = "X-Amz-Credential"
	queryDate          = "X-Amz-Date"
	queryExpires       = "X-Amz-Expires"
	querySignedHeaders = "X-Amz-SignedHeaders"
	querySignature     = "X-Amz-Signature"
	queryToken         = "X-Amz-Security-Token"
)

// maxExpires is the longest life SigV4 allows a presigned request: 7 days.
const maxExpires = 7 * 24 * time.Hour

// fromQuery reads a presigned (query-string) signature. AWS names the first
// missing parameter; the algorithm is checked before anything else is read.
func fromQuery(r *http.Request) (request, *apierr.Error) {
	q := r.URL.Query()
	for _, name := range []string{queryAlgorithm, queryCredential, querySignature, querySignedHeaders, queryDate} {
		if q.Get(name) == "" {
			return request{}, apierr.New(apierr.IncompleteSignature, msgQueryMissing, name)
		}
	}
	if alg := q.Get(queryAlgorithm); alg != algorithm {
		return request{}, apierr.New(apierr.IncompleteSignature, msgAlgorithm, alg)
	}
	req := request{signedHeaders: q.Get(querySignedHeaders), signature: q.Get(querySignature), token: q.Get(queryToken), presigned: true}
	if req.token == "" {
		req.token = r.Header.Get(headerToken)
	}
	var e *apierr.Error
	if req.scope, e = parseScope(q.Get(queryCredential)); e != nil {
		return req, e
	}
	if req.when, req.amzDate, e = requestTime(q.Get(queryDate), ""); e != nil {
		return req, e
	}
	req.expires, e = parseExpires(q)
	return req, e
}

// parseExpires reads X-Amz-Expires, optional outside S3: 1 s to 7 days.
func parseExpires(q map[string][]string) (time.Duration, *apierr.Error) {
	raw, ok := q[queryExpires]
	if !ok || len(raw) == 0 {
		return 0, nil
	}
	n, err := strconv.Atoi(raw[0])
	if d := time.Duration(n) * time.Second; err == nil && d > 0 && d <= maxExpires {
		return d, nil
	}
	return 0, apierr.New(apierr.IncompleteSignature, msgQueryExpires, raw[0])
}

// checkExpires rejects a presigned request past its X-Amz-Expires.
func checkExpires(req *request, now time.Time) *apierr.Error {
	if early := now.Add(-req.expires); req.when.Before(early) {
		return apierr.New(apierr.InvalidSignature, msgQueryExpired, req.amzDate, early.Format(amzDateFmt), now.Format(amzDateFmt), int(req.expires/time.Second))
	}
	return nil
}
