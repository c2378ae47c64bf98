// Command market is the Market design (seed 003) on the AWS SDK for Go
// v2: one multi-tenant table, Market (pk, sk), with a ReverseIndex
// (sk, pk), a sparse IdLookupIndex (id, tp) and Time to Live on ttl;
// typed ULID system keys; per-user shards (profile, #C carts, #O orders,
// #R rewards); and per-tenant access, enforced by the database: each
// user's Session sends its requests as that user, whose IAM policy
// (tenant-policy.json, a dynamodb:LeadingKeys condition on the user's
// principal tag) lets them read only their own shards and write only
// their profile and carts, while the back end's Store, under its own
// policy, writes orders and rewards and serves the id lookup.
//
//	go run ./examples/market                                   # embedded in-memory sortkey, access control on
//	go run ./examples/market --endpoint http://127.0.0.1:8000  # sortkey serve, or AWS
//
// It creates the table if missing, loads sample data once, and prints
// each access pattern's requests and rows. README.md maps every access
// pattern of the design to its method and test.
package main
