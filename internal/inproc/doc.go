// Package inproc is an http.RoundTripper that hands each request straight
// to a handler in the same process: an AWS SDK client still builds, signs
// and sends a real HTTP request and parses a real HTTP response, but no
// socket, kernel or connection pool is involved. sortkeytest's in-process
// clients and the agent interface's design tools use it.
package inproc
