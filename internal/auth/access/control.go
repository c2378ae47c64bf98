package access

import (
	"reflect"
	"strings"

	"github.com/sortkeydb/sortkey/internal/protocol"
)

// describers maps each operation to its describer.
var describers = map[string]describer{
	"GetItem":                   getItem,
	"PutItem":                   putItem,
	"UpdateItem":                updateItem,
	"DeleteItem":                deleteItem,
	"Query":                     query,
	"Scan":                      scan,
	"SearchVectors":             searchVectors,
	"BatchGetItem":              batchGet,
	"BatchWriteItem":            batchWrite,
	"TransactWriteItems":        transactWrite,
	"TransactGetItems":          transactGet,
	"ExecuteStatement":          executeStatement,
	"BatchExecuteStatement":     batchExecute,
	"ExecuteTransaction":        executeTransaction,
	"CreateTable":               createTable,
	"DescribeTable":             onTable(func(r *protocol.DescribeTableInput) *string { return r.TableName }),
	"UpdateTable":               onTable(func(r *protocol.UpdateTableInput) *string { return r.TableName }),
	"DeleteTable":               onTable(func(r *protocol.DeleteTableInput) *string { return r.TableName }),
	"DescribeTimeToLive":        onTable(func(r *protocol.DescribeTimeToLiveInput) *string { return r.TableName }),
	"UpdateTimeToLive":          onTable(func(r *protocol.UpdateTimeToLiveInput) *string { return r.TableName }),
	"ListTables":                onNothing,
	"DescribeLimits":            onNothing,
	"ListStreams":               onNothing,
	"DescribeEndpoints":         unauthorised,
	"TagResource":               onArn(func(r *protocol.TagResourceInput) *string { return r.ResourceArn }),
	"UntagResource":             onArn(func(r *protocol.UntagResourceInput) *string { return r.ResourceArn }),
	"ListTagsOfResource":        onArn(func(r *protocol.ListTagsOfResourceInput) *string { return r.ResourceArn }),
	"DescribeStream":            onArn(func(r *protocol.DescribeStreamInput) *string { return r.StreamArn }),
	"GetShardIterator":          onArn(func(r *protocol.GetShardIteratorInput) *string { return r.StreamArn }),
	"PutResourcePolicy":         onResourceArn,
	"GetResourcePolicy":         onResourceArn,
	"DeleteResourcePolicy":      onResourceArn,
	"GetRecords":                getRecords,
	"CreateBackup":              onTable(func(r *protocol.CreateBackupInput) *string { return r.TableName }),
	"DescribeBackup":            onArn(func(r *protocol.DescribeBackupInput) *string { return r.BackupArn }),
	"DeleteBackup":              onArn(func(r *protocol.DeleteBackupInput) *string { return r.BackupArn }),
	"ListBackups":               onNothing,
	"UpdateContinuousBackups":   onTable(func(r *protocol.UpdateContinuousBackupsInput) *string { return r.TableName }),
	"DescribeContinuousBackups": onTable(func(r *protocol.DescribeContinuousBackupsInput) *string { return r.TableName }),
	"RestoreTableToPointInTime": restore(pointInTimeSource, func(r *protocol.RestoreTableToPointInTimeInput) *string { return r.TargetTableName }),
	"RestoreTableFromBackup":    restore(backupSource, func(r *protocol.RestoreTableFromBackupInput) *string { return r.TargetTableName }),
	"ExportTableToPointInTime":  onArn(func(r *protocol.ExportTableToPointInTimeInput) *string { return r.TableArn }),
	"DescribeExport":            onArn(func(r *protocol.DescribeExportInput) *string { return r.ExportArn }),
	"ListExports":               onNothing,
}

// onTable is a control-plane action on the table its input T names. These
// actions have no DynamoDB condition keys (Service Authorization
// Reference).
func onTable[T any](name func(T) *string) describer {
	return func(op string, in any, c Catalog) ([]Check, error) {
		r, ok := in.(T)
		if !ok {
			return nil, ErrInputType
		}
		return []Check{tableCheck(op, name(r), c)}, nil
	}
}

func tableCheck(op string, name *string, c Catalog) Check {
	t := resolve(name, c)
	ch := t.check(actionPrefix+op, "")
	ch.Keys = nil
	return ch
}

// createTable is CreateTable on the new table's ARN, plus TagResource when
// the request tags the table and PutResourcePolicy when it attaches a
// policy: creating the table does both.
func createTable(op string, in any, c Catalog) ([]Check, error) {
	r, ok := in.(*protocol.CreateTableInput)
	if !ok {
		return nil, ErrInputType
	}
	out := []Check{tableCheck(op, r.TableName, c)}
	also := func(action string) {
		ch := out[0]
		ch.Action = actionPrefix + action
		out = append(out, ch)
	}
	if len(r.Tags) > 0 {
		also("TagResource")
	}
	if given(in, "ResourcePolicy") {
		also("PutResourcePolicy")
	}
	return out, nil
}

