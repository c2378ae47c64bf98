package access

import (
	"reflect"
	"strings"

	"github.com/sortkeydb/sortkey/internal/protocol"
)

// describers maps each operation to its describer.
var describers = map[string]describer{
	"GetItem":               getItem,
	"PutItem":               putItem,
	"UpdateItem":            updateItem,
	"DeleteItem":            deleteItem,
	"Query":                 query,
	"Scan":                  scan,
	"BatchGetItem":          batchGet,
	"BatchWriteItem":        batchWrite,
	"TransactWriteItems":    transactWrite,
	"TransactGetItems":      transactGet,
	"ExecuteStatement":      executeStatement,
	"BatchExecuteStatement": batchExecute,
	"ExecuteTransaction":    executeTransaction,
	"CreateTable":           createTable,
	"DescribeTable":         onTable,
	"UpdateTable":           onTable,
	"DeleteTable":           onTable,
	"DescribeTimeToLive":    onTable,
	"UpdateTimeToLive":      onTable,
	"ListTables":            onNothing,
	"DescribeLimits":        onNothing,
	"ListStreams":           onNothing,
	"DescribeEndpoints":     unauthorised,
	"TagResource":           onArn,
	"UntagResource":         onArn,
	"ListTagsOfResource":    onArn,
	"PutResourcePolicy":     onArn,
	"GetResourcePolicy":     onArn,
	"DeleteResourcePolicy":  onArn,
	"DescribeStream":        onArn,
	"GetShardIterator":      onArn,
	"GetRecords":            getRecords,
}

// tableName reads TableName from a control-plane input.
func tableName(in any) (*string, bool) {
	switch r := in.(type) {
	case *protocol.DescribeTableInput:
		return r.TableName, true
	case *protocol.UpdateTableInput:
		return r.TableName, true
	case *protocol.DeleteTableInput:
		return r.TableName, true
	case *protocol.DescribeTimeToLiveInput:
		return r.TableName, true
	case *protocol.UpdateTimeToLiveInput:
		return r.TableName, true
	case *protocol.CreateTableInput:
		return r.TableName, true
	}
	return nil, false
}

// onTable is a control-plane action on the table it names. These actions
// have no DynamoDB condition keys (Service Authorization Reference).
func onTable(op string, in any, c Catalog) ([]Check, error) {
	name, ok := tableName(in)
	if !ok {
		return nil, ErrInputType
	}
	t := resolve(name, c)
	ch := t.check(actionPrefix+op, "")
	ch.Keys = nil
	return []Check{ch}, nil
}

// createTable is CreateTable on the new table's ARN, and TagResource on it
// too when the request tags it: creating a tagged table needs both.
func createTable(op string, in any, c Catalog) ([]Check, error) {
	out, err := onTable(op, in, c)
	if err != nil {
		return nil, err
	}
	if r := in.(*protocol.CreateTableInput); len(r.Tags) > 0 {
		tag := out[0]
		tag.Action = actionPrefix + "TagResource"
		out = append(out, tag)
	}
	return out, nil
}

// onNothing is an action IAM grants on no resource: "*".
func onNothing(op string, _ any, _ Catalog) ([]Check, error) {
	return []Check{{Action: actionPrefix + op, Resource: "*"}}, nil
}

// unauthorised is an operation DynamoDB answers without authorisation
// (DescribeEndpoints has no IAM action).
func unauthorised(string, any, Catalog) ([]Check, error) { return []Check{}, nil }

// onArn is an action on the resource an ARN parameter names: ResourceArn
// (tagging, resource policies) or StreamArn (Streams). The input is read by
// field name, so that the resource-policy inputs need no change here when
// they are added to protocol.
func onArn(op string, in any, c Catalog) ([]Check, error) {
	arn, ok := arnField(in)
	if !ok {
		return nil, ErrInputType
	}
	return []Check{arnCheck(op, arn, c)}, nil
}

func arnCheck(op, arn string, c Catalog) Check {
	return Check{Action: actionPrefix + op, Resource: arn, Table: tableOfResource(arn, c)}
}

// arnField reads a ResourceArn or StreamArn member, string or *string.
func arnField(in any) (string, bool) {
	v := reflect.ValueOf(in)
	if v.Kind() != reflect.Pointer || v.IsNil() || v.Elem().Kind() != reflect.Struct {
		return "", false
	}
	for _, name := range [...]string{"ResourceArn", "StreamArn"} {
		if f := v.Elem().FieldByName(name); f.IsValid() {
			return stringOf(f)
		}
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
