// Package httpfast serves the DynamoDB API's common request shape over
// HTTP/1.1 with less work per request than net/http, and hands every other
// connection to an unchanged net/http.Server.
//
// Why it exists: on a small machine, net/http costs some microseconds of
// CPU per request beyond the read and write system calls (a context with
// cancel per request, a background read started when the body ends and
// aborted after the handler, header map parsing and cloning, buffered
// response framing, deadline resets). For PutItem of a few hundred bytes
// that is a large share of the server's whole cost (issue 24).
//
// The fast path takes a request only when it is exactly `POST / HTTP/1.1`
// with well-formed header lines that fit in the read buffer and in
// MaxHeaderBytes, one Host, exactly one Content-Length (no
// Transfer-Encoding, Expect, Upgrade, Trailer or Pragma) and a body within
// MaxBodyBytes. Anything else — GET requests (console, health, metrics,
// admin), other paths and methods, HTTP/1.0, chunked bodies, Expect:
// 100-continue, malformed input, a client that closes mid-request — is
// handed over: the connection, the bytes already read replayed first,
// goes to Fallback.Serve and stays with net/http from then on. net/http
// then parses the request itself, so its answers (400, 431, 501, 505) are
// exactly net/http's.
//
// The response is buffered and written, status line, headers and body, in
// one write when the handler returns; Content-Length and Date are added as
// net/http adds them, and Content-Type is sniffed when absent.
//
// Differences from net/http, each deliberate:
//   - A request's context is the connection's: it is cancelled when the
//     connection closes, not when the client goes away while the handler
//     runs (net/http watches for that with a background read, which is most
//     of its extra cost). A handler learns of a vanished client when it
//     writes, as the answer is dropped.
//   - Read deadlines are set only when a request does not arrive in one read
//     (its headers within ReadHeaderTimeout, the whole request within
//     ReadTimeout of its start, as net/http). A keep-alive connection's
//     idle deadline is moved lazily: when it fires early the connection
//     sets it again from the time its last answer was written, so the
//     connection still closes IdleTimeout after that answer, without a
//     deadline reset per request.
//   - A body streamed from the connection (one larger than the read buffer,
//     or slow) that the handler leaves unread closes the connection after
//     the answer; net/http would try to discard up to 256 KiB of it first.
//   - Handlers cannot flush early (no http.Flusher) and informational (1xx)
//     WriteHeader calls are ignored; the DynamoDB API uses neither.
package httpfast
