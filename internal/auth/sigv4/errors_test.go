package sigv4

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"

	"github.com/sortkeydb/sortkey/internal/apierr"
)

// TestErrors: each way a request can fail gets DynamoDB's code and text.
func TestErrors(t *testing.T) {
	const (
		cred    = "Credential=" + permID + "/20261125/us-east-1/dynamodb/aws4_request"
		headers = "SignedHeaders=content-length;content-type;host;x-amz-date;x-amz-target"
		sig     = "Signature=0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
	)
	withCreds := func(c aws.Credentials) signing { s := defaultSigning(); s.creds = c; return s }
	withRegion := func(region string) signing { s := defaultSigning(); s.region = region; return s }
	withService := func(service string) signing { s := defaultSigning(); s.service = service; return s }
	setAuth := func(v string) func(*http.Request) {
		return func(r *http.Request) { r.Header.Set("Authorization", v) }
	}
	editAuth := func(old, new string) func(*http.Request) {
		return func(r *http.Request) {
			r.Header.Set("Authorization", strings.Replace(r.Header.Get("Authorization"), old, new, 1))
		}
	}
	cases := []struct {
		name    string
		signing signing
		mutate  func(r *http.Request)
		body    string // sent instead of the signed body when set
		code    apierr.Code
		message string
	}{
		{"no authorization", defaultSigning(), func(r *http.Request) { r.Header.Del("Authorization") }, "",
			apierr.MissingAuthenticationToken, "Request is missing Authentication Token"},
		{"wrong secret", withCreds(aws.Credentials{AccessKeyID: permID, SecretAccessKey: "not-the-secret"}), nil, "",
			apierr.InvalidSignature, mismatchText},
		{"unknown key", withCreds(aws.Credentials{AccessKeyID: "AKIDNOBODY", SecretAccessKey: permSecret}), nil, "",
			apierr.UnrecognizedClient, badTokenText},
		{"token missing", withCreds(aws.Credentials{AccessKeyID: tempID, SecretAccessKey: tempSecret}), nil, "",
			apierr.UnrecognizedClient, badTokenText},
		{"token wrong", withCreds(aws.Credentials{AccessKeyID: tempID, SecretAccessKey: tempSecret, SessionToken: tempToken + "x"}), nil, "",
			apierr.UnrecognizedClient, badTokenText},
		{"token on permanent key", withCreds(aws.Credentials{AccessKeyID: permID, SecretAccessKey: permSecret, SessionToken: tempToken}), nil, "",
			apierr.UnrecognizedClient, badTokenText},
		{"clock behind", signingAt(signTime.Add(-16 * time.Minute)), nil, "", apierr.InvalidSignature,
			"Signature expired: 20261125T114400Z is now earlier than 20261125T114500Z (20261125T120000Z - 15 min.)"},
		{"clock ahead", signingAt(signTime.Add(16 * time.Minute)), nil, "", apierr.InvalidSignature,
			"Signature not yet current: 20261125T121600Z is still later than 20261125T121500Z (20261125T120000Z + 15 min.)"},
		{"wrong region", withRegion("eu-west-1"), nil, "", apierr.InvalidSignature,
			"Credential should be scoped to a valid region, not 'eu-west-1'. "},
		{"wrong service", withService("dynamodbstreams"), nil, "", apierr.InvalidSignature,
			"Credential should be scoped to correct service: 'dynamodb'. "},
		{"wrong scope date", defaultSigning(), editAuth("/20261125/", "/20261124/"), "", apierr.InvalidSignature,
			"Date in Credential scope does not match YYYYMMDD from ISO-8601 version of date from HTTP. "},
		{"wrong terminator", defaultSigning(), editAuth("/aws4_request", "/aws5_request"), "", apierr.InvalidSignature,
			"Credential should be scoped with a valid terminator: 'aws4_request', not 'aws5_request'. "},
		{"missing x-amz-date", defaultSigning(), func(r *http.Request) {
			r.Header.Del("X-Amz-Date")
			r.Header.Set("Authorization", "AWS4-HMAC-SHA256 "+cred+", "+headers+", "+sig)
		}, "",
			apierr.IncompleteSignature, "Authorization header requires existence of either a 'X-Amz-Date' or a 'Date' header. " +
				"Authorization=AWS4-HMAC-SHA256 " + cred + ", " + headers + ", " + sig},
		{"missing signature", defaultSigning(), setAuth("AWS4-HMAC-SHA256 " + cred + ", " + headers), "",
			apierr.IncompleteSignature, "Authorization header requires 'Signature' parameter. Authorization=AWS4-HMAC-SHA256 " + cred + ", " + headers},
		{"missing credential and signed headers", defaultSigning(), setAuth("AWS4-HMAC-SHA256 " + sig), "",
			apierr.IncompleteSignature, "Authorization header requires 'Credential' parameter. " +
				"Authorization header requires 'SignedHeaders' parameter. Authorization=AWS4-HMAC-SHA256 " + sig},
		{"algorithm only", defaultSigning(), setAuth("AWS4-HMAC-SHA256"), "", apierr.IncompleteSignature,
			"Authorization header requires 'Credential' parameter. Authorization header requires 'Signature' parameter. " +
				"Authorization header requires 'SignedHeaders' parameter. Authorization=AWS4-HMAC-SHA256"},
		{"empty authorization", defaultSigning(), func(r *http.Request) { r.Header.Del("X-Amz-Date"); r.Header.Set("Authorization", "") }, "",
			apierr.IncompleteSignature, "Authorization header requires 'Credential' parameter. Authorization header requires 'Signature' parameter. " +
				"Authorization header requires 'SignedHeaders' parameter. Authorization header requires existence of either a 'X-Amz-Date' or a 'Date' header. Authorization="},
		{"space inside credential", defaultSigning(), setAuth("AWS4-HMAC-SHA256 Credential= " + permID + "/20261125/us-east-1/dynamodb/aws4_request, " + headers + ", " + sig), "",
			apierr.IncompleteSignature, "'" + permID + "/20261125/us-east-1/dynamodb/aws4_request' not a valid key=value pair (missing equal-sign) in Authorization header: " +
				"'AWS4-HMAC-SHA256 Credential= " + permID + "/20261125/us-east-1/dynamodb/aws4_request, " + headers + ", " + sig + "'."},
		{"wrong algorithm", defaultSigning(), editAuth("AWS4-HMAC-SHA256", "AWS4-HMAC-SHA512"), "", apierr.IncompleteSignature,
			"Unsupported AWS 'algorithm': 'AWS4-HMAC-SHA512'."},
		{"short credential", defaultSigning(), editAuth("/aws4_request", ""), "", apierr.IncompleteSignature,
			"Credential must have exactly 5 slash-delimited elements, e.g. keyid/date/region/service/term, got '" + permID + "/20261125/us-east-1/dynamodb'"},
		{"extended date format", defaultSigning(), func(r *http.Request) { r.Header.Set("X-Amz-Date", "2026-11-25T12:00:00Z") }, "",
			apierr.IncompleteSignature, "Date must be in ISO-8601 'basic format'. Got '2026-11-25T12:00:00Z'. See http://en.wikipedia.org/wiki/ISO_8601"},
		{"tampered body", defaultSigning(), nil, `{"TableName":"Other","Key":{"pk":{"S":"a"}}}`, apierr.InvalidSignature, mismatchText},
		{"tampered signed header", defaultSigning(), func(r *http.Request) { r.Header.Set("X-Amz-Target", "DynamoDB_20120810.DeleteItem") }, "",
			apierr.InvalidSignature, mismatchText},
		{"signed header removed", defaultSigning(), func(r *http.Request) { r.Header.Del("X-Amz-Target") }, "",
			apierr.IncompleteSignature, "'x-amz-target' is named as a SignedHeader, but it does not exist in the HTTP request."},
		{"payload hash header disagrees", defaultSigning(), func(r *http.Request) { r.Header.Set("X-Amz-Content-Sha256", sha256Hex([]byte("{}"))) }, "",
			apierr.InvalidSignature, mismatchText},
		{"host unsigned", defaultSigning(), editAuth("host;", ""), "", apierr.InvalidSignature,
			"'Host' or ':authority' must be a 'SignedHeader' in the AWS Authorization."},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			body := []byte(getItem)
			r := newRequest(t, endpoint, body)
			sign(t, r, body, c.signing)
			if c.mutate != nil {
				c.mutate(r)
			}
			if c.body != "" {
				body = []byte(c.body)
			}
			id, err := testVerifier().Verify(r, body)
			if id != "" {
				t.Errorf("access key %q returned with an error", id)
			}
			wantError(t, err, c.code, c.message)
		})
	}
}

