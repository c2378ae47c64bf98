package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/sortkeydb/sortkey"
	"github.com/sortkeydb/sortkey/sortkeytest"
)

// partialBatches holds back half the puts of half the BatchWriteItem
// calls, drawn from seed 3: the same calls get the same faults every run.
const partialBatches = `{"seed": 3, "rules": [{"operation": "BatchWriteItem", "unprocessed": 0.5, "probability": 0.5}]}`

// loadRun is what one bulk load did: its calls, the faults it met and
// the waits between its attempts.
type loadRun struct {
	batchCalls int
	fired      int64
	waits      []time.Duration
}

// paced makes the store's loader wait on nothing, recording each wait,
// with its jitter drawn from a seeded stream.
func (sh *shop) paced(run *loadRun) {
	sh.jitter = fullJitter(rand.New(rand.NewPCG(1, 2)).Int64N)
	sh.sleep = func(ctx context.Context, d time.Duration) error {
		run.waits = append(run.waits, d)
		return ctx.Err()
	}
}

// newProducts are n new products of the sample's brands and categories,
// not yet written.
func (sh *shop) newProducts(t *testing.T, n int) []Product {
	t.Helper()
	var out []Product
	for i := range n {
		p := sampleProducts[i%len(sampleProducts)]
		prod, err := sh.newProduct(fmt.Sprintf("%s #%d", p.name, i), sh.sample.Brands[p.brand].ID,
			sh.sample.Categories[p.category].ID, p.priceCents, p.stock)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, prod)
	}
	return out
}

// batchCalls counts the BatchWriteItem calls made since the last check.
func (sh *shop) batchCalls() int {
	n := 0
	for _, c := range sh.rec.Take() {
		if c.Op == "BatchWriteItem" {
			n++
		}
	}
	return n
}

// fired is how many times the server's first fault rule fired.
func fired(t *testing.T, srv *sortkeytest.Server) int64 {
	t.Helper()
	var st struct{ Rules []struct{ Fired int64 } }
	if err := json.Unmarshal(srv.DB.Faults(), &st); err != nil || len(st.Rules) == 0 {
		t.Fatalf("fault rules %s: %v", srv.DB.Faults(), err)
	}
	return st.Rules[0].Fired
}

// loaded checks that the table holds the sample's products and want,
// each as it was loaded.
func (sh *shop) loaded(t *testing.T, want []Product) {
	t.Helper()
	got, err := sh.ListProducts(ctx, Ascending)
	if err != nil {
		t.Fatal(err)
	}
	byID := map[string]Product{}
	for _, p := range want {
		byID[p.ID] = p
	}
	for _, p := range sh.sample.Products {
		byID[p.ID] = p
	}
	if len(got) != len(byID) {
		t.Fatalf("%d products in the table, want %d", len(got), len(byID))
	}
	for _, p := range got {
		if !reflect.DeepEqual(p, byID[p.ID]) {
			t.Fatalf("product reads back as %+v, want %+v", p, byID[p.ID])
		}
	}
}

// loadUnderFaults loads 60 products (three batches) on a fresh shop
// whose BatchWriteItem calls meet partialBatches.
func loadUnderFaults(t *testing.T) loadRun {
	t.Helper()
	srv := sortkeytest.NewWithOptions(t, coverage.Options(nil))
	sh := newShopOn(t, srv)
	var run loadRun
	sh.paced(&run)
	products := sh.newProducts(t, 60)
	srv.SetFaults(t, partialBatches)
	if err := sh.LoadProducts(ctx, products); err != nil {
		t.Fatal(err)
	}
	run.batchCalls, run.fired = sh.batchCalls(), fired(t, srv)
	sh.loaded(t, products)
	return run
}

// TestLoadProductsResendsUnprocessedItems loads three batches while
// half the calls come back with half their puts unprocessed: every
// product is stored, and the loader resent after a wait, one call per
// wait, each wait caused by a fault. (A fault on a call of one put holds
// nothing back, as a rule below 1 leaves one processed: fired can be more.)
func TestLoadProductsResendsUnprocessedItems(t *testing.T) {
	run := loadUnderFaults(t)
	resends := len(run.waits)
	if resends == 0 || run.batchCalls != 3+resends || int64(resends) > run.fired {
		t.Fatalf("%d BatchWriteItem calls, %d waits, %d faults; want the 3 batches plus one call after each wait, at least one, each after a fault",
			run.batchCalls, resends, run.fired)
	}
}

// TestLoadProductsSameSeedSameRounds loads twice under the same seeded
// faults: the same calls, the same faults, the same waits.
func TestLoadProductsSameSeedSameRounds(t *testing.T) {
	first, second := loadUnderFaults(t), loadUnderFaults(t)
	if !reflect.DeepEqual(first, second) {
		t.Fatalf("first load %+v\nsecond     %+v", first, second)
	}
}

