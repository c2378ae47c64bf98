// Package backup holds what on-demand backups, point-in-time recovery and
// exports share, apart from the storage they read: DynamoDB's backup and
// export ids, the history records point-in-time recovery keeps, how a
// table's items at a past moment are worked out from them, the restorable
// window, and ListBackups' filters and pages.
//
// The engine owns the data (Pebble keys, tables, commits); it calls this
// package to encode and decode records and to decide, never to read or
// write storage. See docs/DATA.md for how backups and the history are kept.
package backup
