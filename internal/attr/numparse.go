package attr

// The number grammar DynamoDB accepts (the shape of Java's BigDecimal
// strings): [+-] digits [. [digits]] | [+-] . digits, then optionally
// [eE] [+-] digits. Hex, Infinity, NaN, spaces and "_" are rejected.
//
// The parser is hand-written rather than apd's because it must never hand
// a huge string to big-number code: "1" followed by a megabyte of zeros is
// one significant digit, and trimming it here costs one pass.

// expCap bounds exponents while parsing; anything beyond it is out of
// DynamoDB's range by far, and capping keeps the sums from overflowing.
const expCap = 1 << 30

// parseNumber parses and checks s; see num for the result's shape.
func parseNumber(s string) (num, error) {
	var x num
	i := 0
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		x.neg = s[i] == '-'
		i++
	}
	i, tooLong, ok := x.mantissa(s, i)
	if !ok {
		return num{}, errNotNumber
	}
	e, ok := exponent(s, i)
	if !ok {
		return num{}, errNotNumber
	}
	if x.n == 0 && !tooLong {
		return num{}, nil // zero, whatever its sign or exponent
	}
	if tooLong {
		return num{}, errPrecision
	}
	x.exp += e
	return x, x.checkRange()
}

// mantissa scans the digits and point starting at s[i], filling x.d, x.n
// and x.exp. It returns the index after the mantissa, whether there were
// more than 38 significant digits, and whether the syntax was right.
func (x *num) mantissa(s string, i int) (next int, tooLong, ok bool) {
	sawDigit, afterPoint, zeros := false, false, 0
	for ; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '.' && !afterPoint:
			afterPoint = true
		case c >= '0' && c <= '9':
			sawDigit = true
			if x.n == 0 && c == '0' {
				if afterPoint {
					x.exp-- // leading zero after the point: 0.05 = 0.5e-1
				}
				continue
			}
			if !afterPoint && x.exp < expCap {
				x.exp++
			}
			if c == '0' {
				zeros++ // maybe trailing: only written once a nonzero follows
				continue
			}
			tooLong = tooLong || !x.push(zeros, c)
			zeros = 0
		default:
			return i, tooLong, sawDigit
		}
	}
	return i, tooLong, sawDigit
}

// push appends zeros '0's and then c to the digits, reporting false when
// that would exceed 38 digits.
func (x *num) push(zeros int, c byte) bool {
	if x.n+zeros+1 > maxDigits {
		return false
	}
	for ; zeros > 0; zeros-- {
		x.d[x.n] = '0'
		x.n++
	}
	x.d[x.n] = c
	x.n++
	return true
}

// exponent parses an optional [eE][+-]digits at s[i:], which must be the
// end of s. The value saturates at ±expCap.
func exponent(s string, i int) (int, bool) {
	if i == len(s) {
		return 0, true
	}
	if s[i] != 'e' && s[i] != 'E' {
		return 0, false
	}
	i++
	neg := i < len(s) && s[i] == '-'
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	if i == len(s) {
		return 0, false
	}
	e := 0
	for ; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
		e = min(e*10+int(s[i]-'0'), expCap)
	}
	if neg {
		e = -e
	}
	return e, true
}

// checkRange reports overflow or underflow for a nonzero x.
func (x *num) checkRange() error {
	switch {
	case x.n == 0:
		return nil
	case x.exp > maxExp:
		return errOverflow
	case x.exp < minExp:
		return errUnderflow
	}
	return nil
}

// appendText appends x in plain notation, the form DynamoDB returns
// (1E+100 comes back as a 1 and a hundred zeros).
func (x *num) appendText(b []byte) []byte {
	if x.n == 0 {
		return append(b, '0')
	}
	if x.neg {
		b = append(b, '-')
	}
	digits := x.d[:x.n]
	switch {
	case x.exp <= 0: // 0.000ddd
		b = append(b, '0', '.')
		b = appendZeros(b, -x.exp)
		return append(b, digits...)
	case x.exp >= x.n: // ddd000
		b = append(b, digits...)
		return appendZeros(b, x.exp-x.n)
	}
	b = append(b, digits[:x.exp]...)
	b = append(b, '.')
	return append(b, digits[x.exp:]...)
}

func appendZeros(b []byte, n int) []byte {
	for ; n > 0; n-- {
		b = append(b, '0')
	}
	return b
}
