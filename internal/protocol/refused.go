package protocol

import "bytes"

// Refused is the type of a request member sortkey does not implement. It
// is decoded only to learn that the member is there, so that validation
// can refuse the request (validate.Refused) instead of answering as if the
// setting had been applied. A JSON null counts as absent, as it does for
// every other member.
type Refused struct{ set bool }

// UnmarshalJSON records the member's presence; its value is not read.
func (r *Refused) UnmarshalJSON(b []byte) error {
	r.set = !bytes.Equal(b, []byte("null"))
	return nil
}

// Set reports whether the request gave the member a value.
func (r Refused) Set() bool { return r.set }
