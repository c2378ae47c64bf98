// Package inproc reaches sortkey's API handler from the same process, the
// way a client over HTTP would, with no socket, kernel or connection pool
// involved. Transport is an http.RoundTripper for AWS SDK clients, which
// still build, sign and send real requests and parse real responses
// (sortkeytest's in-process clients, serve --seed, design_apply). Client
// calls an operation with JSON in and out, for sortkey's own front ends
// (the console and the agent interface's data tools).
package inproc