// TestLoadProductsGivesUp meets a batch DynamoDB never finishes: the
// loader stops after its attempts, waiting longer each time, says so, and
// tries no later batch.
func TestLoadProductsGivesUp(t *testing.T) {
	for _, tc := range []struct {
		name, rules, says string
		written           int
	}{
		// unprocessed 1 on a whole batch is ProvisionedThroughputExceededException.
		{"nothing processed", `{"rules": [{"operation": "BatchWriteItem", "unprocessed": 1}]}`,
			"shop: bulk load gave up: 25 puts of the batch still unprocessed after 4 attempts; the last: ", 0},
		// Each call holds back half of what it is sent: 13, 7, 4, then 2 left.
		{"half processed", `{"rules": [{"operation": "BatchWriteItem", "unprocessed": 0.5}]}`,
			"shop: bulk load gave up: 2 puts of the batch still unprocessed after 4 attempts", 23},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := sortkeytest.NewWithOptions(t, coverage.Options(nil))
			sh := newShopOn(t, srv)
			var run loadRun
			sh.paced(&run)
			sh.backoff = Backoff{Attempts: 4, Base: 100 * time.Millisecond, Max: time.Second}
			products := sh.newProducts(t, 30)
			srv.SetFaults(t, tc.rules)
			err := sh.LoadProducts(ctx, products)
			if !errors.Is(err, ErrGaveUp) || !strings.HasPrefix(err.Error(), "products 1 to 25 of 30: "+tc.says) {
				t.Fatalf("error %v, want %q", err, tc.says)
			}
			if calls := sh.batchCalls(); calls != 4 || len(run.waits) != 3 {
				t.Fatalf("%d calls, waits %v; want 4 calls of the first batch and 3 waits", calls, run.waits)
			}
			for i, w := range run.waits {
				if w < 0 || w >= 100*time.Millisecond<<i {
					t.Fatalf("wait %d is %v, want below %v", i+1, w, 100*time.Millisecond<<i)
				}
			}
			if got := countProducts(t, sh) - len(sh.sample.Products); got != tc.written {
				t.Fatalf("%d products written, want %d", got, tc.written)
			}
		})
	}
}

func countProducts(t *testing.T, sh *shop) int {
	t.Helper()
	got, err := sh.ListProducts(ctx, Ascending)
	if err != nil {
		t.Fatal(err)
	}
	return len(got)
}

// TestLoadProductsThrottledLastErrorIsThroughput names DynamoDB's own
// exception when the last attempt was refused whole.
func TestLoadProductsThrottledLastErrorIsThroughput(t *testing.T) {
	srv := sortkeytest.NewWithOptions(t, coverage.Options(nil))
	sh := newShopOn(t, srv)
	sh.paced(&loadRun{})
	sh.backoff.Attempts = 2
	srv.SetFaults(t, `{"rules": [{"operation": "BatchWriteItem", "unprocessed": 1}]}`)
	err := sh.LoadProducts(ctx, sh.newProducts(t, 3))
	var throttled *types.ProvisionedThroughputExceededException
	if !errors.Is(err, ErrGaveUp) || !errors.As(err, &throttled) {
		t.Fatalf("error %v, want ErrGaveUp wrapping ProvisionedThroughputExceededException", err)
	}
}

// TestLoadProductsStopsWhenCancelled cancels the load while it waits to
// resend: it returns the context's error at once and sends nothing more.
func TestLoadProductsStopsWhenCancelled(t *testing.T) {
	srv := sortkeytest.NewWithOptions(t, coverage.Options(nil))
	sh := newShopOn(t, srv)
	cctx, cancel := context.WithCancel(ctx)
	sh.backoff = Backoff{Attempts: 5, Base: time.Hour, Max: time.Hour}
	sh.sleep = func(ctx context.Context, d time.Duration) error {
		cancel() // as a shutdown signal would, mid-wait
		return sleepCtx(ctx, d)
	}
	srv.SetFaults(t, `{"rules": [{"operation": "BatchWriteItem", "unprocessed": 1}]}`)
	err := sh.LoadProducts(cctx, sh.newProducts(t, 3))
	if !errors.Is(err, context.Canceled) || sh.batchCalls() != 1 {
		t.Fatalf("error %v after %d calls, want context.Canceled after 1", err, sh.batchCalls())
	}
}

