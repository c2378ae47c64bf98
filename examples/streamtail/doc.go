// Command streamtail is a live consumer of a DynamoDB stream written with
// the AWS SDK for Go v2: it finds a table's stream, starts each open shard
// at LATEST, polls GetRecords and renews expired iterators. Its test tails
// a sortkeytest server while writing to it.
package main
