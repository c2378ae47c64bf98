// Package exports serves ExportTableToPointInTime, DescribeExport and
// ListExports.
//
// An export writes a table's items, as they were at the ExportTime asked
// for, into the local folder its S3 bucket is mapped to (internal/s3dir),
// in DynamoDB's export layout, with internal/dataio's writer — the one
// `sortkey export` uses. As in DynamoDB the table must have point-in-time
// recovery on, and the export runs in the background: IN_PROGRESS, then
// COMPLETED, or FAILED with the export's folder removed, so that no
// half-written export is left as if it were done. The items are read from
// a storage snapshot taken when the request is accepted, so the export
// holds exactly the table at ExportTime whatever is written meanwhile.
// An incremental export (ExportType INCREMENTAL_EXPORT) writes instead,
// from the point-in-time history, one line per item changed in
// [ExportFromTime, ExportToTime): its keys, the time of its last change
// and its images at the window's ends (engine.Changes).
// Exports are remembered in memory only; closing the Manager fails the
// exports still running.
package exports