const (
	mismatchText = "The request signature we calculated does not match the signature you provided. " +
		"Check your AWS Secret Access Key and signing method. Consult the service documentation for details."
	badTokenText = "The security token included in the request is invalid."
)

// TestNoLookup: a verifier without a key source knows no key.
func TestNoLookup(t *testing.T) {
	body := []byte(getItem)
	r := newRequest(t, endpoint, body)
	sign(t, r, body, defaultSigning())
	v := testVerifier()
	v.Lookup = nil
	_, err := v.Verify(r, body)
	wantError(t, err, apierr.UnrecognizedClient, badTokenText)
}

// TestPresignedMissingParameter names the first missing query parameter.
func TestPresignedMissingParameter(t *testing.T) {
	r := newRequest(t, endpoint+"?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=x", nil)
	_, err := testVerifier().Verify(r, nil)
	wantError(t, err, apierr.IncompleteSignature,
		"AWS query-string parameters must include 'X-Amz-Signature'. Re-examine the query-string parameters.")
}

// TestSecretsNeverInMessages: no failure mode echoes the secret.
func TestSecretsNeverInMessages(t *testing.T) {
	for _, s := range []signing{defaultSigning(), signingAt(signTime.Add(time.Hour)), {creds: aws.Credentials{AccessKeyID: permID, SecretAccessKey: "x"}, region: "us-east-1", service: "dynamodb", when: signTime}} {
		body := []byte(getItem)
		r := newRequest(t, endpoint, body)
		sign(t, r, body, s)
		_, err := testVerifier().Verify(r, []byte("tampered"))
		if err == nil || strings.Contains(err.Error(), permSecret) {
			t.Errorf("err = %v", err)
		}
	}
}

// TestPresignedBadExpires: X-Amz-Expires must be 1 s to 7 days.
func TestPresignedBadExpires(t *testing.T) {
	for _, expires := range []string{"0", "604801", "soon"} {
		r := newRequest(t, endpoint+"?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential="+permID+"%2F20261125%2Fus-east-1%2Fdynamodb%2Faws4_request"+
			"&X-Amz-Date=20261125T120000Z&X-Amz-SignedHeaders=host&X-Amz-Signature=00&X-Amz-Expires="+expires, nil)
		_, err := testVerifier().Verify(r, nil)
		wantError(t, err, apierr.IncompleteSignature, "X-Amz-Expires must be between 1 and 604800 seconds; got '"+expires+"'.")
	}
}
