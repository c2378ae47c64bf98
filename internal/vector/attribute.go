package vector

import (
	"errors"
	"fmt"
	"math"
	"strconv"

	"github.com/sortkeydb/sortkey/internal/attr"
)

// The refusals, checked in this order: type, length, element type,
// element value.
const (
	msgNotList       = "vector: the vector attribute must be a list (L) of numbers"
	msgWrongLength   = "vector: the vector has %d elements; the index has %d dimensions"
	msgNotNumber     = "vector: element %d is not a number (N)"
	msgBadNumber     = "vector: element %d is not a valid number"
	msgOutOfRange    = "vector: element %d is outside the float32 range"
	msgBadDimensions = "vector: the index dimensions must be at least 1"
)

var (
	errNotList       = errors.New(msgNotList)
	errBadDimensions = errors.New(msgBadDimensions)
)

// FromAttribute reads a stored vector attribute: an L of exactly dims N
// elements, each rounded to the nearest float32 (DynamoDB holds index
// vectors as float32). Errors name the problem and the element's position.
func FromAttribute(v attr.Value, dims int) ([]float32, error) {
	if dims < 1 {
		return nil, errBadDimensions
	}
	if v.Kind() != attr.L {
		return nil, errNotList
	}
	if len(v.L) != dims {
		return nil, fmt.Errorf(msgWrongLength, len(v.L), dims)
	}
	out := make([]float32, dims)
	for i := range v.L {
		f, err := element(&v.L[i], i)
		if err != nil {
			return nil, err
		}
		out[i] = f
	}
	return out, nil
}

// element checks the text as a DynamoDB number first, because ParseFloat
// alone would also accept "NaN", "Inf" and hex floats. ParseFloat with
// bitSize 32 then rounds the decimal straight to float32 (one rounding,
// not two via float64); magnitudes too small for float32 become zero, as
// they do in DynamoDB's float32 index.
func element(e *attr.Value, i int) (float32, error) {
	if e.Kind() != attr.N {
		return 0, fmt.Errorf(msgNotNumber, i)
	}
	if _, err := attr.NormalizeNumber(*e.N); err != nil {
		return 0, fmt.Errorf(msgBadNumber, i)
	}
	f, err := strconv.ParseFloat(*e.N, 32)
	if err != nil || math.IsInf(f, 0) {
		return 0, fmt.Errorf(msgOutOfRange, i)
	}
	return float32(f), nil
}
