package dataio

import (
	"context"
	"errors"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go"
)

// Pending is an item on its way to the table, with where it came from
// for the error log.
type Pending struct {
	Item Item
	Ptr  Pointer
}

// batchWriter writes items with BatchWriteItem from a few goroutines.
// A batch holds each key once (BatchWriteItem refuses duplicates; in the
// source they are not errors, the last write wins). A batch DynamoDB
// refuses as invalid is written an item at a time, so that one bad item
// is counted and logged and the other 24 are imported.
type batchWriter struct {
	c       API
	table   string
	keys    []string
	log     *ErrorLog
	ctx     context.Context
	fail    context.CancelCauseFunc
	queue   chan []Pending
	wg      sync.WaitGroup
	batch   []Pending
	index   map[string]int
	written atomic.Int64
}

func newBatchWriter(ctx context.Context, c API, table string, keys []string, log *ErrorLog, writers int) *batchWriter {
	ctx, fail := context.WithCancelCause(ctx)
	w := &batchWriter{c: c, table: table, keys: keys, log: log, ctx: ctx, fail: fail,
		queue: make(chan []Pending, writers*defaultBatchSlop), index: map[string]int{}}
	for range writers {
		w.wg.Go(w.run)
	}
	return w
}

// add queues an item; it returns the writers' fatal error, if any.
func (w *batchWriter) add(p Pending) error {
	k := w.keyOf(p.Item)
	if i, ok := w.index[k]; ok && k != "" {
		// The earlier item is overwritten, as it would be in the table.
		w.batch[i] = p
		w.written.Add(1)
		return nil
	}
	w.index[k] = len(w.batch)
	w.batch = append(w.batch, p)
	if len(w.batch) == batchSize {
		return w.send()
	}
	return nil
}

func (w *batchWriter) keyOf(item Item) string {
	var b []byte
	for _, k := range w.keys {
		v, ok := item[k]
		if !ok {
			return ""
		}
		b = append(appendValue(b, v), 0)
	}
	return string(b)
}

func (w *batchWriter) send() error {
	batch := w.batch
	w.batch, w.index = nil, map[string]int{}
	select {
	case w.queue <- batch:
		return nil
	case <-w.ctx.Done():
		return context.Cause(w.ctx)
	}
}

// finish sends the last batch and waits for the writers.
func (w *batchWriter) finish() error {
	var err error
	if len(w.batch) > 0 {
		err = w.send()
	}
	close(w.queue)
	w.wg.Wait()
	if cause := context.Cause(w.ctx); cause != nil {
		return cause
	}
	w.fail(nil)
	return err
}

func (w *batchWriter) run() {
	for batch := range w.queue {
		if w.ctx.Err() != nil {
			continue // draining after a failure
		}
		if err := w.write(batch); err != nil {
			w.fail(err)
		}
	}
}

func (w *batchWriter) write(batch []Pending) error {
	reqs := make([]types.WriteRequest, len(batch))
	for i, p := range batch {
		reqs[i] = types.WriteRequest{PutRequest: &types.PutRequest{Item: p.Item}}
	}
	err := w.resend(reqs)
	if isValidation(err) {
		return w.writeEach(batch)
	}
	if err == nil {
		w.written.Add(int64(len(batch)))
	}
	return err
}

// resend writes requests until none is left unprocessed, backing off
// between rounds as DynamoDB asks of a client.
func (w *batchWriter) resend(reqs []types.WriteRequest) error {
	delay := 20 * time.Millisecond
	for len(reqs) > 0 {
		out, err := w.c.BatchWriteItem(w.ctx, &dynamodb.BatchWriteItemInput{
			RequestItems: map[string][]types.WriteRequest{w.table: reqs}})
		if err != nil {
			return err
		}
		reqs = out.UnprocessedItems[w.table]
		if len(reqs) > 0 {
			if err := sleep(w.ctx, delay); err != nil {
				return err
			}
			delay = min(2*delay, 2*time.Second)
		}
	}
	return nil
}

func (w *batchWriter) writeEach(batch []Pending) error {
	for _, p := range batch {
		_, err := w.c.PutItem(w.ctx, &dynamodb.PutItemInput{TableName: aws.String(w.table), Item: p.Item})
		switch {
		case isValidation(err):
			w.log.Add(p.Ptr, apiMessage(err))
		case err != nil:
			return err
		default:
			w.written.Add(1)
		}
	}
	return nil
}

func isValidation(err error) bool {
	var api smithy.APIError
	return errors.As(err, &api) && api.ErrorCode() == "ValidationException"
}

// apiMessage is the server's message, as DynamoDB logs it.
func apiMessage(err error) string {
	var api smithy.APIError
	if errors.As(err, &api) {
		return strings.TrimSpace(api.ErrorMessage())
	}
	return err.Error()
}

func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return context.Cause(ctx)
	}
}
