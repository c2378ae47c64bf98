package attr

// Value is one DynamoDB AttributeValue. Its fields mirror the wire shape
// ({"S": "x"}, {"N": "1"}, ...) so that a request body decodes straight into
// it with encoding/json; exactly one field is set in a valid value, and
// Validate checks that before the engine sees it.
//
// Numbers are kept as their decimal string. After Validate they are in
// DynamoDB's normalized form, so equal numbers have equal strings.
type Value struct {
	S    *string          `json:"S,omitempty"`
	N    *string          `json:"N,omitempty"`
	B    []byte           `json:"B,omitempty"`
	BOOL *bool            `json:"BOOL,omitempty"`
	NULL *bool            `json:"NULL,omitempty"`
	M    map[string]Value `json:"M,omitempty"`
	L    []Value          `json:"L,omitempty"`
	SS   []string         `json:"SS,omitempty"`
	NS   []string         `json:"NS,omitempty"`
	BS   [][]byte         `json:"BS,omitempty"`
}

// Item is a whole item, or a key: attribute name to value.
type Item map[string]Value

// Kind names the data type of a Value by its wire tag.
type Kind uint8

// The kinds, in no particular order; Invalid means no field or more than one
// field is set.
const (
	Invalid Kind = iota
	S
	N
	B
	BOOL
	NULL
	M
	L
	SS
	NS
	BS
)

var kindNames = [...]string{"", "S", "N", "B", "BOOL", "NULL", "M", "L", "SS", "NS", "BS"}

// String returns the wire tag of k ("S", "NS", ...), or "" for Invalid.
func (k Kind) String() string {
	if int(k) >= len(kindNames) {
		return ""
	}
	return kindNames[k]
}

// KindOf parses a wire tag such as "S" or "NS".
func KindOf(tag string) Kind {
	for k, name := range kindNames {
		if name == tag && k != 0 {
			return Kind(k)
		}
	}
	return Invalid
}

// Kind reports which field of v is set, or Invalid when none or several are.
// A nil M or L counts as unset: an empty list or map on the wire decodes to a
// non-nil empty one.
func (v *Value) Kind() Kind {
	k, n := v.kinds()
	if n != 1 {
		return Invalid
	}
	return k
}

// kinds returns the last kind set and how many fields are set; Validate
// needs the count to tell "empty" from "more than one".
func (v *Value) kinds() (k Kind, n int) {
	set := func(ok bool, kind Kind) {
		if ok {
			k, n = kind, n+1
		}
	}
	set(v.S != nil, S)
	set(v.N != nil, N)
	set(v.B != nil, B)
	set(v.BOOL != nil, BOOL)
	set(v.NULL != nil, NULL)
	set(v.M != nil, M)
	set(v.L != nil, L)
	set(v.SS != nil, SS)
	set(v.NS != nil, NS)
	set(v.BS != nil, BS)
	return k, n
}

// Str, Num, Bin, Bool and Null build values; they keep call sites short.
func Str(s string) Value { return Value{S: &s} }
func Num(n string) Value { return Value{N: &n} }
func Bin(b []byte) Value { return Value{B: b} }
func Bool(b bool) Value  { return Value{BOOL: &b} }
func Null() Value        { t := true; return Value{NULL: &t} }
