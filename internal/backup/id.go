package backup

import (
	"crypto/rand"
	"encoding/binary"
	"fmt"
	"time"
)

// NewID is DynamoDB's form of a backup or export id: the creation time in
// Unix milliseconds, 14 digits, a dash and 8 random hexadecimal digits.
func NewID(at time.Time) string {
	var b [4]byte
	_, _ = rand.Read(b[:])
	return fmt.Sprintf("%014d-%08x", at.UnixMilli(), binary.BigEndian.Uint32(b[:]))
}
