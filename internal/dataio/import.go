package dataio

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
)

// ImportOptions says what to import and into which new table.
type ImportOptions struct {
	Table string
	Dir   string
	// Format is DYNAMODB_JSON (the default), ION or CSV.
	Format string
	// Compression is NONE, GZIP or ZSTD; empty means GZIP for an export's
	// folder (exports are gzipped) and NONE for a folder of files.
	Compression string
	// Schema is the new table's keys and global secondary indexes, as
	// ImportTable's TableCreationParameters carry them.
	Schema Schema
	// CSVHeader replaces each CSV file's header line, which is then data.
	CSVHeader []string
	// CSVDelimiter is one of , \t : ; | and space; default comma.
	CSVDelimiter string
	// ErrorLog is where items not imported are logged; default
	// import-<ImportId>-errors.jsonl in the working folder.
	ErrorLog string
	// Writers is the number of concurrent BatchWriteItem callers.
	Writers int
	// Progress hears of the items and bytes read; an export's manifest
	// gives it the total.
	Progress Progress
}

// ImportResult has ImportTableDescription's counts.
type ImportResult struct {
	ImportArn          string
	TableArn           string
	ProcessedItemCount int64
	ProcessedSizeBytes int64
	ImportedItemCount  int64
	ErrorCount         int64
	ErrorLog           string // written only when ErrorCount > 0
	Files              int
}

// Failed is ImportTable's FAILED with FailureCode ItemValidationError:
// the table exists and holds the items that were valid.
func (r *ImportResult) Failed() bool { return r.ErrorCount > 0 }

// FailureMessage is DynamoDB's message for such an import.
func (r *ImportResult) FailureMessage() string { return msgItemValidationError }

// Import creates the table and writes the source's items into it. It
// returns an error, and leaves no table, when the source cannot be read
// whole; items that cannot be imported are counted in the result.
func Import(ctx context.Context, c API, o ImportOptions) (*ImportResult, error) {
	if err := o.check(); err != nil {
		return nil, err
	}
	src, err := findSource(o.Dir)
	if err != nil {
		return nil, err
	}
	if err := src.checkFormat(o.Format); err != nil {
		return nil, err
	}
	if o.Compression == "" {
		o.Compression = src.defaultCompression()
	}
	if src.summary != nil && o.Progress != nil {
		o.Progress.SetTotal(src.summary.ItemCount)
	}
	tableArn, err := createTable(ctx, c, o)
	if err != nil {
		return nil, err
	}
	r, err := o.load(ctx, c, src, tableArn)
	if err != nil {
		return nil, dropTable(c, o.Table, err)
	}
	return r, nil
}

func (o *ImportOptions) check() error {
	ro := o.readOptions()
	if err := ro.Check(); err != nil {
		return err
	}
	o.Format = ro.Format
	return o.Schema.check()
}

func (o ImportOptions) readOptions() ReadOptions {
	return ReadOptions{Format: o.Format, Compression: o.Compression, CSVHeader: o.CSVHeader,
		CSVDelimiter: o.CSVDelimiter, KeyTypes: o.Schema.keyTypes(), Progress: o.Progress}
}

func csvDelimiter(d string) (rune, error) {
	switch d {
	case "":
		return ',', nil
	case ",", "\t", ":", ";", "|", " ":
		return rune(d[0]), nil
	case `\t`, "TAB", "tab":
		return '\t', nil
	}
	return 0, fmt.Errorf(msgCSVDelimiter, d)
}

func (s *source) checkFormat(format string) error {
	if s.summary != nil && s.summary.OutputFormat != format {
		return fmt.Errorf(msgManifestFormat, s.summary.OutputFormat, format)
	}
	return nil
}

func (s *source) defaultCompression() string {
	if s.summary != nil {
		return CompressionGzip
	}
	return CompressionNone
}

// createTable creates the table on demand, as ImportTable does with its
// TableCreationParameters, and waits until it is ACTIVE.
func createTable(ctx context.Context, c API, o ImportOptions) (string, error) {
	out, err := c.CreateTable(ctx, o.Schema.createInput(o.Table))
	if err != nil {
		return "", err
	}
	waiter := dynamodb.NewTableExistsWaiter(c)
	if err := waiter.Wait(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(o.Table)}, 10*time.Minute); err != nil {
		return "", dropTable(c, o.Table, err)
	}
	return aws.ToString(out.TableDescription.TableArn), nil
}

// dropTable deletes the table an import created when the import cannot
// finish. It runs on a context of its own: an interrupt that stopped the
// import must not stop the clean-up.
func dropTable(c API, table string, cause error) error {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if _, err := c.DeleteTable(ctx, &dynamodb.DeleteTableInput{TableName: aws.String(table)}); err != nil {
		return fmt.Errorf(msgTableDeleteFailed, cause, table, err)
	}
	return fmt.Errorf(msgTableDeleted, cause, table)
}

func (o ImportOptions) load(ctx context.Context, c API, src *source, tableArn string) (*ImportResult, error) {
	id := NewJobID(time.Now())
	r := &ImportResult{ImportArn: tableArn + "/import/" + id, TableArn: tableArn, Files: len(src.files), ErrorLog: o.ErrorLog}
	if r.ErrorLog == "" {
		r.ErrorLog = filepath.Join(".", "import-"+id+"-errors.jsonl")
	}
	log := NewErrorLog(r.ErrorLog, r.ImportArn)
	writers := o.Writers
	if writers <= 0 {
		writers = defaultWriters
	}
	w := newBatchWriter(ctx, c, o.Table, o.Schema.keyNames(), log, writers)
	err := ReadFiles(src.files, o.readOptions(), w.add, log, r)
	if ferr := w.finish(); err == nil {
		err = ferr
	}
	if lerr := log.Close(); err == nil {
		err = lerr
	}
	r.ErrorCount = log.Errors()
	r.ImportedItemCount = w.written.Load()
	return r, err
}

// countingReader counts the bytes read, for ProcessedSizeBytes and for
// p, told a buffer at a time rather than an item at a time.
type countingReader struct {
	r io.Reader
	n int64
	p Progress
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	tell(c.p, 0, int64(n))
	return n, err
}
