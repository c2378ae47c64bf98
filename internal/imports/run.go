package imports

import (
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/sortkeydb/sortkey/internal/apierr"
	"github.com/sortkeydb/sortkey/internal/attr"
	"github.com/sortkeydb/sortkey/internal/dataio"
	"github.com/sortkeydb/sortkey/internal/jobs"
	"github.com/sortkeydb/sortkey/internal/protocol"
)

// batchItems is how many items the import hands the engine at a time.
const batchItems = 100

// run reads the import's source into its table and ends the import.
func (m *Manager) run(j *job, in *protocol.ImportTableInput, root *os.Root) {
	defer root.Close()
	d := j.Describe()
	table := *in.TableCreationParameters.TableName
	path := m.logPath(d.ImportArn)
	_ = os.MkdirAll(filepath.Dir(path), 0o755) // a failure shows when the log is written
	log := dataio.NewErrorLog(path, d.ImportArn)
	r := &dataio.ImportResult{}
	w := &writer{m: m, j: j, table: table, log: log, r: r}
	err := m.read(in, root, w, log, r)
	if err == nil {
		err = w.flush()
	}
	if lerr := log.Close(); err == nil && lerr != nil {
		err = &failure{codeInternal, lerr}
	}
	m.finish(j, table, w, err)
}

// failure is why an import failed: its FailureCode and cause.
type failure struct {
	code string
	err  error
}

func (f *failure) Error() string { return f.err.Error() }

func (m *Manager) read(in *protocol.ImportTableInput, root *os.Root, w *writer, log *dataio.ErrorLog, r *dataio.ImportResult) error {
	files, err := dataio.PrefixFiles(root, deref(in.S3BucketSource.S3KeyPrefix))
	if err != nil {
		return &failure{codeSource, fmt.Errorf(msgSourceFailed, err)}
	}
	ro := readOptions(in)
	if err := ro.Check(); err != nil {
		return &failure{codeSource, fmt.Errorf(msgSourceFailed, err)}
	}
	if err := dataio.ReadFiles(files, ro, w.add, log, r); err != nil {
		var f *failure
		if errors.As(err, &f) {
			return f
		}
		return &failure{codeSource, fmt.Errorf(msgSourceFailed, err)}
	}
	return nil
}

func readOptions(in *protocol.ImportTableInput) dataio.ReadOptions {
	ro := dataio.ReadOptions{Format: *in.InputFormat, Compression: compression(in), KeyTypes: keyTypes(in.TableCreationParameters)}
	if o := in.InputFormatOptions; o != nil && o.Csv != nil {
		ro.CSVHeader, ro.CSVDelimiter = o.Csv.HeaderList, deref(o.Csv.Delimiter)
	}
	return ro
}

// keyTypes are the types of the key attributes of the table and its
// indexes, which CSV columns take.
func keyTypes(p *protocol.TableCreationParameters) map[string]types.ScalarAttributeType {
	m := map[string]types.ScalarAttributeType{}
	for _, d := range p.AttributeDefinitions {
		m[deref(d.AttributeName)] = types.ScalarAttributeType(deref(d.AttributeType))
	}
	return m
}

// logPath is the local file standing in for the import's CloudWatch log
// stream: <log folder>/<table>/import-<ImportId>-errors.jsonl.
func (m *Manager) logPath(importArn string) string {
	m.mu.Lock()
	defer m.mu.Unlock()
	id := importArn[strings.LastIndex(importArn, "/")+1:]
	return filepath.Join(m.logDir, "import-"+id+"-errors.jsonl")
}

// finish ends the import: FAILED with its table deleted on a failure,
// FAILED with ItemValidationError (table kept) when items were refused,
// COMPLETED otherwise.
func (m *Manager) finish(j *job, table string, w *writer, err error) {
	var f *failure
	switch {
	case errors.As(err, &f):
	case err != nil:
		f = &failure{codeInternal, err}
	}
	if f != nil {
		if derr := m.e.FinishImport(table, false); derr != nil {
			f.err = errors.Join(f.err, derr)
		}
	} else if ferr := m.e.FinishImport(table, true); ferr != nil {
		f = &failure{codeInternal, ferr} // the table's CREATING status was not lifted
	}
	j.Update(func(d *protocol.ImportTableDescription) {
		w.count(d)
		d.EndTime = jobs.Epoch(m.e.Now())
		d.ImportStatus = statusCompleted
		switch {
		case f != nil:
			d.ImportStatus, d.FailureCode, d.FailureMessage = statusFailed, ptr(f.code), ptr(f.Error())
		case d.ErrorCount > 0:
			d.ImportStatus, d.FailureCode = statusFailed, ptr(codeItemValidation)
			d.FailureMessage = ptr(w.r.FailureMessage())
		}
	})
	if d := j.Describe(); d.ErrorCount > 0 {
		slog.Info("import logged items it did not import", "import", d.ImportArn, "log", m.logPath(d.ImportArn))
	}
}

// writer hands the items read to the engine in batches.
type writer struct {
	m       *Manager
	j       *job
	table   string
	log     *dataio.ErrorLog
	r       *dataio.ImportResult
	batch   []dataio.Pending
	written int64
	buf     []byte
}

func (w *writer) add(p dataio.Pending) error {
	if err := w.m.ctx.Err(); err != nil {
		return &failure{codeStopped, errors.New(msgClosed)}
	}
	w.batch = append(w.batch, p)
	if len(w.batch) < batchItems {
		return nil
	}
	return w.flush()
}

// flush converts the batch to the engine's items (through DynamoDB JSON,
// decoded as a request's PutRequest is) and writes it; an item either
// step refuses is logged with the message a PutItem would get.
func (w *writer) flush() error {
	items := make([]attr.Item, 0, len(w.batch))
	from := make([]dataio.Pointer, 0, len(w.batch))
	for _, p := range w.batch {
		w.buf = dataio.AppendItemJSON(w.buf[:0], p.Item)
		var put protocol.PutRequest
		if err := protocol.Decode(w.buf, &put); err != nil {
			w.log.Add(p.Ptr, message(err))
			continue
		}
		items, from = append(items, put.Item), append(from, p.Ptr)
	}
	w.batch = w.batch[:0]
	refused, err := w.m.e.ImportItems(w.table, items)
	if err != nil {
		return &failure{codeInternal, fmt.Errorf(msgWriteFailed, err)}
	}
	for i, rerr := range refused {
		if rerr != nil {
			w.log.Add(from[i], message(rerr))
			continue
		}
		w.written++
	}
	w.j.Update(w.count)
	return nil
}

// count copies the counts so far into the description.
func (w *writer) count(d *protocol.ImportTableDescription) {
	d.ProcessedItemCount, d.ImportedItemCount, d.ErrorCount = w.r.ProcessedItemCount, w.written, w.log.Errors()
	d.ProcessedSizeBytes = ptr(w.r.ProcessedSizeBytes)
}

func message(err error) string {
	var ae *apierr.Error
	if errors.As(err, &ae) {
		return ae.Message
	}
	return err.Error()
}
