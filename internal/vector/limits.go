package vector

// Limits of vector indexes and SearchVectors. Where DynamoDB's quota page
// could not be read, the number is sortkey's own and documented as such
// in docs/COMPATIBILITY.md; every check refers to these names so that a
// corrected quota changes one line.
const (
	// MaxIndexesPerTable is how many vector indexes one table may have,
	// DynamoDB's documented limit.
	MaxIndexesPerTable = 5

	// MaxDimensions is the largest Dimensions a vector index may declare,
	// and so the longest SearchVector. DynamoDB's quota could not be read;
	// this one is sortkey's.
	MaxDimensions = 16000

	// MinTopK is the smallest TopK a search may ask for.
	MinTopK = 1

	// MaxTopK is the largest TopK a search may ask for: DynamoDB answers
	// one page of at most this many results.
	MaxTopK = 100

	// MaxInlineFilters is how many INLINE_FILTER elements one index's
	// SearchSchema may have. DynamoDB's quota could not be read; this one
	// is sortkey's.
	MaxInlineFilters = 16
)
