// Package workbench converts between NoSQL Workbench's data-model JSON
// and sortkey design files, so that a design drawn in Workbench can be
// checked, documented and applied here, and a design written here can
// be opened there.
//
// The two formats overlap only in part. Workbench has tables, their key
// and non-key attributes, GSIs and facets (an entity's view of a table,
// with aliases for its keys) and sample items; a design also has key
// templates, LSIs, TTL, streams and access patterns. Import derives each
// key template from the facet's sample items (or a placeholder named for
// the key's alias when there are none), and Export writes each facet one
// sample item whose values are the templates, which Import reads back as
// they were. Both return warnings naming everything the other side
// cannot hold, instead of dropping it silently.
package workbench
