package main

import (
	"slices"
	"testing"
	"time"
)

func TestParseKey(t *testing.T) {
	k, err := ParseKey("O#01JZ10H7X367VB2NF4YQ973DHW")
	if err != nil || k.Kind != OrderKind || k.String() != "O#01JZ10H7X367VB2NF4YQ973DHW" {
		t.Fatalf("%+v, %v", k, err)
	}
	for _, bad := range []string{"", "O#", "O01JZ10H7X367VB2NF4YQ973DHW", "X#01JZ10H7X367VB2NF4YQ973DHW",
		"U#01JZ10H7X367VB2NF4YQ973DHW", "O#01JZ10H7X367VB2NF4YQ973DH", "O#01JZ10H7X367VB2NF4YQ973DHU",
		"O#01JZ10H7X367VB2NF4YQ973DHW#001"} {
		if _, err := ParseKey(bad); err == nil {
			t.Errorf("ParseKey(%q) accepted", bad)
		}
	}
}

// TestKeysSortByTime: keys made later sort later as strings, also within
// one millisecond, which is what a newest-first Query relies on.
func TestKeysSortByTime(t *testing.T) {
	clock := newClock()
	g := newIDs(clock.Now)
	var made []string
	for i := range 50 {
		if i%10 == 0 {
			clock.Advance(time.Millisecond)
		}
		made = append(made, g.key(RewardKind).String())
	}
	if !slices.IsSorted(made) {
		t.Fatalf("keys out of order: %v", made)
	}
}

func TestParseUserID(t *testing.T) {
	if u, err := ParseUserID("550e8400-e29b-41d4-a716-446655440000"); err != nil || u.PK(OrderShard) != "U#550e8400-e29b-41d4-a716-446655440000#O" {
		t.Fatalf("%s, %v", u, err)
	}
	for _, bad := range []string{"", "rabinovich", "550e8400e29b41d4a716446655440000", "550E8400-E29B-41D4-A716-446655440000",
		"550e8400-e29b-41d4-a716â€“446655440000", "550e8400-e29b-41d4-a71-6446655440000"} {
		if _, err := ParseUserID(bad); err == nil {
			t.Errorf("ParseUserID(%q) accepted", bad)
		}
	}
}
