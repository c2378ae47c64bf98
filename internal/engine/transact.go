package engine

import (
	"context"
	"errors"
	"strings"

	"github.com/sortkeydb/sortkey/internal/apierr"
	"github.com/sortkeydb/sortkey/internal/attr"
	"github.com/sortkeydb/sortkey/internal/protocol"
	"github.com/sortkeydb/sortkey/internal/storage"
	"github.com/sortkeydb/sortkey/internal/validate"
)

// TransactWriteItems applies up to 100 Put, Update, Delete and
// ConditionCheck actions across tables, all or none. It holds its items
// against other transactions (conflicts.go), then locks every item's
// stripe (ascending, as every multi-item write does), evaluates every
// condition against the items as they are, and commits all the writes in
// one batch; a single-item write holds one of those stripes, so
// transactions are serializable against each other and against it.
func (e *Engine) TransactWriteItems(ctx context.Context, in *protocol.TransactWriteItemsInput) (*protocol.TransactWriteItemsOutput, error) {
	if err := validate.TransactWriteItems(in); err != nil {
		return nil, err
	}
	acts, err := e.planTransaction(in.TransactItems)
	if err != nil {
		return nil, err
	}
	if in.ClientRequestToken != nil {
		return e.idempotent(ctx, in, acts)
	}
	var out *protocol.TransactWriteItemsOutput
	err = e.retryStale(func() (err error) {
		out, err = e.runTransaction(ctx, in, acts, nil)
		return err
	})
	return out, err
}

// txFactor is what a transaction pays for each item, in units of the
// same write or read outside one: the Developer Guide's two underlying
// operations, prepare and commit. Index entries are written once, after
// the commit, so they are not doubled (see chargeWrite).
const txFactor = 2

// maxTransactBytes is DynamoDB's limit on the aggregate size of a
// transaction's items.
const maxTransactBytes = 4 << 20

// The transactions' own refusals.
const (
	msgTxTooLarge = "Transaction request size cannot exceed 4 MB" // facts 34.1 pins "size cannot exceed"
	msgTxSameItem = "Transaction request cannot include multiple operations on one item"
)

// txAction is one checked action of a transaction.
type txAction struct {
	kind  string // ConditionCheck, Put, Delete or Update
	t     *table
	table string // the table as the request named it (name or ARN)
	key   itemKey
	ref   attr.Item // the Put's item, else the Key
	w     writeExprs
	opts  *protocol.WriteOptions
}

// planTransaction checks every action before any item is read, in
// DynamoDB's order: first what the request alone decides (expressions,
// item sizes, the aggregate size), then every action's table, then each
// action's key or item against its table, where the first that does not
// fit cancels the transaction (see cancelAt), and one action per item.
func (e *Engine) planTransaction(items []protocol.TransactWriteItem) ([]txAction, error) {
	acts := make([]txAction, len(items))
	size := 0
	for i := range items {
		if err := acts[i].parse(&items[i]); err != nil {
			return nil, err
		}
		if size += acts[i].ref.Size(); size > maxTransactBytes {
			return nil, apierr.Validationf(msgTxTooLarge)
		}
	}
	for i := range acts {
		if err := e.resolveTable(&acts[i]); err != nil {
			return nil, err
		}
	}
	seen := map[string]bool{}
	for i := range acts {
		if err := acts[i].resolveKey(); err != nil {
			return nil, cancelAt(len(acts), i, err)
		}
		if seen[string(acts[i].key.storage)] {
			return nil, apierr.Validationf(msgTxSameItem)
		}
		seen[string(acts[i].key.storage)] = true
	}
	return acts, nil
}

// parse fills in the action's kind and expressions, and checks a Put's
// item size: nothing here needs the table.
func (act *txAction) parse(item *protocol.TransactWriteItem) (err error) {
	kind, a, _ := validate.TransactKind(item)
	*act = txAction{kind: kind, opts: a.WriteOptions(), ref: a.Key, table: *a.TableName}
	if act.w, err = parseWrite(act.opts, a.UpdateExpression, nil); err != nil {
		return err
	}
	if kind == "Put" {
		act.ref = a.Item
		return validate.ItemSize(a.Item)
	}
	return nil
}

// resolveTable looks up the action's table.
func (e *Engine) resolveTable(act *txAction) (err error) {
	if act.t, err = e.itemTable(act.table); err != nil {
		return err
	}
	return refuseStrongTransaction(act.t)
}

// resolveKey checks the action's item or key against its table.
func (act *txAction) resolveKey() (err error) {
	if act.kind == "Put" {
		act.key, err = act.t.checkPut(act.ref)
		return err
	}
	if act.key, err = act.t.keyFromKey(act.ref); err != nil {
		return err
	}
	return act.t.refuseKeyUpdate(act.w.update)
}

