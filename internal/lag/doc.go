// Package lag remembers recent changes to keys so that a reader can see
// the keys as they were a little while ago: sortkey's index lag and stale
// reads (docs/TESTING-FAILURES.md).
//
// A Log holds, for each change, the key's value before it and the time it
// was made. The value of a key as of a cutoff is the value before its
// earliest change after the cutoff; a key with no change after the cutoff
// reads as stored. Changes older than the longest window anyone reads
// through are forgotten, and so are the oldest ones once the log holds
// more than its byte budget: memory stays bounded, and a reader then sees
// a change sooner than asked, never a value that never was.
//
// Keys are grouped by a fixed-length prefix (for sortkey, a table's or an
// index's), so a range read looks only at its own group's changes.
package lag
