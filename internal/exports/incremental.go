package exports

import (
	"context"
	"os"
	"time"

	"github.com/sortkeydb/sortkey/internal/apierr"
	"github.com/sortkeydb/sortkey/internal/dataio"
	"github.com/sortkeydb/sortkey/internal/engine"
	"github.com/sortkeydb/sortkey/internal/jobs"
	"github.com/sortkeydb/sortkey/internal/protocol"
)

// The incremental export's type, views and window bounds (the API
// Reference's and the Developer Guide's).
const (
	incrementalExport = "INCREMENTAL_EXPORT"
	viewNewAndOld     = "NEW_AND_OLD_IMAGES"
	viewNew           = "NEW_IMAGE"
	minWindow         = 15 * time.Minute
	maxWindow         = 24 * time.Hour
)

// window is an incremental export's window [from, to) and view.
type window struct {
	from, to time.Time
	view     string
}

// incrementalWindow checks a request's incremental members and resolves
// its window (ExportToTime defaults to now, the view to
// NEW_AND_OLD_IMAGES); nil for a full export.
func incrementalWindow(in *protocol.ExportTableToPointInTimeInput, now time.Time) (*window, error) {
	spec := in.IncrementalExportSpecification
	if deref(in.ExportType) != incrementalExport {
		if spec != nil {
			return nil, apierr.Validationf(msgSpecNotIncr)
		}
		return nil, nil
	}
	if in.ExportTime != nil {
		return nil, apierr.Validationf(msgTimeNotFull)
	}
	if spec == nil || spec.ExportFromTime == nil {
		return nil, apierr.Validationf(msgFromTimeMissing)
	}
	w := &window{from: *engine.WireTime(spec.ExportFromTime), to: now, view: viewNewAndOld}
	if spec.ExportToTime != nil {
		w.to = *engine.WireTime(spec.ExportToTime)
	}
	if spec.ExportViewType != nil {
		w.view = *spec.ExportViewType
	}
	if d := w.to.Sub(w.from); d < minWindow || d > maxWindow {
		return nil, apierr.Validationf(msgWindowLength)
	}
	return w, nil
}

// startIncremental fixes the table's changes in the window and starts
// writing them in the background.
func (m *Manager) startIncremental(in *protocol.ExportTableToPointInTimeInput, w *window, root *os.Root) (*protocol.ExportTableToPointInTimeOutput, error) {
	ch, err := m.e.OpenChanges(*in.TableArn, w.from, w.to)
	if err != nil {
		return nil, err
	}
	j := m.register(in, protocol.ExportDescription{TableArn: ch.TableArn, TableId: ch.TableID, ExportType: incrementalExport,
		IncrementalExportSpecification: &protocol.IncrementalExportSpecification{
			ExportFromTime: jobs.Epoch(w.from), ExportToTime: jobs.Epoch(w.to), ExportViewType: &w.view}})
	out := output(j) // before the job can move on: the answer says IN_PROGRESS
	m.wg.Go(func() { m.runIncremental(j, ch, w, root) })
	return out, nil
}

// runIncremental writes the changed items, one line each, and ends the
// export.
func (m *Manager) runIncremental(j *job, ch *engine.Changes, w *window, root *os.Root) {
	defer ch.Close()
	defer root.Close()
	l := m.layout(j, root)
	l.Incremental = &dataio.Incremental{From: w.from, To: w.to, View: w.view}
	fill := func(ctx context.Context, f *dataio.DataFile) error {
		return ch.Each(func(c engine.Change) error {
			if err := ctx.Err(); err != nil {
				return err
			}
			if w.view == viewNew {
				c.Old = nil
			}
			return f.AddChange(dataio.Change{Keys: c.Keys, Old: c.Old, New: c.New, WriteMicros: c.WriteMicros}, c.Size)
		})
	}
	r, err := dataio.WriteExport(m.ctx, l, []dataio.Fill{fill})
	m.finish(j, r, err)
}
