// Package apply makes a design's tables exist as designed: it creates
// missing tables with their indexes, stream and Time to Live, adds the
// global secondary indexes a live table lacks, and sets its stream and
// TTL. What it cannot or will not change — key schemas and local
// secondary indexes, fixed at creation; index projections; indexes the
// design does not name; billing mode — it reports as differences rather
// than ignoring, so a design and a live table cannot drift apart silently.
//
// It speaks only the DynamoDB API through the AWS SDK for Go v2, so the
// same code applies a design to DynamoDB or to a sortkey server. It is a
// package of its own so that the design model stays free of the SDK.
package apply
