// Package designtest holds an example's design file against the example
// itself: the tables the example creates must be the tables the design
// declares, and every item the example writes must be exactly one of the
// design's entities, placed in the table and in each index as that
// entity's key templates say. A design file that drifts from the code it
// documents fails the example's tests, not a reader's trust.
package designtest
