package dataio

import (
	"encoding/json"
	"os"
	"sync"
)

// errorLog is the local stand-in for ImportTable's CloudWatch log stream
// <ImportId>/error: a JSON line per item not imported, shaped as
// DynamoDB's log events' messages are (itemS3Pointer with the file's key
// and the item's index in it, importArn, errorMessages). The file is
// created at the first error, so a clean import leaves none.
type errorLog struct {
	path      string
	importArn string
	mu        sync.Mutex
	f         *os.File
	count     int64
	err       error
}

type pointer struct {
	Key       string `json:"key"`
	ItemIndex int64  `json:"itemIndex"`
}

type logEvent struct {
	ItemS3Pointer pointer  `json:"itemS3Pointer"`
	ImportArn     string   `json:"importArn"`
	ErrorMessages []string `json:"errorMessages"`
}

func (l *errorLog) add(p pointer, msg string) {
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

func (l *errorLog) errors() int64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.count
}

// close closes the file and reports any failure to write it: a log that
// lost lines must not pass for a complete one.
func (l *errorLog) close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.f != nil {
		if err := l.f.Close(); l.err == nil {
			l.err = err
		}
	}
	return l.err
}
