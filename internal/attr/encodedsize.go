package attr

import "fmt"

// EncodedSize returns the Size of the item enc (an AppendItem encoding)
// without decoding it. A plain PutItem needs nothing else of the item it
// replaces, and decoding it was ~10% of the request's CPU and ~40
// allocations for a 200-byte item. Corrupt input fails where DecodeItem
// would.
func EncodedSize(enc []byte) (int, error) {
	if len(enc) == 0 || enc[0] != codecVersion {
		return 0, fmt.Errorf("attr: unknown item encoding version")
	}
	s := sizer{decoder: decoder{b: enc[1:]}}
	size := s.mapBody(0, false)
	if s.err == nil && len(s.b) != 0 {
		s.err = errCorrupt
	}
	if s.err != nil {
		return 0, s.err
	}
	return size, nil
}

// sizer walks the codec as transcoder does, summing sizes only.
type sizer struct{ decoder }

func (s *sizer) mapBody(depth int, nested bool) int {
	n := s.count()
	size := 0
	var prev []byte
	for i := 0; i < n && s.err == nil; i++ {
		k := s.bytes()
		if i > 0 && string(k) <= string(prev) {
			s.fail()
		}
		size += len(k) + s.value(depth)
		prev = k
	}
	if nested {
		size += docOverhead + n*elemOverhead
	}
	return size
}

func (s *sizer) value(depth int) int {
	if depth >= maxDecodeDepth {
		s.fail()
		return 0
	}
	switch k := Kind(s.byte()); k {
	case Invalid:
		return 0
	case S, B:
		return len(s.bytes())
	case N:
		return numberSize(view(s.bytes()))
	case BOOL:
		if s.byte() > 1 {
			s.fail()
		}
		return 1
	case NULL:
		return 1
	case M:
		return s.mapBody(depth+1, true)
	case L:
		return s.list(depth + 1)
	case SS, NS, BS:
		return s.set(k)
	}
	s.fail()
	return 0
}

func (s *sizer) list(depth int) int {
	n := s.count()
	size := docOverhead + n*elemOverhead
	for i := 0; i < n && s.err == nil; i++ {
		size += s.value(depth)
	}
	return size
}

func (s *sizer) set(k Kind) int {
	n := s.count()
	size := 0
	for i := 0; i < n && s.err == nil; i++ {
		b := s.bytes()
		if k == NS {
			size += numberSize(view(b))
			continue
		}
		size += len(b)
	}
	return size
}
