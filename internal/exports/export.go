package exports

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/sortkeydb/sortkey/internal/apierr"
	"github.com/sortkeydb/sortkey/internal/dataio"
	"github.com/sortkeydb/sortkey/internal/engine"
	"github.com/sortkeydb/sortkey/internal/jobs"
	"github.com/sortkeydb/sortkey/internal/protocol"
	"github.com/sortkeydb/sortkey/internal/validate"
)

// Export statuses and the full export's type.
const (
	statusInProgress = "IN_PROGRESS"
	statusCompleted  = "COMPLETED"
	statusFailed     = "FAILED"
	fullExport       = "FULL_EXPORT"
)

// ExportTableToPointInTime checks the request, fixes the table as it was
// at ExportTime (or, for an incremental export, its changes in the
// window) and starts writing it in the background; the answer says
// IN_PROGRESS. A table without point-in-time recovery, a moment outside
// its window or an unmapped bucket are refused before anything is written.
func (m *Manager) ExportTableToPointInTime(_ context.Context, in *protocol.ExportTableToPointInTimeInput) (*protocol.ExportTableToPointInTimeOutput, error) {
	if err := validate.ExportTableToPointInTime(in); err != nil {
		return nil, err
	}
	w, err := incrementalWindow(in, m.e.Now())
	if err != nil {
		return nil, err
	}
	if j, err := m.reused(in); j != nil || err != nil {
		return output(j), err
	}
	root, err := m.bucketRoot(in)
	if err != nil {
		return nil, err
	}
	out, err := m.start(in, w, root)
	if err != nil {
		root.Close() // no export took it
	}
	return out, err
}

// start starts a full export, or an incremental one for a window w, which
// closes the bucket's root when it ends.
func (m *Manager) start(in *protocol.ExportTableToPointInTimeInput, w *window, root *os.Root) (*protocol.ExportTableToPointInTimeOutput, error) {
	if w != nil {
		return m.startIncremental(in, w, root)
	}
	return m.startFull(in, root)
}

// startFull fixes the table as it was at ExportTime and starts writing it
// in the background.
func (m *Manager) startFull(in *protocol.ExportTableToPointInTimeInput, root *os.Root) (*protocol.ExportTableToPointInTimeOutput, error) {
	pit, err := m.e.OpenPointInTime(*in.TableArn, engine.WireTime(in.ExportTime))
	if err != nil {
		return nil, err
	}
	j := m.register(in, protocol.ExportDescription{TableArn: pit.TableArn, TableId: pit.TableID,
		ExportTime: jobs.Epoch(pit.At), ExportType: fullExport})
	out := output(j) // before the job can move on: the answer says IN_PROGRESS
	m.wg.Go(func() { m.run(j, pit, root) })
	return out, nil
}

func output(j *job) *protocol.ExportTableToPointInTimeOutput {
	if j == nil {
		return nil
	}
	return &protocol.ExportTableToPointInTimeOutput{ExportDescription: j.Describe()}
}

// bucketRoot opens the folder of the request's bucket, once its prefix is
// checked: the export goes to <prefix>/AWSDynamoDB/<ExportId>/ in it.
func (m *Manager) bucketRoot(in *protocol.ExportTableToPointInTimeInput) (*os.Root, error) {
	m.mu.Lock()
	buckets := m.buckets
	m.mu.Unlock()
	root, err := buckets.Use("ExportTableToPointInTime", *in.S3Bucket, deref(in.S3Prefix))
	if err != nil {
		return nil, apierr.Validationf("%s", err.Error())
	}
	return root, nil
}

// reused is the export an earlier request with the same ClientToken
// started within the token's window, or ExportConflictException when that
// request asked for something else.
func (m *Manager) reused(in *protocol.ExportTableToPointInTimeInput) (*job, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	j, conflict := jobs.Reuse(m.jobs, in.ClientToken, in, m.e.Now())
	if conflict {
		return nil, apierr.New(apierr.ExportConflict, msgTokenConflict)
	}
	return j, nil
}

