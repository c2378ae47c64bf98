package engine

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"time"

	"github.com/sortkeydb/sortkey/internal/apierr"
	"github.com/sortkeydb/sortkey/internal/protocol"
	"github.com/sortkeydb/sortkey/internal/storage"
)

// A TransactWriteItems with a ClientRequestToken records the token, with a
// fingerprint of the request and the time, in the transaction's own batch:
// the record exists exactly when the transaction committed, crash or not.
// A repeat within ten minutes is answered without being applied again;
// the same token with a different request is refused. A cancelled
// transaction records nothing, so retrying it runs it again.

// tokenWindow is how long DynamoDB honours a client request token.
const tokenWindow = 10 * time.Minute

type tokenRecord struct {
	Hash []byte `json:"h"`
	At   int64  `json:"t"` // Unix milliseconds
}

// idempotent runs a transaction that carries a client token. One request
// with a token runs at a time, so two cannot both find it unused: a
// repeat that arrives while the first is in flight is refused with
// TransactionInProgressException, as DynamoDB refuses it.
func (e *Engine) idempotent(ctx context.Context, in *protocol.TransactWriteItemsInput, acts []txAction) (*protocol.TransactWriteItemsOutput, error) {
	done, err := e.holds.takeToken(*in.ClientRequestToken)
	if err != nil {
		return nil, err
	}
	defer done()
	hash := fingerprint(in)
	var out *protocol.TransactWriteItemsOutput
	err = e.retryStale(func() (err error) {
		out, err = e.tokenOnce(ctx, in, acts, hash)
		return err
	})
	return out, err
}

// tokenOnce is one try of idempotent: the token read, and the
// transaction or its replay. The token's key is guarded as read, so two
// nodes cannot both find it unused.
func (e *Engine) tokenOnce(ctx context.Context, in *protocol.TransactWriteItemsInput, acts []txAction, hash []byte) (*protocol.TransactWriteItemsOutput, error) {
	rec, ok, raw, err := e.readToken(*in.ClientRequestToken)
	if err != nil {
		return nil, err
	}
	if ok && e.now().Sub(time.UnixMilli(rec.At)) < tokenWindow {
		if string(rec.Hash) != string(hash) {
			return nil, apierr.New(apierr.IdempotentParameterMismatch, "The ClientRequestToken was already used by a different request within the last 10 minutes")
		}
		return e.replay(in, acts)
	}
	v, _ := json.Marshal(tokenRecord{Hash: hash, At: e.now().UnixMilli()})
	key := storage.TokenKey(*in.ClientRequestToken)
	return e.runTransaction(ctx, in, acts, func(b *storage.Batch) {
		b.Guard(key, ok, raw)
		b.Set(key, v)
	})
}

// fingerprint identifies a request's content, token aside. Numbers were
// normalized by validation, so equal requests hash alike.
func fingerprint(in *protocol.TransactWriteItemsInput) []byte {
	c := *in
	c.ClientRequestToken = nil
	b, _ := json.Marshal(&c)
	sum := sha256.Sum256(b)
	return sum[:]
}

func (e *Engine) readToken(token string) (tokenRecord, bool, []byte, error) {
	var rec tokenRecord
	v, ok, err := e.db.Get(storage.TokenKey(token))
	if err != nil || !ok {
		return rec, false, nil, err
	}
	return rec, true, v, json.Unmarshal(v, &rec)
}

// replay answers a repeated request: nothing is written, and the capacity
// reported is that of reading the items, as DynamoDB documents.
func (e *Engine) replay(in *protocol.TransactWriteItemsInput, acts []txAction) (*protocol.TransactWriteItemsOutput, error) {
	units := txnUsages()
	for _, a := range acts {
		it, err := e.readItem(a.key)
		if err != nil {
			return nil, err
		}
		units.of(a.table, true).table += readUnits(it, true)
	}
	return &protocol.TransactWriteItemsOutput{ConsumedCapacity: units.report(in.ReturnConsumedCapacity)}, nil
}
