package console

import (
	"encoding/json"
	"reflect"
	"testing"
)

func TestTokenRoundTrips(t *testing.T) {
	key := item{"PK": {"S": json.RawMessage(`"USER#u1"`)}, "SK": {"N": json.RawMessage(`"3"`)}}
	got, err := decodeToken(encodeToken(key))
	if err != nil || !reflect.DeepEqual(got, key) {
		t.Fatalf("decodeToken(encodeToken(%v)) = %v, %v", key, got, err)
	}
	if got, err := decodeToken(""); got != nil || err != nil {
		t.Fatalf("empty token: %v, %v; want the first page", got, err)
	}
}

// FuzzDecodeToken: a ?start= token comes from anyone's URL; it decodes to
// a key of one-member attribute values or is refused, and never panics.
func FuzzDecodeToken(f *testing.F) {
	f.Add("eyJQSyI6eyJTIjoiVVNFUiN1MSJ9fQ")
	f.Add("e30")
	f.Add("!!!")
	f.Add("bnVsbA")
	f.Fuzz(func(t *testing.T, s string) {
		key, err := decodeToken(s)
		if err != nil {
			if key != nil {
				t.Fatalf("refused token %q returned a key", s)
			}
			return
		}
		for name, av := range key {
			if len(av) != 1 {
				t.Fatalf("attribute %q of %q has %d types", name, s, len(av))
			}
		}
		if s != "" && len(key) == 0 {
			t.Fatalf("token %q decoded to an empty key", s)
		}
	})
}
