package main

// --cache-size: Pebble's block cache, a size written with its unit.

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// msgByteSize refuses a size that is not a whole number of bytes, KiB,
// MiB or GiB.
const msgByteSize = "want a whole number of bytes with a unit, such as 64MiB, 1GiB or 512KiB, not %q"

const msgCacheSize = "--cache-size must be more than 0"

// byteUnits are the units a byteSize takes, largest first, which is the
// order String tries them in.
var byteUnits = []struct {
	name string
	size int64
}{{"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}, {"B", 1}}

// byteSize is a flag.Value of a size in bytes: "64MiB", or a plain
// number of bytes.
type byteSize int64

func (b *byteSize) Set(s string) error {
	num, unit := s, int64(1)
	for _, u := range byteUnits {
		if n, ok := strings.CutSuffix(s, u.name); ok {
			num, unit = n, u.size
			break
		}
	}
	n, err := strconv.ParseInt(strings.TrimSpace(num), 10, 64)
	if err != nil || n < 0 || n > (1<<62)/unit {
		return fmt.Errorf(msgByteSize, s)
	}
	*b = byteSize(n * unit)
	return nil
}

// String writes the size in the largest unit that divides it.
func (b *byteSize) String() string {
	for _, u := range byteUnits {
		if int64(*b)%u.size == 0 && *b != 0 {
			return strconv.FormatInt(int64(*b)/u.size, 10) + u.name
		}
	}
	return "0"
}

// checkCacheSize refuses an empty cache, which sortkey.Options would read
// as the default rather than as none.
func checkCacheSize(size byteSize) error {
	if size == 0 {
		return errors.New(msgCacheSize)
	}
	return nil
}
