package dataio

import (
	"context"
	"fmt"
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
	// Progress hears of each item and the bytes of its line.
	Progress Progress
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
	l := Layout{Dir: o.Dir, Format: o.Format, TableArn: aws.ToString(desc.Table.TableArn),
		TableID: aws.ToString(desc.Table.TableId), Start: start, ExportTime: start,
		S3Bucket: o.S3Bucket, S3Prefix: o.S3Prefix}
	return WriteExport(ctx, l, scanFills(c, o))
}

func checkExportFormat(format string) error {
	switch format {
	case "", FormatJSON, FormatION:
		return nil
	}
	return fmt.Errorf(msgFormatUnknown, format, FormatJSON+" or "+FormatION)
}

// scanFills are the parallel Scan's segments, one data file each.
func scanFills(c API, o ExportOptions) []Fill {
	n := o.Segments
	if n <= 0 {
		n = defaultSegments
	}
	fills := make([]Fill, n)
	for seg := range n {
		fills[seg] = func(ctx context.Context, f *DataFile) error { return scanSegment(ctx, c, o, f, seg, n) }
	}
	return fills
}

func scanSegment(ctx context.Context, c API, o ExportOptions, f *DataFile, seg, total int) error {
	in := &dynamodb.ScanInput{TableName: aws.String(o.Table), Segment: aws.Int32(int32(seg)),
		TotalSegments: aws.Int32(int32(total)), ConsistentRead: aws.Bool(o.ConsistentRead)}
	for p := dynamodb.NewScanPaginator(c, in); p.HasMorePages(); {
		page, err := p.NextPage(ctx)
		if err != nil {
			return err
		}
		for _, item := range page.Items {
			if err := f.Add(item); err != nil {
				return err
			}
			tell(o.Progress, 1, int64(len(f.line)))
		}
	}
	return nil
}
