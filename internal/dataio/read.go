package dataio

import (
	"errors"
	"fmt"
	"io"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// ReadOptions say how an import reads its files: ImportTable's
// InputFormat, InputCompressionType and InputFormatOptions.Csv, and the
// types of the key attributes, which CSV columns take.
type ReadOptions struct {
	Format       string // DYNAMODB_JSON (default), ION or CSV
	Compression  string // NONE, GZIP or ZSTD
	CSVHeader    []string
	CSVDelimiter string
	KeyTypes     map[string]types.ScalarAttributeType
	// Progress hears of each record and of the bytes read.
	Progress Progress
}

// Check refuses an unknown or unsupported format or compression, and CSV
// options given for another format. It fills in the default format.
func (o *ReadOptions) Check() error {
	switch o.Format {
	case "":
		o.Format = FormatJSON
	case FormatJSON, FormatION, FormatCSV:
	default:
		return fmt.Errorf(msgFormatUnknown, o.Format, FormatJSON+", "+FormatION+" or "+FormatCSV)
	}
	switch o.Compression {
	case "", CompressionNone, CompressionGzip, CompressionZstd:
	default:
		return fmt.Errorf(msgCompressionUnknown, o.Compression)
	}
	if o.Format != FormatCSV && (o.CSVHeader != nil || o.CSVDelimiter != "") {
		return errors.New(msgCSVOnly)
	}
	_, err := csvDelimiter(o.CSVDelimiter)
	return err
}

// ReadFiles reads the files in turn and hands each item to add, whatever
// writes it (BatchWriteItem through the SDK, or the engine's own writer).
// A record that is not an item is counted and logged; an error from add,
// or one that makes a file unreadable, stops the import. ProcessedItemCount
// and ProcessedSizeBytes go to r.
func ReadFiles(files []SourceFile, o ReadOptions, add func(Pending) error, log *ErrorLog, r *ImportResult) error {
	for _, f := range files {
		if err := o.readFile(f, add, log, r); err != nil {
			return err
		}
	}
	return nil
}

func (o ReadOptions) readFile(f SourceFile, add func(Pending) error, log *ErrorLog, r *ImportResult) error {
	in, err := openData(f, o.Compression)
	if err != nil {
		return fmt.Errorf(msgReadFailed, f.Key, err)
	}
	defer in.Close()
	counted := &countingReader{r: in, p: o.Progress}
	defer func() { r.ProcessedSizeBytes += counted.n }()
	recs, err := o.records(counted, f.Key)
	if err != nil {
		return err
	}
	for index := int64(0); ; index++ {
		item, err := recs.next()
		ptr := Pointer{Key: f.Key, ItemIndex: index}
		var lerr *lineError
		switch {
		case err == io.EOF:
			return nil
		case errors.As(err, &lerr):
			o.counted(r)
			log.Add(ptr, lerr.Error())
		case err != nil:
			return fmt.Errorf(msgReadFailed, f.Key, err)
		default:
			o.counted(r)
			if err := add(Pending{Item: item, Ptr: ptr}); err != nil {
				return err
			}
		}
	}
}

// counted counts a record, in the result and to the progress display.
func (o ReadOptions) counted(r *ImportResult) {
	r.ProcessedItemCount++
	tell(o.Progress, 1, 0)
}

func (o ReadOptions) records(r io.Reader, key string) (records, error) {
	switch o.Format {
	case FormatION:
		return newIonRecords(r), nil
	case FormatJSON:
		return newJSONLines(r), nil
	}
	delim, _ := csvDelimiter(o.CSVDelimiter) // checked by Check
	return newCSVRecords(r, key, delim, o.CSVHeader, o.KeyTypes)
}
