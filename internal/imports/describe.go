package imports

import (
	"context"
	"encoding/binary"
	"encoding/hex"
	"strconv"

	"github.com/sortkeydb/sortkey/internal/apierr"
	"github.com/sortkeydb/sortkey/internal/protocol"
)

// DescribeImport describes an import of this server's.
func (m *Manager) DescribeImport(_ context.Context, in *protocol.DescribeImportInput) (*protocol.DescribeImportOutput, error) {
	if in.ImportArn == nil {
		return nil, apierr.Validationf(msgRequired, "importArn")
	}
	m.mu.Lock()
	j, ok := m.byArn[*in.ImportArn]
	m.mu.Unlock()
	if !ok {
		return nil, apierr.New(apierr.ImportNotFound, msgImportNotFound, *in.ImportArn)
	}
	return &protocol.DescribeImportOutput{ImportTableDescription: j.Describe()}, nil
}

// defaultPageSize is ListImports' page without PageSize (the API's
// maximum, 25: the documentation gives no default).
const defaultPageSize = 25

// ListImports lists imports, oldest first, of one table or of all. The
// NextToken is the hex of the position to go on from, at least 112
// hexadecimal digits as the API's pattern asks.
func (m *Manager) ListImports(_ context.Context, in *protocol.ListImportsInput) (*protocol.ListImportsOutput, error) {
	size, from, err := listBounds(in)
	if err != nil {
		return nil, err
	}
	m.mu.Lock()
	jobs := m.jobs
	m.mu.Unlock()
	out := &protocol.ListImportsOutput{ImportSummaryList: []protocol.ImportSummary{}}
	for i := from; i < len(jobs); i++ {
		d := jobs[i].Describe()
		if in.TableArn != nil && d.TableArn != *in.TableArn {
			continue
		}
		if len(out.ImportSummaryList) == size {
			out.NextToken = ptr(encodeToken(i))
			break
		}
		out.ImportSummaryList = append(out.ImportSummaryList, summary(d))
	}
	return out, nil
}

func listBounds(in *protocol.ListImportsInput) (size, from int, err error) {
	size = defaultPageSize
	if p := in.PageSize; p != nil {
		if *p < 1 || *p > 25 {
			return 0, 0, apierr.Validationf(msgPageSize, *p)
		}
		size = int(*p)
	}
	if in.NextToken != nil {
		if from, err = decodeToken(*in.NextToken); err != nil {
			return 0, 0, apierr.Validationf(msgNextToken, *in.NextToken)
		}
	}
	return size, from, nil
}

func summary(d *protocol.ImportTableDescription) protocol.ImportSummary {
	return protocol.ImportSummary{CloudWatchLogGroupArn: d.CloudWatchLogGroupArn, EndTime: d.EndTime,
		ImportArn: d.ImportArn, ImportStatus: d.ImportStatus, InputFormat: d.InputFormat,
		S3BucketSource: d.S3BucketSource, StartTime: d.StartTime, TableArn: d.TableArn}
}

// tokenWidth pads a position to the API's minimum token length.
const tokenWidth = 56 // bytes: 112 hex digits

func encodeToken(i int) string {
	b := make([]byte, tokenWidth)
	binary.BigEndian.PutUint64(b[tokenWidth-8:], uint64(i))
	return hex.EncodeToString(b)
}

func decodeToken(s string) (int, error) {
	b, err := hex.DecodeString(s)
	if err != nil || len(b) != tokenWidth {
		return 0, strconv.ErrSyntax
	}
	i := binary.BigEndian.Uint64(b[tokenWidth-8:])
	if i > 1<<31 {
		return 0, strconv.ErrRange
	}
	return int(i), nil
}
