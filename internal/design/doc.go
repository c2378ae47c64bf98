// Package design is sortkey's model of a single-table design: the tables
// and indexes, the entities with the key templates that place them, the
// numbered access patterns each served by a key condition, and the write
// patterns that keep the design's invariants. A design file (YAML or JSON,
// one schema: docs/design.schema.json) is parsed into a Design; the rest of
// the family checks it against itself (check), documents it (doc), creates
// its tables (apply), converts NoSQL Workbench models, and holds the
// running application's requests against it (coverage).
//
// The model is the contract between those pieces. Every element records
// where it was written (Pos), so that any finding can name the file
// position and say what to change.
package design
