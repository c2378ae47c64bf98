package exports

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/sortkeydb/sortkey/internal/apierr"
	"github.com/sortkeydb/sortkey/internal/dataio"
	"github.com/sortkeydb/sortkey/internal/engine"
	"github.com/sortkeydb/sortkey/internal/protocol"
	"github.com/sortkeydb/sortkey/internal/s3dir"
	"github.com/sortkeydb/sortkey/internal/validate"
)

// Export statuses and the one export type sortkey writes.
const (
	statusInProgress = "IN_PROGRESS"
	statusCompleted  = "COMPLETED"
	statusFailed     = "FAILED"
	fullExport       = "FULL_EXPORT"
)

// ExportTableToPointInTime checks the request, fixes the table as it was
// at ExportTime and starts writing it in the background; the answer says
// IN_PROGRESS. A table without point-in-time recovery, a moment outside
// its window or an unmapped bucket are refused before anything is written.
func (m *Manager) ExportTableToPointInTime(_ context.Context, in *protocol.ExportTableToPointInTimeInput) (*protocol.ExportTableToPointInTimeOutput, error) {
	if err := checkExport(in); err != nil {
		return nil, err
	}
	if j, err := m.reused(in); j != nil || err != nil {
		return output(j), err
	}
	dir, err := m.prefixDir(in)
	if err != nil {
		return nil, err
	}
	pit, err := m.e.OpenPointInTime(*in.TableArn, engine.WireTime(in.ExportTime))
	if err != nil {
		return nil, err
	}
	j := m.register(in, pit)
	m.wg.Go(func() { m.run(j, pit, dir) })
	return output(j), nil
}

func output(j *job) *protocol.ExportTableToPointInTimeOutput {
	if j == nil {
		return nil
	}
	return &protocol.ExportTableToPointInTimeOutput{ExportDescription: j.describe()}
}

func checkExport(in *protocol.ExportTableToPointInTimeInput) error {
	if err := validate.ExportTableToPointInTime(in); err != nil {
		return err
	}
	if deref(in.ExportType) == "INCREMENTAL_EXPORT" || in.IncrementalExportSpecification != nil {
		return apierr.Validationf(msgIncremental)
	}
	return nil
}

// prefixDir is the folder of the request's bucket and prefix: the export
// goes to <it>/AWSDynamoDB/<ExportId>/.
func (m *Manager) prefixDir(in *protocol.ExportTableToPointInTimeInput) (string, error) {
	m.mu.Lock()
	buckets := m.buckets
	m.mu.Unlock()
	prefix := deref(in.S3Prefix)
	dir, err := buckets.Use("ExportTableToPointInTime", *in.S3Bucket, prefix)
	if err != nil {
		return "", apierr.Validationf("%s", err.Error())
	}
	return s3dir.Path(dir, prefix), nil
}

// reused is the export an earlier request with the same ClientToken
// started within the token's window, or ExportConflictException when that
// request asked for something else.
func (m *Manager) reused(in *protocol.ExportTableToPointInTimeInput) (*job, error) {
	if in.ClientToken == nil {
		return nil, nil
	}
	params := canonical(in)
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, j := range m.jobs {
		if deref(j.desc.ClientToken) != *in.ClientToken || m.e.Now().Sub(j.start) > tokenWindow {
			continue
		}
		if string(j.params) != string(params) {
			return nil, apierr.New(apierr.ExportConflict, msgTokenConflict)
		}
		return j, nil
	}
	return nil, nil
}

func canonical(in *protocol.ExportTableToPointInTimeInput) []byte {
	b, _ := json.Marshal(in) // plain strings, numbers and pointers cannot fail
	return b
}

// register records a new export, IN_PROGRESS, of the table pit holds.
func (m *Manager) register(in *protocol.ExportTableToPointInTimeInput, pit *engine.PointInTime) *job {
	now := m.e.Now()
	format := deref(in.ExportFormat)
	if format == "" {
		format = dataio.FormatJSON
	}
	j := &job{id: dataio.NewJobID(now), params: canonical(in), start: now, desc: protocol.ExportDescription{
		ClientToken: in.ClientToken, ExportFormat: format, ExportStatus: statusInProgress,
		ExportTime: epoch(pit.At), ExportType: fullExport, S3Bucket: *in.S3Bucket, S3BucketOwner: in.S3BucketOwner,
		S3Prefix: in.S3Prefix, S3SseAlgorithm: in.S3SseAlgorithm, S3SseKmsKeyId: in.S3SseKmsKeyId,
		StartTime: epoch(now), TableArn: pit.TableArn, TableId: pit.TableID,
	}}
	j.desc.ExportArn = pit.TableArn + "/export/" + j.id
	m.mu.Lock()
	defer m.mu.Unlock()
	m.jobs = append(m.jobs, j)
	m.byArn[j.desc.ExportArn] = j
	return j
}

// run writes the export and ends it.
func (m *Manager) run(j *job, pit *engine.PointInTime, dir string) {
	defer pit.Close()
	d := j.describe()
	l := dataio.Layout{Dir: dir, ExportID: j.id, Format: d.ExportFormat, TableArn: d.TableArn, TableID: d.TableId,
		Start: j.start, ExportTime: pit.At, End: m.e.Now, S3Bucket: d.S3Bucket, S3Prefix: deref(d.S3Prefix),
		S3SseAlgorithm: deref(d.S3SseAlgorithm), S3SseKmsKeyID: deref(d.S3SseKmsKeyId)}
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

// finish records the export's end: COMPLETED with its counts and
// manifest, or FAILED (WriteExport has removed the folder).
func (m *Manager) finish(j *job, r *dataio.ExportResult, err error) {
	j.update(func(d *protocol.ExportDescription) {
		d.EndTime = epoch(m.e.Now())
		switch {
		case errors.Is(err, context.Canceled) && m.ctx.Err() != nil:
			d.ExportStatus, d.FailureCode, d.FailureMessage = statusFailed, ptr(codeStopped), ptr(msgClosed)
		case err != nil:
			d.ExportStatus, d.FailureCode = statusFailed, ptr(codeInternal)
			d.FailureMessage = ptr(fmt.Sprintf(msgWriteFailed, err))
		default:
			d.ExportStatus, d.ItemCount = statusCompleted, ptr(r.Summary.ItemCount)
			d.BilledSizeBytes = ptr(r.Summary.BilledSizeBytes)
			d.ExportManifest = ptr(dataio.ManifestKey(strings.TrimPrefix(deref(d.S3Prefix), "/"), j.id))
		}
	})
}
