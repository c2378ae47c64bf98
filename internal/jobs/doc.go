// Package jobs holds what the API's background jobs — ImportTable's and
// ExportTableToPointInTime's — share: a description read and changed
// under a lock while the job runs, and ClientToken idempotency.
package jobs
