package attr_test

import (
	"bytes"
	"fmt"

	"github.com/sortkeydb/sortkey/internal/attr"
)

func ExampleNormalizeNumber() {
	for _, s := range []string{"1.50", "1e2", "-0", "0.000", "1E-5"} {
		n, _ := attr.NormalizeNumber(s)
		fmt.Println(n)
	}
	_, err := attr.NormalizeNumber("1E126")
	fmt.Println(err)
	// Output:
	// 1.5
	// 100
	// 0
	// 0
	// 0.00001
	// Number overflow. Attempting to store a number with magnitude larger than supported range
}

func ExampleAppendKey() {
	small, big := attr.Num("9"), attr.Num("10")
	a := attr.AppendKey(nil, &small)
	b := attr.AppendKey(nil, &big)
	fmt.Println(bytes.Compare(a, b))
	// Output: -1
}

func ExampleValue_Validate() {
	v := attr.Value{SS: []string{"a", "a"}}
	fmt.Println(v.Validate())
	// Output: One or more parameter values were invalid: Input collection [a, a] contains duplicates.
}
