package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/sortkeydb/sortkey/examples/internal/runner"
)

// demo runs the access patterns one by one and prints each; after the
// first failure it does nothing more and keeps the error.
type demo struct {
	ctx context.Context
	rec *runner.Recorder
	log *wireLog
	s   *Store
	out io.Writer
	err error
}

// calls are the requests made since it was last called, with what the
// wire log adds to them.
func (d *demo) calls() []runner.Call {
	return detailed(d.rec.Take(), d.log.Take())
}

// read runs a read and prints its requests and the rows it returned.
func (d *demo) read(pattern string, rows func() ([][]string, error)) {
	if d.err != nil {
		return
	}
	d.calls()
	got, err := rows()
	calls := d.calls()
	if err != nil {
		d.err = fmt.Errorf("%s: %w", pattern, err)
		return
	}
	runner.Print(d.out, pattern, calls, rowHeader, got)
}

// write runs a write and prints its requests, then the entity as a read
// afterwards returns it (that read's requests are not printed).
func (d *demo) write(pattern string, write func() error, after func() ([][]string, error)) {
	if d.err != nil {
		return
	}
	d.calls()
	err := write()
	calls := d.calls()
	var rows [][]string
	if err == nil {
		rows, err = after()
	}
	if err != nil {
		d.err = fmt.Errorf("%s: %w", pattern, err)
		return
	}
	runner.Print(d.out, pattern, calls, []string{"afterwards", "id", "name", "details"}, rows)
}

// refused runs a write that must fail with want and prints its requests
// and, for a cancelled transaction, the reason for each action.
func (d *demo) refused(pattern string, want error, write func() error) {
	if d.err != nil {
		return
	}
	d.calls()
	err := write()
	calls := d.calls()
	if !errors.Is(err, want) {
		d.err = fmt.Errorf("%s: got %v, want %v", pattern, err, want)
		return
	}
	runner.Print(d.out, pattern+": refused, "+want.Error(), calls, []string{"action", "cancellation reason"}, reasons(err))
}

// refusedAlone is refused for a write refused before it was sent: it
// prints the entity as read instead.
func (d *demo) refusedAlone(pattern string, want error, write func() error, entity func() ([][]string, error)) {
	if d.err != nil {
		return
	}
	d.calls()
	err := write()
	calls := d.calls()
	if !errors.Is(err, want) {
		d.err = fmt.Errorf("%s: got %v, want %v", pattern, err, want)
		return
	}
	rows, err := entity()
	d.err = err
	runner.Print(d.out, pattern+": refused, "+want.Error(), calls, rowHeader, rows)
}

func reasons(err error) [][]string {
	var canceled *types.TransactionCanceledException
	if !errors.As(err, &canceled) {
		return nil
	}
	rows := make([][]string, len(canceled.CancellationReasons))
	for i, r := range canceled.CancellationReasons {
		rows[i] = []string{strconv.Itoa(i), aws.ToString(r.Code)}
	}
	return rows
}

// one wraps a single-entity read as rows.
func one[T any](row func(T) []string, get func() (T, error)) func() ([][]string, error) {
	return func() ([][]string, error) {
		v, err := get()
		return [][]string{row(v)}, err
	}
}

func (d *demo) run() {
	d.designPatterns()
	d.categories()
	d.ingredients()
	d.recipes()
	d.menus()
	d.menuItems()
	d.deletes()
}
