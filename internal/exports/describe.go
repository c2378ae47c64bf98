package exports

import (
	"context"
	"encoding/hex"
	"slices"
	"strings"

	"github.com/sortkeydb/sortkey/internal/apierr"
	"github.com/sortkeydb/sortkey/internal/protocol"
	"github.com/sortkeydb/sortkey/internal/validate"
)

// DescribeExport describes an export of this server's.
func (m *Manager) DescribeExport(_ context.Context, in *protocol.DescribeExportInput) (*protocol.DescribeExportOutput, error) {
	if err := validate.DescribeExport(in); err != nil {
		return nil, err
	}
	m.mu.Lock()
	j, ok := m.byArn[*in.ExportArn]
	m.mu.Unlock()
	if !ok {
		return nil, apierr.New(apierr.ExportNotFound, msgExportNotFound, *in.ExportArn)
	}
	return &protocol.DescribeExportOutput{ExportDescription: j.Describe()}, nil
}

// defaultPageSize is ListExports' page without MaxResults (the API's
// maximum, 25: the documentation gives no default).
const defaultPageSize = 25

// ListExports lists exports of one table or of all in reverse order of
// ExportArn, as DynamoDB does. The NextToken is the hex of the last ARN
// listed, so a page goes on where the last one stopped whatever exports
// start meanwhile.
func (m *Manager) ListExports(_ context.Context, in *protocol.ListExportsInput) (*protocol.ListExportsOutput, error) {
	if err := validate.ListExports(in); err != nil {
		return nil, err
	}
	after, err := decodeToken(in.NextToken)
	if err != nil {
		return nil, err
	}
	size := defaultPageSize
	if in.MaxResults != nil {
		size = int(*in.MaxResults)
	}
	out := &protocol.ListExportsOutput{ExportSummaries: []protocol.ExportSummary{}}
	for _, d := range m.listed(in.TableArn, after) {
		if len(out.ExportSummaries) == size {
			out.NextToken = ptr(hex.EncodeToString([]byte(out.ExportSummaries[size-1].ExportArn)))
			break
		}
		out.ExportSummaries = append(out.ExportSummaries, protocol.ExportSummary{
			ExportArn: d.ExportArn, ExportStatus: d.ExportStatus, ExportType: d.ExportType})
	}
	return out, nil
}

// listed are the descriptions of table's exports (all exports for nil)
// whose ARN sorts before after ("": all), in reverse ARN order.
func (m *Manager) listed(table *string, after string) []*protocol.ExportDescription {
	m.mu.Lock()
	jobs := m.jobs
	m.mu.Unlock()
	var out []*protocol.ExportDescription
	for _, j := range jobs {
		d := j.Describe()
		if (table == nil || d.TableArn == *table) && (after == "" || d.ExportArn < after) {
			out = append(out, d)
		}
	}
	slices.SortFunc(out, func(a, b *protocol.ExportDescription) int { return strings.Compare(b.ExportArn, a.ExportArn) })
	return out
}

func decodeToken(tok *string) (string, error) {
	if tok == nil {
		return "", nil
	}
	b, err := hex.DecodeString(*tok)
	if err != nil || len(b) == 0 {
		return "", apierr.Validationf(msgNextToken, *tok)
	}
	return string(b), nil
}
