// Package vector is the search core for DynamoDB vector search
// (SearchVectors): the three distance functions with DynamoDB's score
// definitions, the check that turns a stored L-of-N attribute into a
// float32 vector, an exact top-K search, and an approximate
// nearest-neighbour index (HNSW) over uint64 ids.
//
// Scores follow DynamoDB: COSINE is the cosine distance 1 − cos (0..2,
// lower is closer), EUCLIDEAN the L2 distance, not squared (lower is
// closer), DOT_PRODUCT is q·v (higher is closer). Vectors are float32, as
// DynamoDB holds them in the index; scores are summed in float64 so that
// no finite float32 input can overflow into Inf or NaN. The graph walk
// ranks candidates by gonum's single-precision SIMD dot product and then
// scores its final candidates in float64, so an approximate answer's
// scores and order are exactly the exact search's for the same vectors.
//
// A build (AddBatch) inserts in waves whose neighbour searches run on
// every core, and a built index can be written to a stream and read back
// (persist.go), so a restart need not rebuild it.
//
// The index is our own rather than github.com/coder/hnsw (v0.6.1, which we
// evaluated): that package has no filtered search, returns no scores and
// is not safe for concurrent use, while SearchVectors needs all three —
// HASH and INLINE_FILTER search conditions must filter during the graph
// walk, results carry their score, and a server searches from many
// goroutines while items are written.
package vector
