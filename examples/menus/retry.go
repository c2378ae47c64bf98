package main

import (
	"context"
	"errors"
	"math/rand/v2"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// DynamoDB cancels a transaction that meets another one in flight on one
// of its items, with reason TransactionConflict for that item; the SDK
// does not retry it. The other transaction decides the item, so trying
// again after it is the answer: a name race's loser then sees the name
// taken (ConditionalCheckFailed), and a write that only had to wait
// succeeds. Tries are bounded, so a hot item cannot stall a caller; ten
// leave room for a store whose commits take milliseconds (sortkey on
// PostgreSQL, DynamoDB itself), where eight racers keep meeting each
// other longer than on an in-memory store.
const (
	conflictTries = 10
	firstBackoff  = 10 * time.Millisecond
	maxBackoff    = 320 * time.Millisecond
)

// retryConflicts runs try until it succeeds, fails for another reason,
// or has been tried conflictTries times; it returns the last error.
func (s *Store) retryConflicts(ctx context.Context, try func() error) error {
	err := try()
	for n := 1; n < conflictTries && onlyConflicts(err); n++ {
		if perr := s.pause(ctx, backoff(n)); perr != nil {
			return perr
		}
		err = try()
	}
	return err
}

// onlyConflicts reports whether err is a cancellation whose every reason
// is TransactionConflict or None: nothing the request itself got wrong.
func onlyConflicts(err error) bool {
	var canceled *types.TransactionCanceledException
	if !errors.As(err, &canceled) {
		return false
	}
	conflict := false
	for _, r := range canceled.CancellationReasons {
		switch aws.ToString(r.Code) {
		case "TransactionConflict":
			conflict = true
		case "None":
		default:
			return false
		}
	}
	return conflict
}

// backoff is the wait before the nth retry: doubling from firstBackoff up
// to maxBackoff, half of it drawn at random so that racers spread out.
func backoff(n int) time.Duration {
	d := min(firstBackoff<<(n-1), maxBackoff)
	return d/2 + rand.N(d/2+1)
}

// sleep waits d, or until ctx ends.
func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
