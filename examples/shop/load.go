package main

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/aws/retry"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// batchSize is the most put and delete requests one BatchWriteItem takes.
const batchSize = 25

// Errors of the bulk loader.
var (
	ErrInvalidProduct = errors.New("shop: invalid product")
	ErrGaveUp         = errors.New("shop: bulk load gave up")
)

// Backoff is how the bulk loader resends a batch DynamoDB did not finish:
// a batch is sent at most Attempts times, and before attempt n+1 the
// loader waits a random time below min(Max, Base·2^(n-1)). The random
// part ("full jitter") keeps loaders throttled together from coming back
// together.
type Backoff struct {
	Attempts  int
	Base, Max time.Duration
}

// DefaultBackoff gives a batch ten attempts over about eight seconds on
// average, sixteen at most.
var DefaultBackoff = Backoff{Attempts: 10, Base: 50 * time.Millisecond, Max: 5 * time.Second}

// ceiling is the longest wait after attempt n (from 1).
func (b Backoff) ceiling(n int) time.Duration {
	d := b.Base
	for i := 1; i < n && d < b.Max; i++ {
		d *= 2
	}
	return min(d, b.Max)
}

// LoadProducts writes products in bulk: BatchWriteItem puts in batches of
// 25, each batch resent with backoff until DynamoDB has processed all of
// it (UnprocessedItems, or a throttling error when it could process
// none). A put replaces a product of the same id, so loading the same
// products again leaves one copy of each.
//
// The products are checked first, and nothing is written if one lacks an
// id, a name, a brand or a category, repeats an id (ErrInvalidProduct), or
// names a brand or category that is not there (ErrNotFound). A batch
// that fails after others were written leaves those written:
// BatchWriteItem is not a transaction, and loading again completes it.
func (s *Store) LoadProducts(ctx context.Context, products []Product) error {
	if len(products) == 0 {
		return nil
	}
	puts, err := s.productPuts(ctx, products)
	if err != nil {
		return err
	}
	for start := 0; start < len(puts); start += batchSize {
		end := min(start+batchSize, len(puts))
		if err := s.writeBatch(ctx, puts[start:end]); err != nil {
			return fmt.Errorf("products %d to %d of %d: %w", start+1, end, len(puts), err)
		}
	}
	return nil
}

// productPuts are the put requests of valid products whose parents exist.
func (s *Store) productPuts(ctx context.Context, products []Product) ([]types.WriteRequest, error) {
	if err := checkProducts(products); err != nil {
		return nil, err
	}
	if err := s.checkParents(ctx, products); err != nil {
		return nil, err
	}
	puts := make([]types.WriteRequest, len(products))
	for i, p := range products {
		av, err := item(productKeys(p), "Product", p)
		if err != nil {
			return nil, err
		}
		puts[i] = types.WriteRequest{PutRequest: &types.PutRequest{Item: av}}
	}
	return puts, nil
}

// checkProducts refuses a product whose keys would be empty, and an id
// given twice (BatchWriteItem refuses two puts of one key in a batch).
func checkProducts(products []Product) error {
	seen := make(map[string]bool, len(products))
	for i, p := range products {
		if p.ID == "" || p.Name == "" || p.BrandID == "" || p.CategoryID == "" {
			return fmt.Errorf("%w: product %d (%q) needs an id, a name, a brand and a category", ErrInvalidProduct, i+1, p.Name)
		}
		if seen[p.ID] {
			return fmt.Errorf("%w: product %d (%q): id %s given twice", ErrInvalidProduct, i+1, p.Name, p.ID)
		}
		seen[p.ID] = true
	}
	return nil
}

// checkParents refuses a product whose brand or category is not there:
// the check CreateProduct's transaction makes, here one read of each list.
func (s *Store) checkParents(ctx context.Context, products []Product) error {
	brands, err := s.ListBrands(ctx, Ascending)
	if err != nil {
		return err
	}
	categories, err := s.ListCategories(ctx, Ascending)
	if err != nil {
		return err
	}
	brandIDs, categoryIDs := idSet(brands, Brand.id), idSet(categories, Category.id)
	for i, p := range products {
		if !brandIDs[p.BrandID] || !categoryIDs[p.CategoryID] {
			return fmt.Errorf("%w: product %d (%q): brand %s or category %s", ErrNotFound, i+1, p.Name, p.BrandID, p.CategoryID)
		}
	}
	return nil
}

func (b Brand) id() string    { return b.ID }
func (c Category) id() string { return c.ID }
func (p Product) id() string  { return p.ID }

func idSet[T any](items []T, id func(T) string) map[string]bool {
	set := make(map[string]bool, len(items))
	for _, it := range items {
		set[id(it)] = true
	}
	return set
}

// writeBatch sends one batch until nothing of it is left unprocessed, or
// its attempts are spent. After a retryable error (throttling: nothing
// processed; a server error or a broken connection: unknown) the whole
// batch goes again, which puts make safe.
func (s *Store) writeBatch(ctx context.Context, batch []types.WriteRequest) error {
	for attempt := 1; ; attempt++ {
		left, err := s.sendBatch(ctx, batch)
		switch {
		case err != nil && !retryable(err):
			return err
		case err == nil && len(left) == 0:
			return nil
		case err == nil:
			batch = left
		}
		if attempt >= s.backoff.Attempts {
			return gaveUp(len(batch), attempt, err)
		}
		if err := s.sleep(ctx, s.jitter(s.backoff.ceiling(attempt))); err != nil {
			return err
		}
	}
}

// sendBatch makes one BatchWriteItem call and returns what DynamoDB left
// unprocessed.
func (s *Store) sendBatch(ctx context.Context, batch []types.WriteRequest) ([]types.WriteRequest, error) {
	out, err := s.db.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{
		RequestItems: map[string][]types.WriteRequest{s.table: batch}}, loaderRetries)
	if err != nil {
		return nil, err
	}
	return out.UnprocessedItems[s.table], nil
}

// loaderRetries turns the SDK's own retries off for the loader's calls.
// The SDK never resends UnprocessedItems, but it does retry throttling
// and server errors: stacked under the loader's attempts, its three
// tries would multiply them, wait on the wall clock rather than the
// Store's sleep, and draw on its retry quota. One loop, one budget.
func loaderRetries(o *dynamodb.Options) { o.Retryer = aws.NopRetryer{} }

// retryable is the SDK's own judgement of an error worth another try:
// throttling, 5xx, a broken connection; never a cancelled context.
func retryable(err error) bool {
	return retry.IsErrorRetryables(retry.DefaultRetryables).IsErrorRetryable(err).Bool()
}

// gaveUp is the loader's error once a batch's attempts are spent, with
// the last error DynamoDB answered, if the last attempt failed whole.
func gaveUp(left, attempts int, last error) error {
	err := fmt.Errorf("%w: %d puts of the batch still unprocessed after %d attempts", ErrGaveUp, left, attempts)
	if last != nil {
		err = fmt.Errorf("%w; the last: %w", err, last)
	}
	return err
}

// sleepCtx waits d, or until ctx ends.
func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
