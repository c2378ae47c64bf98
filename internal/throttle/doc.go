// Package throttle enforces DynamoDB's capacity limits when sortkey is
// asked to (sortkey serve --enforce-capacity, sortkey.Options.EnforceCapacity),
// so that an application's retries, backoff and UnprocessedItems loops run
// against throttling before they meet it in production.
//
// A Limiter keeps token buckets, refilled by the database's clock:
//
//   - one per provisioned table and global secondary index, for reads and
//     for writes, refilled at the provisioned rate and holding up to 300
//     seconds of unused capacity (DynamoDB's burst capacity);
//   - one per on-demand table or index with a maximum throughput
//     (OnDemandThroughput), holding one second of it: the maximum has no
//     burst;
//   - one per partition key value, read and write, at DynamoDB's
//     per-partition ceiling of 3,000 read and 1,000 write units a second.
//
// A request is admitted while none of the buckets it uses is in debt, and
// then charged with what it actually consumed, as DynamoDB does: one large
// request may drive a bucket below zero, and the requests after it wait for
// the refill.
//
// The model is simpler than DynamoDB's in ways docs/TESTING-FAILURES.md
// lists: a new bucket starts with one second of capacity, not with burst
// credit; a partition is a partition key value (DynamoDB's partitions hold
// many keys, and split hot ones); a global secondary index's partitions
// are not limited, only its table's; and nothing adapts on its own (no auto
// scaling, no adaptive capacity, no on-demand account quotas).
package throttle
