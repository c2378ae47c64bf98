package dataio

import (
	"bufio"
	"compress/gzip"
	"context"
	"crypto/md5"
	"encoding/json"
	"fmt"
	"hash"
	"io"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
)

// ExportOptions says what to export and where.
type ExportOptions struct {
	Table string
	// Dir is the export prefix's folder: the export goes to
	// Dir/AWSDynamoDB/<ExportId>/.
	Dir string
	// Format is DYNAMODB_JSON (the default) or ION.
	Format string
	// Segments is the parallel Scan's TotalSegments, and so the number
	// of data files (one per segment, empty or not, as DynamoDB writes
	// one per partition). Default 4.
	Segments int
	// ConsistentRead makes the Scan strongly consistent.
	ConsistentRead bool
	// S3Bucket and S3Prefix, when set, are recorded in the summary: where
	// the folder will be copied, so the manifest reads true there.
	S3Bucket, S3Prefix string
}

// ExportResult is what an export wrote.
type ExportResult struct {
	ExportID string
	Path     string // the export's folder, Dir/AWSDynamoDB/<ExportId>
	Summary  Summary
	Files    []FileEntry
}

// Export scans the table with a parallel Scan and writes DynamoDB's S3
// export layout. On any error the export's folder is removed, so a folder
// with a manifest-summary.json is always a whole export.
func Export(ctx context.Context, c API, o ExportOptions) (*ExportResult, error) {
	if err := checkExportFormat(o.Format); err != nil {
		return nil, err
	}
	desc, err := c.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(o.Table)})
	if err != nil {
		return nil, err
	}
	start := time.Now()
	r := &ExportResult{ExportID: newExportID(start)}
	r.Path = filepath.Join(o.Dir, exportRoot, r.ExportID)
	if err := r.write(ctx, c, o, desc, start); err != nil {
		os.RemoveAll(r.Path)
		return nil, err
	}
	return r, nil
}

func checkExportFormat(format string) error {
	switch format {
	case "", FormatJSON, FormatION:
		return nil
	}
	return fmt.Errorf(msgFormatUnknown, format, FormatJSON+" or "+FormatION)
}

func (r *ExportResult) write(ctx context.Context, c API, o ExportOptions, desc *dynamodb.DescribeTableOutput, start time.Time) error {
	if err := os.MkdirAll(filepath.Join(r.Path, dataDir), 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(r.Path, startedFile), nil, 0o644); err != nil {
		return err
	}
	files, err := scanToFiles(ctx, c, o, r)
	if err != nil {
		return err
	}
	r.Files = files
	if err := writeWithChecksum(r.Path, filesFile, filesChecksum, fileLines(files)); err != nil {
		return err
	}
	r.Summary = r.summary(o, desc, start)
	data, err := json.Marshal(r.Summary)
	if err != nil {
		return err
	}
	return writeWithChecksum(r.Path, summaryFile, summaryChecksum, data)
}

func (r *ExportResult) summary(o ExportOptions, desc *dynamodb.DescribeTableOutput, start time.Time) Summary {
	t := desc.Table
	s := Summary{
		Version: manifestVersion, TableArn: aws.ToString(t.TableArn), TableID: aws.ToString(t.TableId),
		StartTime: formatTime(start), ExportTime: formatTime(start), EndTime: formatTime(time.Now()),
		ManifestFilesS3Key: exportRoot + "/" + r.ExportID + "/" + filesFile, OutputFormat: FormatJSON,
	}
	if o.Format == FormatION {
		s.OutputFormat = FormatION
	}
	s.ExportArn = s.TableArn + "/export/" + r.ExportID
	if o.S3Bucket != "" {
		s.S3Bucket = aws.String(o.S3Bucket)
	}
	if o.S3Prefix != "" {
		s.S3Prefix = aws.String(o.S3Prefix)
	}
	for _, f := range r.Files {
		s.ItemCount += f.ItemCount
	}
	return s
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
func writeWithChecksum(dir, name, checksumName string, data []byte) error {
	if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
		return err
	}
	sum := md5.Sum(data)
	_, hexed := md5Forms(sum[:])
	return os.WriteFile(filepath.Join(dir, checksumName), []byte(hexed), 0o644)
}

// scanToFiles runs the parallel Scan, one segment per goroutine, each
// writing its own data file.
func scanToFiles(ctx context.Context, c API, o ExportOptions, r *ExportResult) ([]FileEntry, error) {
	n := o.Segments
	if n <= 0 {
		n = defaultSegments
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	files := make([]FileEntry, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for seg := range n {
		wg.Go(func() {
			files[seg], errs[seg] = exportSegment(ctx, c, o, r.Path, seg, n)
			if errs[seg] != nil {
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

func exportSegment(ctx context.Context, c API, o ExportOptions, dir string, seg, total int) (FileEntry, error) {
	encode, suffix := AppendItemLine, dataFileSuffix
	if o.Format == FormatION {
		encode, suffix = AppendIonLine, ionDataSuffix
	}
	name := newDataName(suffix)
	f, err := os.Create(filepath.Join(dir, dataDir, name))
	if err != nil {
		return FileEntry{}, err
	}
	defer f.Close()
	w := newDataWriter(f, encode)
	in := &dynamodb.ScanInput{TableName: aws.String(o.Table), Segment: aws.Int32(int32(seg)),
		TotalSegments: aws.Int32(int32(total)), ConsistentRead: aws.Bool(o.ConsistentRead)}
	for p := dynamodb.NewScanPaginator(c, in); p.HasMorePages(); {
		page, err := p.NextPage(ctx)
		if err != nil {
			return FileEntry{}, err
		}
		if err := w.items(page.Items); err != nil {
			return FileEntry{}, err
		}
	}
	entry, err := w.close()
	if err == nil {
		err = f.Close()
	}
	_, id := filepath.Split(dir)
	entry.DataFileS3Key = exportRoot + "/" + id + "/" + dataDir + "/" + name
	return entry, err
}

// dataWriter is one data file: lines through a buffer into gzip, whose
// output is hashed on its way to the file.
type dataWriter struct {
	encode func([]byte, Item) []byte
	gz     *gzip.Writer
	buf    *bufio.Writer
	sum    hash.Hash
	line   []byte
	count  int64
}

func newDataWriter(f io.Writer, encode func([]byte, Item) []byte) *dataWriter {
	sum := md5.New()
	gz := gzip.NewWriter(io.MultiWriter(f, sum))
	return &dataWriter{encode: encode, gz: gz, buf: bufio.NewWriterSize(gz, 64<<10), sum: sum}
}

func (w *dataWriter) items(items []Item) error {
	for _, item := range items {
		w.line = w.encode(w.line[:0], item)
		if _, err := w.buf.Write(w.line); err != nil {
			return err
		}
		w.count++
	}
	return nil
}

func (w *dataWriter) close() (FileEntry, error) {
	if err := w.buf.Flush(); err != nil {
		return FileEntry{}, err
	}
	if err := w.gz.Close(); err != nil {
		return FileEntry{}, err
	}
	b64, hexed := md5Forms(w.sum.Sum(nil))
	return FileEntry{ItemCount: w.count, MD5Checksum: b64, ETag: hexed}, nil
}
