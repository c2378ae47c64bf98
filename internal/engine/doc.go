// Package engine is sortkey's database: the catalog of tables and one file
// per operation. Every operation validates its request fully before it reads
// or writes anything, then does its read-modify-write under the item's lock
// and commits one synced storage batch.
//
// Operations take and return the wire structs of package protocol, so the
// server is a thin decoder in front of them and an embedding program can
// call them directly.
package engine
