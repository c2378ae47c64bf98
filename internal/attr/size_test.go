package attr

import "testing"

func TestSize(t *testing.T) {
	tests := []struct {
		name string
		it   Item
		want int
	}{
		// Developer Guide: string = name bytes + UTF-8 bytes.
		{"string", Item{"name": Str("héllo")}, 4 + 6},
		// Number: 1 byte per two significant digits + 1; zeros trimmed.
		{"number 1 digit", Item{"n": Num("7")}, 1 + 1 + 1},
		{"number 2 digits", Item{"n": Num("12")}, 1 + 1 + 1},
		{"number 3 digits", Item{"n": Num("123")}, 1 + 2 + 1},
		{"number trailing zeros", Item{"n": Num("1200000")}, 1 + 1 + 1},
		{"number leading zeros", Item{"n": Num("0.000012")}, 1 + 1 + 1},
		{"number 38 digits", Item{"n": Num("12345678901234567890123456789012345678")}, 1 + 19 + 1},
		{"zero", Item{"n": Num("0")}, 1 + 1},
		// Binary: raw bytes, not base64.
		{"binary", Item{"b": Bin([]byte{1, 2, 3})}, 1 + 3},
		{"bool", Item{"ok": Bool(true)}, 2 + 1},
		{"null", Item{"nil": Null()}, 3 + 1},
		// List/Map: 3 bytes + elements + 1 byte per element.
		{"empty list", Item{"l": {L: []Value{}}}, 1 + 3},
		{"empty map", Item{"m": {M: map[string]Value{}}}, 1 + 3},
		{"list", Item{"l": {L: []Value{Str("ab"), Bool(false)}}}, 1 + 3 + (2 + 1) + (1 + 1)},
		{"map", Item{"m": {M: map[string]Value{"k": Str("ab")}}}, 1 + 3 + (1 + 2 + 1)},
		{"sets", Item{"ss": {SS: []string{"a", "bc"}}, "ns": {NS: []string{"1", "123"}}}, (2 + 3) + (2 + 2 + 3)},
		{"binary set", Item{"bs": {BS: [][]byte{{1}, {2, 3}}}}, 2 + 3},
		{"several", Item{"id": Str("abc"), "n": Num("10")}, (2 + 3) + (1 + 2)},
	}
	for _, tt := range tests {
		if got := tt.it.Size(); got != tt.want {
			t.Errorf("%s: Size = %d, want %d", tt.name, got, tt.want)
		}
	}
}
