// Package progress shows how far a long command has got: sortkey import,
// export, dump, load, bench's preload and serve --seed. On a terminal it
// draws a bar that redraws itself in place (github.com/schollz/progressbar);
// anywhere else — a CI log, a file — it writes a plain line every few
// seconds, and none for a run shorter than that, so short runs and
// scripts see only the command's own summary; quiet shows nothing.
//
// The commands see a narrow interface: SetTotal when the number of items
// is known (it gives the estimate of the time left), Add(items, bytes) as
// items go by, from any goroutine, and Done before the summary line.
package progress
