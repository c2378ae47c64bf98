package imports

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/sortkeydb/sortkey/internal/engine"
	"github.com/sortkeydb/sortkey/internal/protocol"
	"github.com/sortkeydb/sortkey/internal/s3dir"
)

// tokenWindow is how long a ClientToken makes ImportTable idempotent.
const tokenWindow = 8 * time.Hour

// Manager runs and remembers a database's imports.
type Manager struct {
	e      *engine.Engine
	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup

	mu      sync.Mutex
	buckets s3dir.Map
	logDir  string
	jobs    []*job // in start order
	byArn   map[string]*job
}

// New returns the Manager of e's imports; until Configure maps buckets,
// ImportTable is refused with a message saying how to map them.
func New(e *engine.Engine) *Manager {
	ctx, cancel := context.WithCancel(context.Background())
	return &Manager{e: e, ctx: ctx, cancel: cancel, byArn: map[string]*job{},
		logDir: filepath.Join(os.TempDir(), "sortkey-imports")}
}

// Configure maps S3 buckets to folders and names the folder error logs go
// to ("" keeps the default, sortkey-imports in the temporary folder).
func (m *Manager) Configure(buckets s3dir.Map, logDir string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.buckets = buckets
	if logDir != "" {
		m.logDir = logDir
	}
}

// Close stops the imports still running, which end FAILED with their
// tables deleted, and waits for them.
func (m *Manager) Close() {
	m.cancel()
	m.wg.Wait()
}

// job is one import: its description, kept current as it runs.
type job struct {
	mu     sync.Mutex
	desc   protocol.ImportTableDescription
	params []byte // the request's canonical form, for ClientToken reuse
	start  time.Time
}

func (j *job) describe() *protocol.ImportTableDescription {
	j.mu.Lock()
	defer j.mu.Unlock()
	d := j.desc
	return &d
}

func (j *job) update(f func(d *protocol.ImportTableDescription)) {
	j.mu.Lock()
	defer j.mu.Unlock()
	f(&j.desc)
}

func epoch(t time.Time) *float64 {
	f := float64(t.UnixMilli()) / 1000
	return &f
}
