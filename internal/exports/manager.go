package exports

import (
	"context"
	"sync"

	"github.com/sortkeydb/sortkey/internal/engine"
	"github.com/sortkeydb/sortkey/internal/jobs"
	"github.com/sortkeydb/sortkey/internal/protocol"
	"github.com/sortkeydb/sortkey/internal/s3dir"
)

// Manager runs and remembers a database's exports.
type Manager struct {
	e      *engine.Engine
	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup

	mu      sync.Mutex
	buckets s3dir.Map
	jobs    []*job
	byArn   map[string]*job
}

// New returns the Manager of e's exports; until Configure maps buckets,
// ExportTableToPointInTime is refused with a message saying how to map
// them.
func New(e *engine.Engine) *Manager {
	ctx, cancel := context.WithCancel(context.Background())
	return &Manager{e: e, ctx: ctx, cancel: cancel, byArn: map[string]*job{}}
}

// Configure maps S3 buckets to folders.
func (m *Manager) Configure(buckets s3dir.Map) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.buckets = buckets
}

// Close stops the exports still running, which end FAILED with their
// folders removed, and waits for them.
func (m *Manager) Close() {
	m.cancel()
	m.wg.Wait()
}

// job is one export.
type job = jobs.Job[protocol.ExportDescription]

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

func ptr[T any](v T) *T { return &v }
