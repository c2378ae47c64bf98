// Command market is the Market design (seed 003) on the AWS SDK for Go
// v2: one multi-tenant table, Market (pk, sk), with a ReverseIndex
// (sk, pk), a sparse IdLookupIndex (id, tp) and Time to Live on ttl;
// typed ULID system keys; per-user shards (profile, #C carts, #O orders,
// #R rewards); and per-tenant access, where a user's Session reads only
// their own shards and writes only their profile and carts, while the
// back end's Store writes orders and rewards.
//
//	go run ./examples/market                                   # embedded in-memory sortkey
//	go run ./examples/market --endpoint http://127.0.0.1:8000  # sortkey serve, or AWS
//
// It creates the table if missing, loads sample data once, and prints
// each access pattern's requests and rows. README.md maps every access
// pattern of the design to its method and test.
package main
