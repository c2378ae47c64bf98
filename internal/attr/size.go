package attr

// Sizes follow the Developer Guide's "DynamoDB item sizes and formats":
// an item is the sum of its attribute names' UTF-8 lengths and its values'
// sizes. The guide does not price sets; a set is priced here as the sum of
// its members, each sized like a scalar of its type.

// Size returns the size of it in bytes, as counted against the 400 KB
// item limit and for capacity units.
func (it Item) Size() int {
	n := 0
	for name, v := range it {
		n += len(name) + v.Size()
	}
	return n
}

// Size returns the size of v without any attribute name.
func (v *Value) Size() int {
	switch v.Kind() {
	case S:
		return len(*v.S)
	case N:
		return numberSize(*v.N)
	case B:
		return len(v.B)
	case BOOL, NULL:
		return 1
	case M:
		return mapSize(v.M)
	case L:
		return listSize(v.L)
	case SS:
		return stringsSize(v.SS)
	case NS:
		return numbersSize(v.NS)
	case BS:
		return bytesSize(v.BS)
	}
	return 0
}

// numberSize is "1 byte per two significant digits, plus 1 byte", with
// leading and trailing zeros trimmed; zero has no significant digits.
// A malformed number is priced by its length: it never gets stored.
func numberSize(s string) int {
	x, err := parseNumber(s)
	if err != nil {
		return len(s)
	}
	return (x.n+1)/2 + 1
}

// A List or Map costs 3 bytes, plus each element and 1 byte per element.
const (
	docOverhead  = 3
	elemOverhead = 1
)

func mapSize(m map[string]Value) int {
	n := docOverhead
	for k, e := range m {
		n += len(k) + e.Size() + elemOverhead
	}
	return n
}

func listSize(l []Value) int {
	n := docOverhead
	for i := range l {
		n += l[i].Size() + elemOverhead
	}
	return n
}

func stringsSize(ss []string) int {
	n := 0
	for _, s := range ss {
		n += len(s)
	}
	return n
}

func numbersSize(ns []string) int {
	n := 0
	for _, s := range ns {
		n += numberSize(s)
	}
	return n
}

func bytesSize(bs [][]byte) int {
	n := 0
	for _, b := range bs {
		n += len(b)
	}
	return n
}