// register records a new export, IN_PROGRESS, of the table d names (d
// also says the export's type and moment or window).
func (m *Manager) register(in *protocol.ExportTableToPointInTimeInput, d protocol.ExportDescription) *job {
	now := m.e.Now()
	d.ExportArn, d.ClientToken, d.ExportStatus = d.TableArn+"/export/"+dataio.NewJobID(now), in.ClientToken, statusInProgress
	d.ExportFormat = deref(in.ExportFormat)
	if d.ExportFormat == "" {
		d.ExportFormat = dataio.FormatJSON
	}
	d.S3Bucket, d.S3BucketOwner, d.S3Prefix = *in.S3Bucket, in.S3BucketOwner, in.S3Prefix
	d.S3SseAlgorithm, d.S3SseKmsKeyId, d.StartTime = in.S3SseAlgorithm, in.S3SseKmsKeyId, jobs.Epoch(now)
	j := jobs.New(d, in.ClientToken, in, now)
	m.mu.Lock()
	defer m.mu.Unlock()
	m.jobs = append(m.jobs, j)
	m.byArn[j.Describe().ExportArn] = j
	return j
}

// run writes a full export and ends it.
func (m *Manager) run(j *job, pit *engine.PointInTime, root *os.Root) {
	defer pit.Close()
	defer root.Close()
	l := m.layout(j, root)
	l.ExportTime = pit.At
	fill := func(ctx context.Context, f *dataio.DataFile) error {
		return pit.Items(func(item []byte, size int) error {
			if err := ctx.Err(); err != nil {
				return err
			}
			return f.AddJSON(item, size)
		})
	}
	r, err := dataio.WriteExport(m.ctx, l, []dataio.Fill{fill})
	m.finish(j, r, err)
}

// layout is where and how the export j writes, as its description says:
// under its prefix in the bucket's root, so that nothing is written
// outside the bucket's folder.
func (m *Manager) layout(j *job, root *os.Root) dataio.Layout {
	d := j.Describe()
	return dataio.Layout{Files: root, Dir: filepath.FromSlash(deref(d.S3Prefix)), ExportID: exportID(d),
		Format: d.ExportFormat, TableArn: d.TableArn, TableID: d.TableId, Start: j.Start, End: m.e.Now, S3Bucket: d.S3Bucket, S3Prefix: deref(d.S3Prefix),
		S3SseAlgorithm: deref(d.S3SseAlgorithm), S3SseKmsKeyID: deref(d.S3SseKmsKeyId)}
}

// finish records the export's end: COMPLETED with its counts and
// manifest, or FAILED (WriteExport has removed the folder).
func (m *Manager) finish(j *job, r *dataio.ExportResult, err error) {
	j.Update(func(d *protocol.ExportDescription) {
		d.EndTime = jobs.Epoch(m.e.Now())
		switch {
		case errors.Is(err, context.Canceled) && m.ctx.Err() != nil:
			d.ExportStatus, d.FailureCode, d.FailureMessage = statusFailed, ptr(codeStopped), ptr(msgClosed)
		case err != nil:
			d.ExportStatus, d.FailureCode = statusFailed, ptr(codeInternal)
			d.FailureMessage = ptr(fmt.Sprintf(msgWriteFailed, d.S3Bucket, exportKey(d), err))
		default:
			d.ExportStatus, d.ItemCount = statusCompleted, ptr(r.Summary.ItemCount)
			d.BilledSizeBytes = ptr(r.Summary.BilledSizeBytes)
			d.ExportManifest = ptr(dataio.ManifestKey(deref(d.S3Prefix), exportID(d)))
		}
	})
}

// exportKey is the S3 key of the export's folder, which a failure names
// (the errors of the bucket's root name keys too, never a local path).
func exportKey(d *protocol.ExportDescription) string {
	return path.Dir(dataio.ManifestKey(deref(d.S3Prefix), exportID(d))) + "/"
}

// exportID is the ExportId, the last part of the ExportArn.
func exportID(d *protocol.ExportDescription) string {
	return d.ExportArn[strings.LastIndex(d.ExportArn, "/")+1:]
}
