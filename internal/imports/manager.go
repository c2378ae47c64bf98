package imports

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/sortkeydb/sortkey/internal/attr"
	"github.com/sortkeydb/sortkey/internal/engine"
	"github.com/sortkeydb/sortkey/internal/jobs"
	"github.com/sortkeydb/sortkey/internal/protocol"
	"github.com/sortkeydb/sortkey/internal/s3dir"
)

// Manager runs and remembers a database's imports.
type Manager struct {
	e      store
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
func New(e *engine.Engine) *Manager { return newManager(e) }

// store is the part of the engine an import uses. It is an interface only
// so that a test can make FinishImport fail, which the engine's cannot
// (it ends the hold on a table that cannot be deleted meanwhile), and
// see that the import then fails rather than reports COMPLETED.
type store interface {
	CreateImportTable(*protocol.CreateTableInput) (*protocol.TableDescription, error)
	ImportItems(table string, items []attr.Item) ([]error, error)
	FinishImport(table string, complete bool) error
	Now() time.Time
	Region() string
	Account() string
}

func newManager(e store) *Manager {
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

// job is one import.
type job = jobs.Job[protocol.ImportTableDescription]
