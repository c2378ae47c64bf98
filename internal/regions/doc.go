// Package regions serves every region of one sortkey from its own engine
// and replicates global tables between them (docs/GLOBAL-TABLES.md).
//
// A Set opens a region's engine at its first request: the default region
// in the server's own store, every other in a store of its own beside it
// (a regions/<region> directory, or a <schema>_<region> PostgreSQL
// schema), so that a table exists only in the region that created it, as
// on AWS. UpdateTable's ReplicaUpdates make a table a replica of a global
// table: the Set creates its twin in the new region, marks every member
// with the group, and copies the items. From then on each write to a
// replica leaves, in its own batch, a change for each other region
// (engine's replication.go); the Set's replicator sends them once they
// are Lag old by the server's clock, and the receiving replica keeps
// whichever write is later. A partitioned region neither sends nor
// receives: its changes wait in its store until it rejoins.
package regions
