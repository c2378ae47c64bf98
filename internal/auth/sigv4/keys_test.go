package sigv4

import (
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"

	"github.com/sortkeydb/sortkey/internal/apierr"
)

// TestRotatedSecret: after a key's secret changes, requests signed with the
// old secret fail and those with the new one pass, cache or not.
func TestRotatedSecret(t *testing.T) {
	secret := permSecret
	v := testVerifier()
	v.Lookup = func(id string) (Key, bool) { return Key{Secret: secret}, id == permID }
	signed := func(secret string) error {
		body := []byte(getItem)
		r := newRequest(t, endpoint, body)
		s := defaultSigning()
		s.creds = aws.Credentials{AccessKeyID: permID, SecretAccessKey: secret}
		sign(t, r, body, s)
		_, err := v.Verify(r, body)
		return err
	}
	if err := signed(permSecret); err != nil {
		t.Fatal(err)
	}
	secret = "rotated-secret"
	wantError(t, signed(permSecret), apierr.InvalidSignature, mismatchText)
	if err := signed("rotated-secret"); err != nil {
		t.Fatal(err)
	}
}

// TestCacheDropsOldDates: a verifier running for days keeps signing keys of
// the current and previous date only.
func TestCacheDropsOldDates(t *testing.T) {
	v := testVerifier()
	for day := range 5 {
		now := signTime.AddDate(0, 0, day)
		v.Now = func() time.Time { return now }
		body := []byte(getItem)
		r := newRequest(t, endpoint, body)
		sign(t, r, body, signingAt(now))
		if _, err := v.Verify(r, body); err != nil {
			t.Fatal(err)
		}
	}
	if n := len(v.keys.keys); n > 2 {
		t.Errorf("%d signing keys cached after five days, want at most 2", n)
	}
}

// TestConcurrentVerify: one verifier serves many goroutines (run with -race).
func TestConcurrentVerify(t *testing.T) {
	v := testVerifier()
	body := []byte(getItem)
	var requests []*http.Request
	for g := range 8 {
		r := newRequest(t, endpoint, body)
		sign(t, r, body, signingAt(signTime.Add(time.Duration(g)*time.Minute)))
		requests = append(requests, r)
	}
	var wg sync.WaitGroup
	for _, r := range requests {
		wg.Go(func() {
			if _, err := v.Verify(r, body); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
}

// parseAmzDate must agree with time.Parse on every form, good or bad.
func FuzzParseAmzDate(f *testing.F) {
	for _, s := range []string{"20261125T101500Z", "20261332T000000Z", "20260229T000000Z", "2026112XT101500Z", "20261125T246060Z", "20261125 101500Z", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want, err := time.Parse(amzDateFmt, s)
		got, ok := parseAmzDate(s)
		if wantOK := err == nil && len(s) == len(amzDateFmt); ok != wantOK || ok && !got.Equal(want) {
			t.Fatalf("%q: got %v %v, time.Parse %v %v", s, got, ok, want, err)
		}
	})
}
