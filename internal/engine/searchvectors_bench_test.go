package engine

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/sortkeydb/sortkey/internal/protocol"
)

// BenchmarkSearchVectorsExact is one SearchVectors (TopK 10) over a whole
// vector index read from the store and scored exactly: what every search
// costs today, by index size and dimensions.
func BenchmarkSearchVectorsExact(b *testing.B) {
	for _, n := range []int{1_000, 10_000, 50_000} {
		for _, dims := range []int{128, 768} {
			if n*dims > 10_000_000 {
				continue // sized for a 2-core machine
			}
			b.Run(fmt.Sprintf("items=%d/dims=%d", n, dims), func(b *testing.B) { benchSearch(b, n, dims) })
		}
	}
}

func benchSearch(b *testing.B, n, dims int) {
	e, err := Open(Options{InMemory: true, TTLInterval: -1})
	if err != nil {
		b.Fatal(err)
	}
	defer e.Close()
	must[protocol.CreateTableOutput](b)(call(b, e.CreateTable, fmt.Sprintf(`{"TableName":"vec","BillingMode":"PAY_PER_REQUEST",
		"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],
		"VectorIndexes":[{"IndexName":"vix","VectorAttribute":{"AttributeName":"v"},"Dimensions":%d,"DistanceFunction":"COSINE",
		"Projection":{"ProjectionType":"KEYS_ONLY"}}]}`, dims)))
	r := rand.New(rand.NewPCG(1, 2))
	for i := range n {
		must[protocol.PutItemOutput](b)(call(b, e.PutItem, fmt.Sprintf(`{"TableName":"vec","Item":{"pk":{"S":"k%d"},"v":%s}}`, i, randomVector(r, dims))))
	}
	q := fmt.Sprintf(`{"TableName":"vec","IndexName":"vix","TopK":10,"SearchVector":%s}`, strings.TrimSuffix(strings.TrimPrefix(randomVector(r, dims), `{"L":`), "}"))
	b.ResetTimer()
	for b.Loop() {
		out := must[protocol.SearchVectorsOutput](b)(call(b, e.SearchVectors, q))
		if len(out.SearchResults) != 10 {
			b.Fatalf("%d results", len(out.SearchResults))
		}
	}
}

func randomVector(r *rand.Rand, dims int) string {
	var sb strings.Builder
	sb.WriteString(`{"L":[`)
	for i := range dims {
		if i > 0 {
			sb.WriteByte(',')
		}
		sb.WriteString(`{"N":"` + strconv.FormatFloat(r.NormFloat64(), 'g', 7, 64) + `"}`)
	}
	sb.WriteString(`]}`)
	return sb.String()
}
