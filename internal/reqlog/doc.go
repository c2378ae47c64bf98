// Package reqlog writes structured request logs with log/slog: a line per
// API call at debug level, and a warning for each call slower than a
// threshold. It watches the server's answers (server.Watcher) instead of
// being woven through the operations, and records only what the server
// already knows of a call once answered: its request id (the one the
// client received in x-amzn-RequestId), operation, status, error code and
// duration. It never logs headers, credentials or request and response
// bodies, so no secret key, signature or item value reaches a log.
package reqlog
