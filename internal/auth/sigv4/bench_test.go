package sigv4

import "testing"

// BenchmarkVerify: one GetItem-sized request, signing key already cached.
func BenchmarkVerify(b *testing.B) {
	v := testVerifier()
	body := []byte(getItem)
	r := newRequest(b, endpoint, body)
	sign(b, r, body, defaultSigning())
	if _, err := v.Verify(r, body); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := v.Verify(r, body); err != nil {
			b.Fatal(err)
		}
	}
}
