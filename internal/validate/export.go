package validate

import "github.com/sortkeydb/sortkey/internal/protocol"

// The export enum sets, in the API Reference's order.
var (
	exportFormats = []string{"DYNAMODB_JSON", "ION"}
	exportTypes   = []string{"FULL_EXPORT", "INCREMENTAL_EXPORT"}
	exportViews   = []string{"NEW_IMAGE", "NEW_AND_OLD_IMAGES"}
)

// ExportTableToPointInTime checks the request's model constraints.
func ExportTableToPointInTime(in *protocol.ExportTableToPointInTimeInput) error {
	if err := Refused(in); err != nil {
		return err
	}
	var v violations
	if v.present(in.TableArn == nil, "tableArn") {
		v.length(*in.TableArn, "tableArn", 1, 1024)
	}
	if v.present(in.S3Bucket == nil, "s3Bucket") {
		v.length(*in.S3Bucket, "s3Bucket", 0, 255)
	}
	v.enum(in.ExportFormat, "exportFormat", exportFormats)
	v.enum(in.ExportType, "exportType", exportTypes)
	v.enum(in.S3SseAlgorithm, "s3SseAlgorithm", sseTypes)
	if s := in.IncrementalExportSpecification; s != nil {
		v.enum(s.ExportViewType, "incrementalExportSpecification.exportViewType", exportViews)
	}
	return v.err()
}

// ListExports checks the request's model constraints.
func ListExports(in *protocol.ListExportsInput) error {
	var v violations
	v.atLeast(in.MaxResults, "maxResults", 1)
	v.atMost(in.MaxResults, "maxResults", 25)
	if in.TableArn != nil {
		v.length(*in.TableArn, "tableArn", 1, 1024)
	}
	return v.err()
}

// DescribeExport checks the request's model constraints.
func DescribeExport(in *protocol.DescribeExportInput) error {
	var v violations
	if v.present(in.ExportArn == nil, "exportArn") {
		v.length(*in.ExportArn, "exportArn", 37, 1024)
	}
	return v.err()
}
