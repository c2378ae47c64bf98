// Package designtest holds an example's design file against the example
// itself, so that a design file which drifts from the code it documents
// fails the example's tests, not a reader's trust: the tables the
// example creates must be the tables the design declares (Tables, and
// Applied through `sortkey design apply`); every item the example writes
// must be exactly one of the design's entities, placed in the table and
// in each index as that entity's key templates say (Items); the design
// must pass `sortkey design check` but for the warnings it explains
// (Check); the README's design section must be what `sortkey design doc`
// writes (Readme); and the package's whole test run must exercise every
// pattern and send no request that fits none (Coverage).
package designtest
