package sortkey

import (
	"github.com/sortkeydb/sortkey/internal/engine"
	"github.com/sortkeydb/sortkey/internal/reqlog"
	"github.com/sortkeydb/sortkey/internal/s3dir"
	"github.com/sortkeydb/sortkey/internal/server"
)

// mountOperations adds what an operator runs a server with
// (docs/OPERATIONS.md): the storage health check and request logs, each
// only when asked for. The request logger watches calls only when it
// would write something, so the default level adds nothing to a call.
func mountOperations(h *server.Handler, eng *engine.Engine, opts *Options) {
	if opts.Health {
		h.SetHealth(eng.Probe)
	}
	if opts.RequestLog != nil && reqlog.Wanted(opts.RequestLog, opts.SlowRequest) {
		h.Watch(reqlog.New(opts.RequestLog, opts.SlowRequest))
	}
}

// mountBuckets maps the S3 buckets ImportTable reads and
// ExportTableToPointInTime writes to their folders.
func mountBuckets(h *server.Handler, opts *Options) error {
	m := s3dir.Map{Dirs: opts.S3Dirs, Root: opts.S3Root}
	for bucket := range opts.S3Dirs {
		if err := s3dir.CheckBucket(bucket); err != nil {
			return err
		}
	}
	h.Imports().Configure(m, opts.ImportLogDir)
	h.Exports().Configure(m)
	return nil
}
