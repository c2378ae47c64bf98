package dataio

import (
	"bufio"
	"compress/gzip"
	"context"
	"crypto/md5"
	"encoding/json"
	"hash"
	"io"
	"path/filepath"
	"sync"
	"time"
)

// Layout is an export to write: where, in what format, and what its
// manifest says about the table and the moment. The `sortkey export`
// command fills it from DescribeTable; ExportTableToPointInTime from the
// engine's table.
type Layout struct {
	// Dir is the export prefix's folder: the export goes to
	// Dir/AWSDynamoDB/<ExportID>/.
	Dir string
	// ExportID names the export; "" makes a new one from Start.
	ExportID string
	// Format is DYNAMODB_JSON ("" too) or ION.
	Format            string
	TableArn, TableID string
	Start, ExportTime time.Time
	// End is the clock the end time is read from; nil is time.Now.
	End func() time.Time
	// The S3 members are recorded in the summary; "" is written as null.
	S3Bucket, S3Prefix, S3SseAlgorithm, S3SseKmsKeyID string
	// Incremental, for an incremental export, is its window and view
	// (ExportTime is then not written); its fills write with AddChange.
	Incremental *Incremental
	// Files is where Dir is; nil is the local file system.
	Files Files
}

// Fill writes one data file's items.
type Fill func(ctx context.Context, f *DataFile) error

// WriteExport writes DynamoDB's S3 export layout, one data file per fill,
// the fills running in parallel. On any error the export's folder is
// removed, so a folder with a manifest-summary.json is always a whole
// export.
func WriteExport(ctx context.Context, l Layout, fills []Fill) (*ExportResult, error) {
	if err := checkExportFormat(l.Format); err != nil {
		return nil, err
	}
	if l.ExportID == "" {
		l.ExportID = NewJobID(l.Start)
	}
	r := &ExportResult{ExportID: l.ExportID, Path: filepath.Join(l.Dir, exportRoot, l.ExportID)}
	if err := r.write(ctx, l, fills); err != nil {
		orLocal(l.Files).RemoveAll(r.Path)
		return nil, err
	}
	return r, nil
}

// ExportPath is the folder WriteExport writes the export id to under dir.
func ExportPath(dir, id string) string { return filepath.Join(dir, exportRoot, id) }

// ManifestKey is the key of an export's manifest-summary.json under its
// S3 prefix.
func ManifestKey(prefix, id string) string {
	key := exportRoot + "/" + id + "/" + summaryFile
	if prefix == "" {
		return key
	}
	if prefix[len(prefix)-1] != '/' {
		prefix += "/"
	}
	return prefix + key
}

func (r *ExportResult) write(ctx context.Context, l Layout, fills []Fill) error {
	fsys := orLocal(l.Files)
	if err := fsys.MkdirAll(filepath.Join(r.Path, dataDir), 0o755); err != nil {
		return err
	}
	if err := fsys.WriteFile(filepath.Join(r.Path, startedFile), nil, 0o644); err != nil {
		return err
	}
	files, err := fillFiles(ctx, l, r.Path, fills)
	if err != nil {
		return err
	}
	r.Files = files
	if err := writeWithChecksum(fsys, r.Path, filesFile, filesChecksum, fileLines(files)); err != nil {
		return err
	}
	r.Summary = r.summary(l)
	data, err := json.Marshal(r.Summary)
	if err != nil {
		return err
	}
	return writeWithChecksum(fsys, r.Path, summaryFile, summaryChecksum, data)
}

func (r *ExportResult) summary(l Layout) Summary {
	end := time.Now
	if l.End != nil {
		end = l.End
	}
	s := Summary{
		Version: manifestVersion, ExportArn: l.TableArn + "/export/" + r.ExportID, TableArn: l.TableArn, TableID: l.TableID,
		StartTime: formatTime(l.Start), ExportTime: formatTime(l.ExportTime), EndTime: formatTime(end()),
		ManifestFilesS3Key: exportRoot + "/" + r.ExportID + "/" + filesFile, OutputFormat: FormatJSON,
		S3Bucket: orNull(l.S3Bucket), S3Prefix: orNull(l.S3Prefix),
		S3SseAlgorithm: orNull(l.S3SseAlgorithm), S3SseKmsKeyID: orNull(l.S3SseKmsKeyID),
	}
	if l.Format == FormatION {
		s.OutputFormat = FormatION
	}
	if l.Incremental != nil {
		s.setIncremental(l.Incremental)
	}
	for _, f := range r.Files {
		s.ItemCount += f.ItemCount
		s.BilledSizeBytes += f.billed
	}
	return s
}

