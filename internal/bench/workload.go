package bench

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
)

// Table is the benchmark's table: a partition key and a string sort key.
const Table = "sortkey_bench"

// CreateTable is the CreateTable body for Table.
const CreateTable = `{"TableName":"` + Table + `","BillingMode":"PAY_PER_REQUEST",` +
	`"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},{"AttributeName":"sk","AttributeType":"S"}],` +
	`"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},{"AttributeName":"sk","KeyType":"RANGE"}]}`

// Index is the benchmark table's global secondary index, made with
// --gsi: its partition key gsi1pk puts every ten consecutive items in one
// bucket, so a Query of it returns ten items at any table size.
const Index = "gsi1"

// CreateTableGSI is the CreateTable body for Table with Index, which
// projects every attribute (as single-table designs' indexes usually do).
const CreateTableGSI = `{"TableName":"` + Table + `","BillingMode":"PAY_PER_REQUEST",` +
	`"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},{"AttributeName":"sk","AttributeType":"S"},{"AttributeName":"gsi1pk","AttributeType":"S"}],` +
	`"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},{"AttributeName":"sk","KeyType":"RANGE"}],` +
	`"GlobalSecondaryIndexes":[{"IndexName":"` + Index + `","KeySchema":[{"AttributeName":"gsi1pk","KeyType":"HASH"}],"Projection":{"ProjectionType":"ALL"}}]}`

// bucketSize is how many items share one gsi1pk.
const bucketSize = 10

// Request is one prebuilt request: its operation and JSON body.
type Request struct {
	Op   string
	Body []byte
}

// Workloads names every workload Build accepts.
// query-index needs the table made with --gsi; scan pages through the
// table rather than sending prebuilt requests (Target.RunWorkload).
var Workloads = []string{"put", "get", "query", "update", "batch-write", "transact-write", "mix", "query-index", "scan"}

// keys picks item numbers in [0, n): uniformly, or Zipf-skewed when skew > 1
// (a few hot keys, as real traffic has).
type keys struct {
	rng  *rand.Rand
	zipf *rand.Zipf
	n    int
}

func newKeys(seed uint64, n int, skew float64) *keys {
	k := &keys{rng: rand.New(rand.NewPCG(seed, 1)), n: max(n, 1)}
	if skew > 1 {
		k.zipf = rand.NewZipf(k.rng, skew, 1, uint64(k.n-1))
	}
	return k
}

func (k *keys) next() int {
	if k.zipf != nil {
		return int(k.zipf.Uint64())
	}
	return k.rng.IntN(k.n)
}

// Shape is what a workload's requests look like.
type Shape struct {
	Keys     int     // item numbers in use (the preloaded items)
	ItemSize int     // approximate bytes per item
	Skew     float64 // Zipf exponent; <= 1 means uniform
	GSI      bool    // items carry gsi1pk, the key of Index
}

// partition is item i's partition key. Every 100 items form a partition
// of 30 and one of 70, so Query reads partitions of realistic sizes.
func partition(i int) string {
	p := i / 100 * 2
	if i%100 >= 30 {
		p++
	}
	return fmt.Sprintf("p%d", p)
}

// bucket is item i's gsi1pk.
func bucket(i int) string { return fmt.Sprintf("g%d", i/bucketSize) }

// item renders item i as an Item JSON object padded to about s.ItemSize
// bytes. The padding is random text, as real attributes are: padding that
// compresses to nothing would flatter any server that compresses its
// data (sortkey's storage does) in memory use, and on disk. With s.GSI
// the index key takes the place of some padding, so items keep their size.
func item(i int, s Shape) string {
	pad := max(s.ItemSize-40, 1)
	if !s.GSI {
		return fmt.Sprintf(`{"pk":{"S":"%s"},"sk":{"S":"%s"},"n":{"N":"0"},"pad":{"S":"%s"}}`, partition(i), sortKey(i), padding(i, pad))
	}
	b := bucket(i)
	pad = max(pad-len(b)-6, 1) // the attribute's name and value
	return fmt.Sprintf(`{"pk":{"S":"%s"},"sk":{"S":"%s"},"gsi1pk":{"S":"%s"},"n":{"N":"0"},"pad":{"S":"%s"}}`, partition(i), sortKey(i), b, padding(i, pad))
}

// noise is random alphanumeric text that padding takes slices of, made
// on first use: not at init, which would slow every start of the binary.
var noise = sync.OnceValue(func() string {
	const alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
	rng := rand.New(rand.NewPCG(8, 8))
	b := make([]byte, 1<<20)
	for i := range b {
		b[i] = alphabet[rng.IntN(len(alphabet))]
	}
	return string(b)
})

// padding is n characters of noise from a place that depends on i, so
// neighbouring items share no text.
func padding(i, n int) string {
	noise := noise()
	if n > len(noise) {
		return strings.Repeat(noise, n/len(noise)+1)[:n]
	}
	at := int(uint64(i) * 0x9E3779B97F4A7C15 % uint64(len(noise)-n+1))
	return noise[at : at+n]
}

// sortKey is hierarchical, as single-table designs make them, so Query can
// narrow a partition with begins_with.
func sortKey(i int) string { return fmt.Sprintf("ITEM#%02d#%08d", i%7, i) }

func key(i int) string {
	return fmt.Sprintf(`{"pk":{"S":"%s"},"sk":{"S":"%s"}}`, partition(i), sortKey(i))
}