// TestLoadProductsRefusesBadInput writes nothing when one product is
// invalid or names a brand that is not there, wherever it is in the load.
func TestLoadProductsRefusesBadInput(t *testing.T) {
	sh := newShop(t)
	for _, tc := range []struct {
		name string
		bad  func(*Product, []Product)
		want error
	}{
		{"no brand", func(p *Product, _ []Product) { p.BrandID = "" }, ErrInvalidProduct},
		{"id twice", func(p *Product, all []Product) { p.ID = all[0].ID }, ErrInvalidProduct},
		{"unknown category", func(p *Product, _ []Product) { p.CategoryID = sh.sample.Brands["Sony"].ID }, ErrNotFound},
	} {
		products := sh.newProducts(t, 40)
		tc.bad(&products[35], products)
		if err := sh.LoadProducts(ctx, products); !errors.Is(err, tc.want) || !strings.Contains(err.Error(), "product 36 ") {
			t.Fatalf("%s: %v, want %v naming product 36", tc.name, err, tc.want)
		}
	}
	if n := sh.batchCalls(); n != 0 {
		t.Fatalf("%d BatchWriteItem calls, want none", n)
	}
	sh.loaded(t, nil)
}

// TestLoadProductsUnderCapacity loads onto a provisioned table whose
// GSIs have 10 WCU, with capacity enforced: DynamoDB's own throttling (a
// GSI out of capacity holds back its table's writes), part of a batch in
// UnprocessedItems or the whole batch refused, paced by a virtual clock
// that each wait moves. Every product is stored.
func TestLoadProductsUnderCapacity(t *testing.T) {
	srv := sortkeytest.NewWithOptions(t, coverage.Options(&sortkey.Options{EnforceCapacity: true,
		Clock: sortkey.NewVirtualClock(sampleStart)}))
	sh := provisionedShop(t, srv, 10)
	var run loadRun
	sh.jitter = fullJitter(rand.New(rand.NewPCG(1, 2)).Int64N)
	sh.sleep = func(_ context.Context, d time.Duration) error {
		run.waits = append(run.waits, d)
		srv.Advance(d)
		return nil
	}
	start := srv.Now()
	products := sh.newProducts(t, 40)
	if err := sh.LoadProducts(ctx, products); err != nil {
		t.Fatal(err)
	}
	if calls := sh.batchCalls(); calls <= 2 || len(run.waits) != calls-2 {
		t.Fatalf("%d BatchWriteItem calls, %d waits; want more calls than the 2 batches, one wait before each resend", calls, len(run.waits))
	}
	// 40 products, each a unit on each GSI, at 10 units a second after
	// the first second's 10: at least three seconds.
	if took := srv.Now().Sub(start); took < 3*time.Second {
		t.Fatalf("the load took %v of the clock, want at least 3s", took)
	}
	sh.loaded(t, products)
}

// provisionedShop is a shop on a PROVISIONED table whose GSIs have
// gsiWCU write units (the table ample, for the sample's brands and
// categories, the only part of the sample written).
func provisionedShop(t *testing.T, srv *sortkeytest.Server, gsiWCU int64) *shop {
	t.Helper()
	db := srv.Client()
	def := tableDefinition("shop")
	def.BillingMode = types.BillingModeProvisioned
	def.ProvisionedThroughput = throughput(100)
	for i := range def.GlobalSecondaryIndexes {
		def.GlobalSecondaryIndexes[i].ProvisionedThroughput = throughput(gsiWCU)
	}
	if _, err := db.CreateTable(ctx, def); err != nil {
		t.Fatal(err)
	}
	return newShopWith(t, srv, func(ctx context.Context, s *Store) (*Sample, error) {
		sm := &Sample{Categories: map[string]Category{}, Brands: map[string]Brand{}}
		return sm, sm.loadCatalog(ctx, s)
	})
}

func throughput(wcu int64) *types.ProvisionedThroughput {
	return &types.ProvisionedThroughput{ReadCapacityUnits: aws.Int64(1000), WriteCapacityUnits: aws.Int64(wcu)}
}

// BenchmarkLoadProducts loads 250 products (ten batches) a run on a
// server without faults: the loader's cost when nothing is resent.
func BenchmarkLoadProducts(b *testing.B) {
	srv := sortkeytest.New(b)
	db := srv.Client()
	if err := CreateTables(ctx, db, "shop"); err != nil {
		b.Fatal(err)
	}
	s := NewStore(db, "shop")
	brand, err := s.CreateBrand(ctx, "Sony")
	if err != nil {
		b.Fatal(err)
	}
	category, err := s.CreateCategory(ctx, "Phones")
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		products := make([]Product, 250)
		for i := range products {
			if products[i], err = s.newProduct(fmt.Sprint("Xperia ", i), brand.ID, category.ID, 89999, 10); err != nil {
				b.Fatal(err)
			}
		}
		if err := s.LoadProducts(ctx, products); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N*250), "µs/product")
}