// runTransaction holds the items, locks, evaluates and commits; extra
// adds more to the commit's batch (the client token's record).
func (e *Engine) runTransaction(ctx context.Context, in *protocol.TransactWriteItemsInput, acts []txAction, extra func(*storage.Batch)) (*protocol.TransactWriteItemsOutput, error) {
	keys := make([][]byte, len(acts))
	hashes := make([]uint64, len(acts))
	for i, a := range acts {
		keys[i], hashes[i] = a.key.storage, a.key.hash
	}
	release, err := e.holds.take(keys)
	if err != nil {
		return nil, err
	}
	defer release()
	pauseHere(ctx)
	unlock := e.locks.lockAll(hashes)
	defer unlock()
	ws, units, err := e.evaluate(acts)
	if err != nil {
		return nil, err
	}
	if err := e.commitBatch(ws, extra); err != nil {
		return nil, err
	}
	return &protocol.TransactWriteItemsOutput{
		ConsumedCapacity:      units.report(in.ReturnConsumedCapacity),
		ItemCollectionMetrics: e.transactCollections(acts, in.ReturnItemCollectionMetrics),
	}, nil
}

// evaluate reads every item and computes its next version. If any action
// fails, nothing is written and the transaction is cancelled with one
// reason per action, in request order.
func (e *Engine) evaluate(acts []txAction) ([]write, *usages, error) {
	reasons := make([]protocol.CancellationReason, len(acts))
	failed := false
	var ws []write
	units := txnUsages()
	spent := e.txSpending(len(acts))
	for i := range acts {
		a := &acts[i]
		d, err := e.admit(a.t, true, nil, a.key.storage)
		if reason, ok := throttleReason(err); ok {
			reasons[i], failed = reason, true
			continue
		} else if err != nil {
			return nil, nil, err
		}
		old, mark, err := e.readForWrite(a.key)
		if err != nil {
			return nil, nil, err
		}
		next, reason, err := a.next(old)
		if err != nil {
			return nil, nil, err
		}
		reasons[i], failed = reason, failed || reason.Code != "None"
		a.t.chargeWrite(units.of(a.table, false), old, next, txFactor)
		spent.add(d, a.t, old, next)
		if a.kind == "ConditionCheck" || (old == nil && next == nil) {
			// Nothing to write, but the commit still depends on what
			// was read: a guard-only write (see addWrite).
			ws = append(ws, write{t: a.t, key: a.key, read: mark, checkOnly: true})
			continue
		}
		ws = append(ws, write{t: a.t, key: a.key, old: old, new: next, read: mark})
	}
	if failed {
		return nil, nil, canceled(reasons)
	}
	spent.charge(e)
	return ws, units, nil
}

// next is the action's new version of the item, or why it cannot apply.
func (a *txAction) next(old attr.Item) (attr.Item, protocol.CancellationReason, error) {
	if err := a.w.check(old, a.opts); err != nil {
		return reasonFor(err)
	}
	switch a.kind {
	case "Put":
		return a.ref, protocol.CancellationReason{Code: "None"}, nil
	case "Delete":
		return nil, protocol.CancellationReason{Code: "None"}, nil
	case "Update":
		next, err := a.t.updated(old, a.ref, a.w.update)
		if err != nil {
			return reasonFor(err)
		}
		return next, protocol.CancellationReason{Code: "None"}, nil
	}
	return old, protocol.CancellationReason{Code: "None"}, nil
}

// reasonFor turns a failed condition or an invalid update into its
// cancellation reason; any other error stops the transaction as it is.
func reasonFor(err error) (attr.Item, protocol.CancellationReason, error) {
	var ae *apierr.Error
	if !errors.As(err, &ae) {
		return nil, protocol.CancellationReason{}, err
	}
	switch ae.Code {
	case apierr.ConditionalCheckFailed:
		it, _ := ae.Item.(attr.Item)
		return nil, protocol.CancellationReason{Code: "ConditionalCheckFailed", Message: ae.Message, Item: it}, nil
	case apierr.Validation:
		return nil, protocol.CancellationReason{Code: "ValidationError", Message: ae.Message}, nil
	}
	return nil, protocol.CancellationReason{}, err
}

// cancelAt is the cancellation of a transaction whose action i failed
// a per-action check: a ValidationError reason for it and None, without
// a message, for every other action (facts 10, 34.2, 34.3; rule 15).
// An error that is no validation error stays the request's own.
func cancelAt(n, i int, err error) error {
	_, reason, err := reasonFor(err)
	if err != nil {
		return err
	}
	reasons := make([]protocol.CancellationReason, n)
	for j := range reasons {
		reasons[j].Code = "None"
	}
	reasons[i] = reason
	return canceled(reasons)
}

func canceled(reasons []protocol.CancellationReason) error {
	codes := make([]string, len(reasons))
	for i, r := range reasons {
		codes[i] = r.Code
	}
	e := apierr.New(apierr.TransactionCanceled, "Transaction cancelled, please refer cancellation reasons for specific reasons [%s]", strings.Join(codes, ", "))
	e.CancellationReasons = reasons
	return e
}

// transactCollections lists each item collection the transaction wrote
// to, once, per table.
func (e *Engine) transactCollections(acts []txAction, mode *string) map[string][]protocol.ItemCollectionMetrics {
	plan := make([]batchWrite, 0, len(acts))
	for _, a := range acts {
		if a.kind != "ConditionCheck" {
			plan = append(plan, batchWrite{t: a.t, ref: a.ref})
		}
	}
	return e.batchCollections(plan, mode)
}
