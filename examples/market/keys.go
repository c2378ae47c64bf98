package main

import (
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/oklog/ulid/v2"
)

// Kind is the one-letter object type that starts every system key.
type Kind byte

// The object types of the design's "Typed System Keys" table. Users are
// keyed by their Cognito UUID (UserID), every other kind by a ULID.
const (
	AccountKind   Kind = 'A'
	BillKind      Kind = 'B'
	CartKind      Kind = 'C'
	InventoryKind Kind = 'I'
	OrderKind     Kind = 'O'
	PaymentKind   Kind = 'P'
	RewardKind    Kind = 'R'
	UserKind      Kind = 'U'
)

func (k Kind) valid() bool { return strings.IndexByte("ABCIOPR", byte(k)) >= 0 }

// Key is a typed system key such as O#01JZ10H7X367VB2NF4YQ973DHW. Its
// ULID sorts by creation time, which is what makes "last N" a range read.
type Key struct {
	Kind Kind
	ID   ulid.ULID
}

func (k Key) String() string { return string(k.Kind) + "#" + k.ID.String() }

// ParseKey reads a ULID system key, refusing unknown kinds and anything
// that is not exactly kind, '#' and a 26-character ULID.
func ParseKey(s string) (Key, error) {
	if len(s) != 2+ulid.EncodedSize || s[1] != '#' || !Kind(s[0]).valid() {
		return Key{}, fmt.Errorf("market: %q is not a typed system key", s)
	}
	id, err := ulid.ParseStrict(s[2:])
	if err != nil {
		return Key{}, fmt.Errorf("market: %q: %w", s, err)
	}
	return Key{Kind: Kind(s[0]), ID: id}, nil
}

// MustKey is ParseKey for keys written in the source, such as products.
func MustKey(s string) Key {
	k, err := ParseKey(s)
	if err != nil {
		panic(err)
	}
	return k
}

// MarshalDynamoDBAttributeValue stores a key as its string form; a zero
// key is refused so that no item is ever written with a blank key.
func (k Key) MarshalDynamoDBAttributeValue() (types.AttributeValue, error) {
	if !k.Kind.valid() {
		return nil, errors.New("market: marshal of a zero or untyped system key")
	}
	return &types.AttributeValueMemberS{Value: k.String()}, nil
}

// UnmarshalDynamoDBAttributeValue checks the stored string is a typed key.
func (k *Key) UnmarshalDynamoDBAttributeValue(av types.AttributeValue) error {
	s, ok := av.(*types.AttributeValueMemberS)
	if !ok {
		return fmt.Errorf("market: system key stored as %T", av)
	}
	var err error
	*k, err = ParseKey(s.Value)
	return err
}

// line is the sort key of an order's nth item: the order's key and a
// three-digit number, so items sort in order right after their order.
func (k Key) line(n int) string { return fmt.Sprintf("%s#%03d", k, n) }

// UserID is a user's Cognito identifier (a UUID), the tenant of the table.
type UserID string

// ParseUserID accepts a canonical, lower-case UUID.
func ParseUserID(s string) (UserID, error) {
	if len(s) != 36 || strings.Trim(s, "0123456789abcdef-") != "" || strings.Count(s, "-") != 4 ||
		s[8] != '-' || s[13] != '-' || s[18] != '-' || s[23] != '-' {
		return "", fmt.Errorf("market: %q is not a UUID", s)
	}
	return UserID(s), nil
}

// Key is the user's system key, U#<uuid>.
func (u UserID) Key() string { return "U#" + string(u) }

// validUserKey says whether k is a user's system key, U#<uuid>.
func validUserKey(k string) bool {
	uuid, ok := strings.CutPrefix(k, "U#")
	_, err := ParseUserID(uuid)
	return ok && err == nil
}

// Shard is one of a user's fixed partitions, named by its suffix.
type Shard string

// The user's shards. The profile shard is the bare user key.
const (
	ProfileShard Shard = ""
	CartShard    Shard = "C"
	OrderShard   Shard = "O"
	RewardShard  Shard = "R"
)

// PK is the partition key of one of the user's shards.
func (u UserID) PK(s Shard) string {
	if s == ProfileShard {
		return u.Key()
	}
	return u.Key() + "#" + string(s)
}

// ids makes system keys and business ids. ULIDs take their time from the
// store's clock, so tests that move the clock get keys in that order, and
// a monotonic reader keeps keys made in one millisecond in order too.
type ids struct {
	now     func() time.Time
	entropy io.Reader
}

func newIDs(now func() time.Time) *ids {
	return &ids{now: now, entropy: &ulid.LockedMonotonicReader{MonotonicReader: ulid.Monotonic(rand.Reader, 0)}}
}

func (g *ids) key(k Kind) Key {
	return Key{Kind: k, ID: ulid.MustNew(ulid.Timestamp(g.now()), g.entropy)}
}

// crockford is the ULID alphabet: no I, L, O or U to misread.
const crockford = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"

// orderNumber is an order's business id, XXXX-XXXX-XXXX: 60 random bits,
// unrelated to its system key, which users must never see. A GSI does not
// enforce uniqueness, so the randomness does; a clash between two users
// is harmless anyway, as a lookup only accepts the caller's own order.
func (g *ids) orderNumber() string {
	var b [12]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic(err) // crypto/rand does not fail on supported platforms
	}
	var sb strings.Builder
	for i, c := range b {
		if i > 0 && i%4 == 0 {
			sb.WriteByte('-')
		}
		sb.WriteByte(crockford[c%32])
	}
	return sb.String()
}
