package dataio

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/csv"
	"errors"
	"fmt"
	"io"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// records yields a data file's items one at a time. A *lineError is one
// record that cannot be an item: counted and skipped. Any other error is
// the file's: the import cannot go on.
type records interface {
	next() (Item, error)
}

type lineError struct{ err error }

func (e *lineError) Error() string { return e.err.Error() }

// jsonLines reads DYNAMODB_JSON: one {"Item":...} per line; blank lines
// are skipped. Lines are read with a bounded buffer, so one huge line
// costs at most maxLineBytes.
type jsonLines struct {
	r    *bufio.Reader
	line []byte
}

func newJSONLines(r io.Reader) *jsonLines {
	return &jsonLines{r: bufio.NewReaderSize(r, 64<<10)}
}

func (j *jsonLines) next() (Item, error) {
	for {
		line, err := j.readLine()
		if err != nil {
			return nil, err
		}
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		item, derr := DecodeLine(line)
		if derr != nil {
			return nil, &lineError{derr}
		}
		return item, nil
	}
}

// readLine returns the next line without its newline, io.EOF at the end,
// or a *lineError for a line longer than maxLineBytes (skipped whole).
func (j *jsonLines) readLine() ([]byte, error) {
	j.line = j.line[:0]
	tooLong := false
	for {
		chunk, err := j.r.ReadSlice('\n')
		if !tooLong {
			j.line = append(j.line, chunk...)
			tooLong = len(j.line) > maxLineBytes
		}
		switch {
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case err == io.EOF && len(j.line) == 0 && !tooLong:
			return nil, io.EOF
		case err != nil && err != io.EOF:
			return nil, err
		case tooLong:
			j.line = j.line[:0]
			return nil, &lineError{fmt.Errorf(msgLineTooLong, maxLineBytes)}
		}
		return bytes.TrimSuffix(j.line, []byte("\n")), nil
	}
}

// csvRecords reads CSV as ImportTable does: the first line is the header
// unless one is given; every column is a string but the keys of the
// table and its indexes, which take their schema type. An empty cell is
// no attribute (the documentation does not say; CSV cannot tell an empty
// string from a missing value, and a key cannot be empty).
type csvRecords struct {
	r      *csv.Reader
	header []string
	keys   map[string]types.ScalarAttributeType
}

func newCSVRecords(r io.Reader, file string, delim rune, header []string, keys map[string]types.ScalarAttributeType) (*csvRecords, error) {
	cr := csv.NewReader(r)
	cr.Comma = delim
	cr.FieldsPerRecord = -1
	cr.ReuseRecord = true
	c := &csvRecords{r: cr, header: header, keys: keys}
	if header == nil {
		first, err := cr.Read()
		if err == io.EOF {
			return c, nil
		}
		if err != nil {
			return nil, fmt.Errorf(msgCSVHeader, file, err)
		}
		c.header = append([]string(nil), first...)
	}
	return c, nil
}

func (c *csvRecords) next() (Item, error) {
	if c.header == nil {
		return nil, io.EOF
	}
	rec, err := c.r.Read()
	var perr *csv.ParseError
	if errors.As(err, &perr) {
		return nil, &lineError{err}
	}
	if err != nil {
		return nil, err
	}
	if len(rec) != len(c.header) {
		return nil, &lineError{fmt.Errorf(msgCSVColumns, len(rec), len(c.header))}
	}
	return c.item(rec)
}

func (c *csvRecords) item(rec []string) (Item, error) {
	item := make(Item, len(rec))
	for i, cell := range rec {
		if cell == "" {
			continue
		}
		v, err := c.value(c.header[i], cell)
		if err != nil {
			return nil, &lineError{fmt.Errorf(msgCSVKeyValue, c.header[i], err)}
		}
		item[c.header[i]] = v
	}
	return item, nil
}

func (c *csvRecords) value(name, cell string) (types.AttributeValue, error) {
	switch c.keys[name] {
	case types.ScalarAttributeTypeN:
		return &types.AttributeValueMemberN{Value: cell}, nil
	case types.ScalarAttributeTypeB:
		b, err := base64.StdEncoding.DecodeString(cell)
		return &types.AttributeValueMemberB{Value: b}, err
	}
	return &types.AttributeValueMemberS{Value: cell}, nil
}