// setIncremental makes s an incremental export's summary: its window in
// place of exportTime, its view and type.
func (s *Summary) setIncremental(inc *Incremental) {
	s.Version, s.ExportTime, s.ExportType, s.OutputView = incrementalVersion, "", incrementalType, inc.View
	s.ExportFromTime, s.ExportToTime = formatTime(inc.From), formatTime(inc.To)
}

func orNull(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func fileLines(files []FileEntry) []byte {
	var out []byte
	for _, f := range files {
		line, _ := json.Marshal(f) // a struct of strings and an int cannot fail
		out = append(append(out, line...), '\n')
	}
	return out
}

// writeWithChecksum writes a manifest and its checksum file, the hex MD5
// of the manifest's bytes (the documentation does not say; this is S3's
// ETag form).
func writeWithChecksum(fsys Files, dir, name, checksumName string, data []byte) error {
	if err := fsys.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
		return err
	}
	sum := md5.Sum(data)
	_, hexed := md5Forms(sum[:])
	return fsys.WriteFile(filepath.Join(dir, checksumName), []byte(hexed), 0o644)
}

// fillFiles runs the fills, one per goroutine, each writing its own data
// file; the first error stops the others.
func fillFiles(ctx context.Context, l Layout, dir string, fills []Fill) ([]FileEntry, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	files := make([]FileEntry, len(fills))
	errs := make([]error, len(fills))
	var wg sync.WaitGroup
	for i, fill := range fills {
		wg.Go(func() {
			files[i], errs[i] = writeDataFile(ctx, l, dir, fill)
			if errs[i] != nil {
				cancel()
			}
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return files, nil
}

func writeDataFile(ctx context.Context, l Layout, dir string, fill Fill) (FileEntry, error) {
	suffix := dataFileSuffix
	if l.Format == FormatION {
		suffix = ionDataSuffix
	}
	name := newDataName(suffix)
	f, err := orLocal(l.Files).Create(filepath.Join(dir, dataDir, name))
	if err != nil {
		return FileEntry{}, err
	}
	defer f.Close()
	w := newDataFile(f, l.Format == FormatION)
	if err := fill(ctx, w); err != nil {
		return FileEntry{}, err
	}
	entry, err := w.close()
	if err == nil {
		err = f.Close()
	}
	entry.DataFileS3Key = exportRoot + "/" + l.ExportID + "/" + dataDir + "/" + name
	return entry, err
}

// DataFile is one data file being written: lines through a buffer into
// gzip, whose output is hashed on its way to the file.
type DataFile struct {
	ion    bool
	gz     *gzip.Writer
	buf    *bufio.Writer
	sum    hash.Hash
	line   []byte
	count  int64
	billed int64
}

func newDataFile(f io.Writer, ion bool) *DataFile {
	sum := md5.New()
	gz := gzip.NewWriter(io.MultiWriter(f, sum))
	return &DataFile{ion: ion, gz: gz, buf: bufio.NewWriterSize(gz, 64<<10), sum: sum}
}

// Add writes an item held as the SDK holds it.
func (w *DataFile) Add(item Item) error {
	if w.ion {
		w.line = AppendIonLine(w.line[:0], item)
	} else {
		w.line = AppendItemLine(w.line[:0], item)
	}
	return w.write(0)
}

// AddJSON writes an item given as its DynamoDB JSON map ({"a":{"S":"x"}},
// names sorted, as a response carries it) and its size in bytes, which
// the export's billed size adds up. A DYNAMODB_JSON export copies the
// bytes; an ION export decodes them first.
func (w *DataFile) AddJSON(item []byte, size int) error {
	w.line = append(append(append(w.line[:0], `{"Item":`...), item...), "}\n"...)
	if w.ion {
		it, err := DecodeLine(w.line)
		if err != nil {
			return err
		}
		w.line = AppendIonLine(w.line[:0], it)
	}
	return w.write(size)
}

func (w *DataFile) write(size int) error {
	if _, err := w.buf.Write(w.line); err != nil {
		return err
	}
	w.count++
	w.billed += int64(size)
	return nil
}

func (w *DataFile) close() (FileEntry, error) {
	if err := w.buf.Flush(); err != nil {
		return FileEntry{}, err
	}
	if err := w.gz.Close(); err != nil {
		return FileEntry{}, err
	}
	b64, hexed := md5Forms(w.sum.Sum(nil))
	return FileEntry{ItemCount: w.count, MD5Checksum: b64, ETag: hexed, billed: w.billed}, nil
}
