package attr

import (
	"errors"

	"github.com/cockroachdb/apd/v3"
)

// DynamoDB's number limits: 38 significant digits, magnitudes from 1E-130
// to 9.99...E+125. In the 0.ddd × 10^exp form that num uses, a valid
// nonzero number has exp in [minExp, maxExp], which is exactly 256 values:
// the key codec relies on that to store the exponent in one byte.
const (
	maxDigits = 38
	minExp    = -129
	maxExp    = 126
)

// The range texts are exported so that arithmetic in update expressions
// reports an out-of-range result with the very text a stored number gets.
const (
	MsgOverflow  = "Number overflow. Attempting to store a number with magnitude larger than supported range"
	MsgUnderflow = "Number underflow. Attempting to store a number with magnitude smaller than supported range"
)

// The number errors carry DynamoDB's ValidationException texts.
var (
	errNotNumber = errors.New("The parameter cannot be converted to a numeric value")
	errPrecision = errors.New("Attempting to store more than 38 significant digits in a Number")
	errOverflow  = errors.New(MsgOverflow)
	errUnderflow = errors.New(MsgUnderflow)
)

// notNumber is errNotNumber naming the value, as DynamoDB's text does:
// "The parameter cannot be converted to a numeric value: dog".
type notNumber struct{ s string }

func (e notNumber) Error() string { return errNotNumber.Error() + ": " + e.s }

// Is makes errors.Is(err, errNotNumber) hold, whatever the value.
func (e notNumber) Is(target error) bool { return target == errNotNumber }

// num is a number split into sign, significant digits and exponent:
// value = (-1)^neg × 0.d[0]d[1]...d[n-1] × 10^exp, with d[0] and d[n-1]
// nonzero. Zero is n == 0. The fixed array keeps parsing allocation-free;
// numbers with more digits are invalid anyway.
type num struct {
	neg bool
	n   int
	exp int
	d   [maxDigits]byte // ASCII digits
}

// NormalizeNumber checks s the way DynamoDB checks an N value and returns
// the form DynamoDB stores and returns: no exponent, no leading or trailing
// zeros, no "+", no "-0" (so "1.50" -> "1.5", "1e2" -> "100").
// It returns s itself when s is already normalized, so the common case
// does not allocate.
func NormalizeNumber(s string) (string, error) {
	x, err := parseNumber(s)
	if err == errNotNumber {
		return "", notNumber{s}
	}
	if err != nil {
		return "", err
	}
	var buf [192]byte
	b := x.appendText(buf[:0])
	if string(b) == s {
		return s, nil
	}
	return string(b), nil
}

// Decimal parses s as a DynamoDB number (same checks as NormalizeNumber)
// for arithmetic. The result has no trailing zeros in its coefficient.
func Decimal(s string) (*apd.Decimal, error) {
	x, err := parseNumber(s)
	if err == errNotNumber {
		return nil, notNumber{s}
	}
	if err != nil {
		return nil, err
	}
	return x.decimal(), nil
}

// FormatDecimal turns an arithmetic result back into a normalized N
// string, rejecting results DynamoDB could not store.
func FormatDecimal(d *apd.Decimal) (string, error) {
	if d.Form != apd.Finite {
		return "", errNotNumber
	}
	var r apd.Decimal
	r.Reduce(d)
	var buf [64]byte
	digits := r.Coeff.Append(buf[:0], 10)
	if r.IsZero() {
		return "0", nil
	}
	if len(digits) > maxDigits {
		return "", errPrecision
	}
	x := num{neg: r.Negative, n: len(digits), exp: int(r.Exponent) + len(digits)}
	copy(x.d[:], digits)
	if err := x.checkRange(); err != nil {
		return "", err
	}
	return string(x.appendText(nil)), nil
}

// decimal converts x to an apd.Decimal: coefficient d, exponent exp-n.
func (x *num) decimal() *apd.Decimal {
	d := new(apd.Decimal)
	if x.n == 0 {
		return d
	}
	d.Coeff.SetString(string(x.d[:x.n]), 10)
	d.Exponent = int32(x.exp - x.n)
	d.Negative = x.neg
	return d
}