// restoreTarget is what DynamoDB's guide to IAM with backup and restore
// requires on a restore's target table: its read and write actions.
var restoreTarget = [...]string{
	actionPrefix + "PutItem", actionPrefix + "UpdateItem", actionPrefix + "DeleteItem", actionPrefix + "GetItem",
	actionPrefix + "Query", actionPrefix + "Scan", actionPrefix + "BatchWriteItem",
}

// restore is a restore of input T: its own action on the source (backup or
// table), then restoreTarget on the table it creates.
func restore[T any](source func(op string, r T, c Catalog) Check, target func(T) *string) describer {
	return func(op string, in any, c Catalog) ([]Check, error) {
		r, ok := in.(T)
		if !ok {
			return nil, ErrInputType
		}
		return append([]Check{source(op, r, c)}, targetChecks(target(r), c)...), nil
	}
}

func targetChecks(name *string, c Catalog) []Check {
	t := resolve(name, c)
	out := make([]Check, len(restoreTarget))
	for i, action := range restoreTarget {
		out[i] = Check{Action: action, Resource: t.arn, Table: t.name}
	}
	return out
}

func backupSource(op string, r *protocol.RestoreTableFromBackupInput, c Catalog) Check {
	return arnCheck(op, str(r.BackupArn), c)
}

// pointInTimeSource is the source table, named or by ARN.
func pointInTimeSource(op string, r *protocol.RestoreTableToPointInTimeInput, c Catalog) Check {
	if r.SourceTableName != nil {
		return tableCheck(op, r.SourceTableName, c)
	}
	return tableCheck(op, r.SourceTableArn, c)
}

// given reports whether the request set the member name, read by name so
// that it holds whether protocol refuses the member (protocol.Refused) or
// decodes it (a *string).
func given(in any, name string) bool {
	f := reflect.ValueOf(in).Elem().FieldByName(name)
	if !f.IsValid() {
		return false
	}
	if s, ok := f.Interface().(interface{ Set() bool }); ok {
		return s.Set()
	}
	return f.Kind() == reflect.Pointer && !f.IsNil()
}

// onNothing is an action IAM grants on no resource: "*".
func onNothing(op string, _ any, _ Catalog) ([]Check, error) {
	return []Check{{Action: actionPrefix + op, Resource: "*"}}, nil
}

// unauthorised is an operation DynamoDB answers without authorisation
// (DescribeEndpoints has no IAM action).
func unauthorised(string, any, Catalog) ([]Check, error) { return []Check{}, nil }

// onArn is an action on the resource an ARN parameter of input T names:
// ResourceArn (tagging) or StreamArn (Streams).
func onArn[T any](arn func(T) *string) describer {
	return func(op string, in any, c Catalog) ([]Check, error) {
		r, ok := in.(T)
		if !ok {
			return nil, ErrInputType
		}
		return []Check{arnCheck(op, str(arn(r)), c)}, nil
	}
}

// onResourceArn is onArn for the resource-policy operations, whose input
// structs protocol does not define yet: it reads any struct's ResourceArn
// member, string or *string, by name.
func onResourceArn(op string, in any, c Catalog) ([]Check, error) {
	arn, ok := arnField(in)
	if !ok {
		return nil, ErrInputType
	}
	return []Check{arnCheck(op, arn, c)}, nil
}

func arnCheck(op, arn string, c Catalog) Check {
	return Check{Action: actionPrefix + op, Resource: arn, Table: tableOfResource(arn, c)}
}

// arnField reads a ResourceArn member.
func arnField(in any) (string, bool) {
	v := reflect.ValueOf(in)
	if v.Kind() != reflect.Pointer || v.IsNil() || v.Elem().Kind() != reflect.Struct {
		return "", false
	}
	if f := v.Elem().FieldByName("ResourceArn"); f.IsValid() {
		return stringOf(f)
	}
	return "", false
}

func stringOf(f reflect.Value) (string, bool) {
	switch {
	case f.Kind() == reflect.String:
		return f.String(), true
	case f.Kind() == reflect.Pointer && f.Type().Elem().Kind() == reflect.String:
		if f.IsNil() {
			return "", true
		}
		return f.Elem().String(), true
	}
	return "", false
}

// tableOfResource is the table whose resource policy applies to an ARN: a
// table's own, or its table's for an index. A stream carries its own
// policy, so it has none.
func tableOfResource(arn string, c Catalog) string {
	if strings.Contains(arn, "/stream/") {
		return ""
	}
	tableArn, _, _ := strings.Cut(arn, "/index/")
	if name, ok := c.TableOfArn(tableArn); ok {
		return name
	}
	return ""
}

// getRecords is authorised on the stream its iterator was issued for; an
// iterator that names none leaves "*", which only a policy granting
// GetRecords on every resource allows (and the engine then refuses it).
func getRecords(op string, in any, c Catalog) ([]Check, error) {
	r, ok := in.(*protocol.GetRecordsInput)
	if !ok {
		return nil, ErrInputType
	}
	arn, ok := c.StreamOfIterator(str(r.ShardIterator))
	if !ok {
		arn = "*"
	}
	return []Check{arnCheck(op, arn, c)}, nil
}