// Build prebuilds count requests of a workload.
func Build(workload string, s Shape, count int, seed uint64) ([]Request, error) {
	mk, ok := builders[workload]
	if workload == "mix" {
		return buildMix(s, count, seed), nil
	}
	if err := CheckWorkload(workload, s); err != nil {
		return nil, err
	}
	if !ok {
		return nil, fmt.Errorf("workload %q sends no prebuilt requests: run it with Target.RunWorkload", workload)
	}
	k := newKeys(seed, s.Keys, s.Skew)
	out := make([]Request, count)
	for i := range out {
		out[i] = mk(k, s)
	}
	return out, nil
}

var builders = map[string]func(*keys, Shape) Request{
	"put": func(k *keys, s Shape) Request {
		return Request{"PutItem", fmt.Appendf(nil, `{"TableName":"%s","Item":%s}`, Table, item(k.next(), s))}
	},
	"get": func(k *keys, s Shape) Request {
		return Request{"GetItem", fmt.Appendf(nil, `{"TableName":"%s","Key":%s}`, Table, key(k.next()))}
	},
	"query": func(k *keys, s Shape) Request {
		i := k.next()
		return Request{"Query", fmt.Appendf(nil, `{"TableName":"%s","Limit":10,"KeyConditionExpression":"pk = :p AND begins_with(sk, :b)",`+
			`"ExpressionAttributeValues":{":p":{"S":"%s"},":b":{"S":"ITEM#%02d#"}}}`, Table, partition(i), i%7)}
	},
	"query-index": func(k *keys, s Shape) Request {
		return Request{"Query", fmt.Appendf(nil, `{"TableName":"%s","IndexName":"%s","Limit":%d,"KeyConditionExpression":"gsi1pk = :g",`+
			`"ExpressionAttributeValues":{":g":{"S":"%s"}}}`, Table, Index, bucketSize, bucket(k.next()))}
	},
	"update": func(k *keys, s Shape) Request {
		return Request{"UpdateItem", fmt.Appendf(nil, `{"TableName":"%s","Key":%s,"UpdateExpression":"ADD n :one",`+
			`"ConditionExpression":"attribute_not_exists(n) OR n >= :zero","ExpressionAttributeValues":{":one":{"N":"1"},":zero":{"N":"0"}}}`, Table, key(k.next()))}
	},
	"batch-write": func(k *keys, s Shape) Request { return batchWrite(k, s) },
	"transact-write": func(k *keys, s Shape) Request {
		return transactWrite(k, s)
	},
}

// distinctKeys draws n different item numbers, as a batch or transaction
// may not name one item twice.
func distinctKeys(k *keys, n int) []int {
	seen := map[int]bool{}
	var out []int
	for len(out) < n && len(seen) < k.n {
		if i := k.next(); !seen[i] {
			seen[i] = true
			out = append(out, i)
		}
	}
	return out
}

func batchWrite(k *keys, s Shape) Request {
	var parts []string
	for _, i := range distinctKeys(k, 25) {
		parts = append(parts, `{"PutRequest":{"Item":`+item(i, s)+`}}`)
	}
	return Request{"BatchWriteItem", fmt.Appendf(nil, `{"RequestItems":{"%s":[%s]}}`, Table, strings.Join(parts, ","))}
}

func transactWrite(k *keys, s Shape) Request {
	var parts []string
	for _, i := range distinctKeys(k, 4) {
		parts = append(parts, fmt.Sprintf(`{"Put":{"TableName":"%s","Item":%s}}`, Table, item(i, s)))
	}
	return Request{"TransactWriteItems", fmt.Appendf(nil, `{"TransactItems":[%s]}`, strings.Join(parts, ","))}
}

// buildMix is a read-heavy application mix: half gets, a fifth queries,
// the rest puts and updates.
func buildMix(s Shape, count int, seed uint64) []Request {
	k := newKeys(seed, s.Keys, s.Skew)
	pick := rand.New(rand.NewPCG(seed, 2))
	out := make([]Request, count)
	for i := range out {
		switch r := pick.IntN(100); {
		case r < 50:
			out[i] = builders["get"](k, s)
		case r < 70:
			out[i] = builders["query"](k, s)
		case r < 85:
			out[i] = builders["put"](k, s)
		default:
			out[i] = builders["update"](k, s)
		}
	}
	return out
}

// CheckWorkload refuses an unknown workload, and one the table's shape
// cannot serve.
func CheckWorkload(workload string, s Shape) error {
	if !slices.Contains(Workloads, workload) {
		return fmt.Errorf("unknown workload %q (have %s)", workload, strings.Join(Workloads, ", "))
	}
	if workload == "query-index" && !s.GSI {
		return fmt.Errorf("workload query-index needs the table's index: run with --gsi")
	}
	return nil
}

// preloadBatch is how many items one preload request writes: the most a
// BatchWriteItem may carry.
const preloadBatch = 25

// preloadBatches is how many requests write items 0..n-1.
func preloadBatches(n int) int { return (n + preloadBatch - 1) / preloadBatch }

// preloadRequest is the b-th preload request: the BatchWriteItem that
// writes items b*25 up to 25 more, below n. Requests are made one at a
// time as writers need them, so preloading ten million items holds no
// more than a few requests in memory.
func preloadRequest(b, n int, s Shape) Request {
	var body strings.Builder
	body.WriteString(`{"RequestItems":{"` + Table + `":[`)
	for i := b * preloadBatch; i < min((b+1)*preloadBatch, n); i++ {
		if i > b*preloadBatch {
			body.WriteByte(',')
		}
		body.WriteString(`{"PutRequest":{"Item":` + item(i, s) + `}}`)
	}
	body.WriteString(`]}}`)
	return Request{"BatchWriteItem", []byte(body.String())}
}
