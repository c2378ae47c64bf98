// Package storage is sortkey's only contact with Pebble: opening the store on
// disk or on Pebble's in-memory filesystem (one code path for both), the key
// layout, atomic synced batches, point reads and bounded iteration.
//
// Every write goes through a Batch committed with Sync, so a write is on disk
// before it is acknowledged; Pebble's commit pipeline lets concurrent writers
// share one fsync.
package storage
