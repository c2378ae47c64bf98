package access

import (
	"slices"
	"strings"
	"testing"

	"github.com/sortkeydb/sortkey/internal/protocol"
)

// FuzzDescribe feeds arbitrary bodies, decoded as the server decodes them,
// to every operation: Describe must not panic, and every check it returns
// must name a dynamodb action.
func FuzzDescribe(f *testing.F) {
	ops := slices.Sorted(func(yield func(string) bool) {
		for op := range inputs {
			if !yield(op) {
				return
			}
		}
	})
	for i := range ops {
		f.Add(uint8(i), `{"TableName":"Orders",`+okey+`,"ProjectionExpression":"a"}`)
		f.Add(uint8(i), `{"Statement":"SELECT * FROM \"Orders\" WHERE pk IN ['a', ?]","Parameters":[{"N":"1"}]}`)
		f.Add(uint8(i), `{"RequestItems":{"Orders":[{"PutRequest":{"Item":{"pk":{"B":"AA=="}}}}]}}`)
	}
	f.Fuzz(func(t *testing.T, which uint8, body string) {
		op := ops[int(which)%len(ops)]
		in := inputs[op]()
		if protocol.Decode([]byte(body), in) != nil {
			return
		}
		checks, err := Describe(op, in, testCatalog{})
		if err != nil {
			return
		}
		for _, c := range checks {
			if !strings.HasPrefix(c.Action, "dynamodb:") {
				t.Fatalf("%s: check without a dynamodb action: %+v", op, c)
			}
		}
	})
}

func BenchmarkDescribeGetItem(b *testing.B) {
	in := decode(b, "GetItem", `{"TableName":"Orders",`+okey+`}`)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Describe("GetItem", in, testCatalog{}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDescribeGetItemProjected(b *testing.B) {
	in := decode(b, "GetItem", `{"TableName":"Orders",`+okey+`,"ProjectionExpression":"#a, b","ExpressionAttributeNames":{"#a":"a"}}`)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Describe("GetItem", in, testCatalog{}); err != nil {
			b.Fatal(err)
		}
	}
}
