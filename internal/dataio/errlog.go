package dataio

import (
	"encoding/json"
	"os"
	"sync"
)

// ErrorLog is the local stand-in for ImportTable's CloudWatch log stream
// <ImportId>/error: a JSON line per item not imported, shaped as
// DynamoDB's log events' messages are (itemS3Pointer with the file's key
// and the item's index in it, importArn, errorMessages). The file is
// created at the first error, so a clean import leaves none.
type ErrorLog struct {
	path      string
	importArn string
	mu        sync.Mutex
	f         *os.File
	count     int64
	err       error
}

// Pointer is where an item came from: the file's key and the item's
// index in it, counting from 0.
type Pointer struct {
	Key       string `json:"key"`
	ItemIndex int64  `json:"itemIndex"`
}

// NewErrorLog is a log written to path, created at its first line.
func NewErrorLog(path, importArn string) *ErrorLog {
	return &ErrorLog{path: path, importArn: importArn}
}

type logEvent struct {
	ItemS3Pointer Pointer  `json:"itemS3Pointer"`
	ImportArn     string   `json:"importArn"`
	ErrorMessages []string `json:"errorMessages"`
}

// Add counts an item not imported and logs it.
func (l *ErrorLog) Add(p Pointer, msg string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.count++
	if l.err != nil {
		return
	}
	if l.f == nil {
		l.f, l.err = os.Create(l.path)
		if l.err != nil {
			return
		}
	}
	line, _ := json.Marshal(logEvent{ItemS3Pointer: p, ImportArn: l.importArn, ErrorMessages: []string{msg}})
	_, l.err = l.f.Write(append(line, '\n'))
}

// Errors is the number of items not imported.
func (l *ErrorLog) Errors() int64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.count
}

// Close closes the file and reports any failure to write it: a log that
// lost lines must not pass for a complete one.
func (l *ErrorLog) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.f != nil {
		if err := l.f.Close(); l.err == nil {
			l.err = err
		}
	}
	return l.err
}
