package agent

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/sortkeydb/sortkey/internal/inproc"
)

const (
	msgTablesExist = "the model's tables %s already exist, and nothing was changed: " +
		"pass replace to delete and recreate them, or delete them first"
	msgCreate       = "creating table %s: %v (the tables this call created were deleted again%s)"
	msgReplacedGone = "; the tables it replaced are gone"
	msgNotActive    = "table %s is still %s after %v"
	msgItemError    = "items.%s[%d]: %v"
	msgUnprocessed  = "items.%s[%d]: still unprocessed after %d tries"

	batchSize    = 25 // BatchWriteItem's limit
	batchRetries = 10
	pollEvery    = 10 * time.Millisecond // sortkey's tables are ACTIVE at once
	pollFor      = 30 * time.Second
)

// validator runs one model on the engine.
type validator struct {
	api      inproc.Client
	maxPages int
	model    *dataModel
}

// createTables creates the model's tables; an existing one is an error
// unless replace, and a CreateTable refused undoes the ones created.
func (v *validator) createTables(ctx context.Context, replace bool) ([]TableLoad, error) {
	existing, err := v.existing(ctx)
	if err != nil {
		return nil, err
	}
	if len(existing) > 0 && !replace {
		return nil, fmt.Errorf(msgTablesExist, strings.Join(existing, ", "))
	}
	if err := v.deleteTables(ctx, existing); err != nil {
		return nil, err
	}
	loads := []TableLoad{}
	for i, in := range v.model.tables {
		name := v.model.names[i]
		if err := v.createTable(ctx, in); err != nil {
			return nil, v.undo(ctx, loads, name, err, len(existing) > 0)
		}
		loads = append(loads, TableLoad{Table: name, Replaced: slices.Contains(existing, name)})
	}
	return loads, nil
}

// existing are the model's tables that exist already.
func (v *validator) existing(ctx context.Context) ([]string, error) {
	var found []string
	in := map[string]any{}
	for {
		var out struct {
			TableNames             []string
			LastEvaluatedTableName string
		}
		if err := v.api.Call(ctx, "ListTables", in, &out); err != nil {
			return nil, err
		}
		for _, t := range out.TableNames {
			if v.model.defines(t) {
				found = append(found, t)
			}
		}
		if out.LastEvaluatedTableName == "" {
			return found, nil
		}
		in["ExclusiveStartTableName"] = out.LastEvaluatedTableName
	}
}

func (v *validator) createTable(ctx context.Context, in map[string]any) error {
	var out any
	if err := v.api.Call(ctx, "CreateTable", in, &out); err != nil {
		return err
	}
	return v.waitActive(ctx, in["TableName"].(string))
}

// undo deletes the tables created before a CreateTable was refused.
func (v *validator) undo(ctx context.Context, created []TableLoad, table string, cause error, replaced bool) error {
	var names []string
	for _, l := range created {
		names = append(names, l.Table)
	}
	gone := ""
	if replaced {
		gone = msgReplacedGone
	}
	return errors.Join(fmt.Errorf(msgCreate, table, cause, gone), v.deleteTables(ctx, names))
}

func (v *validator) deleteTables(ctx context.Context, names []string) error {
	for _, name := range names {
		var out any
		if err := v.api.Call(ctx, "DeleteTable", map[string]any{"TableName": name}, &out); err != nil {
			return err
		}
		if err := v.waitGone(ctx, name); err != nil {
			return err
		}
	}
	return nil
}

// waitActive polls DescribeTable until the table and its indexes are
// ACTIVE, as `aws dynamodb wait table-exists` would.
func (v *validator) waitActive(ctx context.Context, table string) error {
	return v.poll(ctx, table, func(status string, err error) (bool, error) {
		return status == "ACTIVE", err
	})
}

// waitGone polls until DescribeTable no longer finds the table.
func (v *validator) waitGone(ctx context.Context, table string) error {
	return v.poll(ctx, table, func(_ string, err error) (bool, error) {
		var api *inproc.APIError
		if errors.As(err, &api) && api.Type == "ResourceNotFoundException" {
			return true, nil
		}
		return false, err
	})
}

// poll describes the table until done says so.
func (v *validator) poll(ctx context.Context, table string, done func(status string, err error) (bool, error)) error {
	deadline := time.Now().Add(pollFor)
	for {
		status, err := v.status(ctx, table)
		if ok, err := done(status, err); ok || err != nil {
			return err
		}
		if time.Now().After(deadline) {
			return fmt.Errorf(msgNotActive, table, status, pollFor)
		}
		if err := sleep(ctx, pollEvery); err != nil {
			return err
		}
	}
}

func sleep(ctx context.Context, d time.Duration) error {
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(d):
		return nil
	}
}

// status is the table's status, or that of an index not yet ACTIVE.
func (v *validator) status(ctx context.Context, table string) (string, error) {
	var out struct {
		Table struct {
			TableStatus            string
			GlobalSecondaryIndexes []struct{ IndexStatus string }
		}
	}
	if err := v.api.Call(ctx, "DescribeTable", map[string]any{"TableName": table}, &out); err != nil {
		return "", err
	}
	for _, ix := range out.Table.GlobalSecondaryIndexes {
		if ix.IndexStatus != "ACTIVE" {
			return ix.IndexStatus, nil
		}
	}
	return out.Table.TableStatus, nil
}

// loadItems writes the table's items in batches of 25, as the AWS MCP
// server's validation does; a batch DynamoDB refuses is written item by
// item, so that each bad item is named and the good ones are written.
func (v *validator) loadItems(ctx context.Context, load *TableLoad) {
	items := v.model.items[load.Table]
	for start := 0; start < len(items); start += batchSize {
		batch := items[start:min(start+batchSize, len(items))]
		if err := v.writeBatch(ctx, load.Table, batch); err != nil {
			v.writeOneByOne(ctx, load, start, batch)
			continue
		}
		load.Items += len(batch)
	}
}

// writeBatch sends one BatchWriteItem and resends what is unprocessed.
func (v *validator) writeBatch(ctx context.Context, table string, batch []map[string]any) error {
	pending := map[string]any{table: batch}
	for try := 0; ; try++ {
		var out struct{ UnprocessedItems map[string][]any }
		if err := v.api.Call(ctx, "BatchWriteItem", map[string]any{"RequestItems": pending}, &out); err != nil {
			return err
		}
		if len(out.UnprocessedItems[table]) == 0 {
			return nil
		}
		if try == batchRetries {
			return errors.New(msgUnprocessed)
		}
		pending = map[string]any{table: out.UnprocessedItems[table]}
		if err := sleep(ctx, pollEvery<<min(try, 5)); err != nil { // back off, as the SDKs do
			return err
		}
	}
}

// writeOneByOne writes a refused batch's items one at a time.
func (v *validator) writeOneByOne(ctx context.Context, load *TableLoad, start int, batch []map[string]any) {
	for i, w := range batch {
		op, in := single(load.Table, w)
		var out any
		if err := v.api.Call(ctx, op, in, &out); err != nil {
			load.Errors = append(load.Errors, fmt.Sprintf(msgItemError, load.Table, start+i, err))
			continue
		}
		load.Items++
	}
}

// single is a batch's write request as a PutItem or DeleteItem.
func single(table string, w map[string]any) (string, map[string]any) {
	if put, ok := w["PutRequest"].(map[string]any); ok {
		return "PutItem", map[string]any{"TableName": table, "Item": put["Item"]}
	}
	del := w["DeleteRequest"].(map[string]any)
	return "DeleteItem", map[string]any{"TableName": table, "Key": del["Key"]}
}
