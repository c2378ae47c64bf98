package faults

import (
	"encoding/base64"
	"reflect"
	"regexp"
	"strings"

	"github.com/sortkeydb/sortkey/internal/attr"
	"github.com/sortkeydb/sortkey/internal/protocol"
)

// KeySchemas is what matching by key prefix needs of the catalog: a
// table's or index's key schema (engine.Engine has it).
type KeySchemas interface {
	KeySchema(table, index string) ([]protocol.KeySchemaElement, error)
}

// ref is one thing a request touches: a table (or index) and, when the
// request names one, an item or key in it.
type ref struct {
	table, index string
	item         attr.Item            // the item or key; nil when none
	query        *protocol.QueryInput // a Query, whose key is in its condition
}

// refs lists what in touches, in request order (batch tables sorted).
func refs(in any) []ref {
	switch v := in.(type) {
	case *protocol.PutItemInput:
		return []ref{{table: str(v.TableName), item: v.Item}}
	case *protocol.GetItemInput:
		return []ref{{table: str(v.TableName), item: v.Key}}
	case *protocol.DeleteItemInput:
		return []ref{{table: str(v.TableName), item: v.Key}}
	case *protocol.UpdateItemInput:
		return []ref{{table: str(v.TableName), item: v.Key}}
	case *protocol.QueryInput:
		return []ref{{table: str(v.TableName), index: str(v.IndexName), query: v}}
	case *protocol.ScanInput:
		return []ref{{table: str(v.TableName), index: str(v.IndexName)}}
	case *protocol.BatchWriteItemInput:
		return batchWriteRefs(v)
	case *protocol.BatchGetItemInput:
		return batchGetRefs(v)
	case *protocol.TransactWriteItemsInput:
		return transactWriteRefs(v)
	case *protocol.TransactGetItemsInput:
		return transactGetRefs(v)
	}
	return namedTable(in)
}

func str(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

func batchWriteRefs(in *protocol.BatchWriteItemInput) []ref {
	var out []ref
	for _, table := range sortedTables(in.RequestItems) {
		for _, w := range in.RequestItems[table] {
			out = append(out, ref{table: table, item: writeItem(w)})
		}
	}
	return out
}

// writeItem is the item a batch write puts, or the key it deletes.
func writeItem(w protocol.WriteRequest) attr.Item {
	switch {
	case w.PutRequest != nil:
		return w.PutRequest.Item
	case w.DeleteRequest != nil:
		return w.DeleteRequest.Key
	}
	return nil
}

func batchGetRefs(in *protocol.BatchGetItemInput) []ref {
	var out []ref
	for _, table := range sortedTables(in.RequestItems) {
		for _, k := range in.RequestItems[table].Keys {
			out = append(out, ref{table: table, item: k})
		}
	}
	return out
}

func transactWriteRefs(in *protocol.TransactWriteItemsInput) []ref {
	out := make([]ref, 0, len(in.TransactItems))
	for _, t := range in.TransactItems {
		for _, a := range []*protocol.TransactAction{t.Put, t.Update, t.Delete, t.ConditionCheck} {
			if a != nil {
				out = append(out, ref{table: str(a.TableName), item: actionItem(a)})
			}
		}
	}
	return out
}

func actionItem(a *protocol.TransactAction) attr.Item {
	if a.Item != nil {
		return a.Item
	}
	return a.Key
}

func transactGetRefs(in *protocol.TransactGetItemsInput) []ref {
	out := make([]ref, 0, len(in.TransactItems))
	for _, t := range in.TransactItems {
		if t.Get != nil {
			out = append(out, ref{table: str(t.Get.TableName), item: t.Get.Key})
		}
	}
	return out
}

// namedTable is the table of any other operation whose input has a
// TableName (the control plane's, TTL's).
func namedTable(in any) []ref {
	v := reflect.ValueOf(in)
	if v.Kind() != reflect.Pointer || v.IsNil() || v.Elem().Kind() != reflect.Struct {
		return nil
	}
	f := v.Elem().FieldByName("TableName")
	switch {
	case !f.IsValid():
		return nil
	case f.Kind() == reflect.String:
		return []ref{{table: f.String()}}
	case f.Kind() == reflect.Pointer && !f.IsNil() && f.Elem().Kind() == reflect.String:
		return []ref{{table: f.Elem().String()}}
	}
	return nil
}

// tableName is a table's name from its name or ARN, so that a rule naming
// "Orders" matches a request naming the table by ARN.
func tableName(ref string) string {
	if !strings.HasPrefix(ref, "arn:") {
		return ref
	}
	_, name, ok := strings.Cut(ref, ":table/")
	if !ok {
		return ref
	}
	name, _, _ = strings.Cut(name, "/")
	return name
}

// partitionString is the string form of the partition key value r names:
// S as is, N as its digits, B as base64 (its wire form); ok is false when
// r names none.
func partitionString(keys KeySchemas, r ref) (string, bool) {
	if keys == nil || (r.item == nil && r.query == nil) {
		return "", false
	}
	name := partitionName(keys, r.table, r.index)
	if name == "" {
		return "", false
	}
	if r.query != nil {
		return queryPartition(r.query, name)
	}
	v, ok := r.item[name]
	if !ok {
		return "", false
	}
	return valueString(v)
}

func partitionName(keys KeySchemas, table, index string) string {
	ks, err := keys.KeySchema(table, index)
	if err != nil {
		return ""
	}
	for _, k := range ks {
		if str(k.KeyType) == "HASH" {
			return str(k.AttributeName)
		}
	}
	return ""
}

func valueString(v attr.Value) (string, bool) {
	switch {
	case v.S != nil:
		return *v.S, true
	case v.N != nil:
		return *v.N, true
	case v.B != nil:
		return base64.StdEncoding.EncodeToString(v.B), true
	}
	return "", false
}

// keyEquality is one "a = b" of a key condition expression.
var keyEquality = regexp.MustCompile(`([#:]?[A-Za-z0-9_.\-]+)\s*=\s*([#:]?[A-Za-z0-9_.\-]+)`)

// queryPartition finds the value a Query's key condition gives the
// partition key name: its legacy KeyConditions' EQ, or the "name =
// :value" of its expression. The engine parses the expression in full;
// this reads only what a rule's key prefix needs.
func queryPartition(q *protocol.QueryInput, name string) (string, bool) {
	if c, ok := q.KeyConditions[name]; ok && len(c.AttributeValueList) == 1 {
		return valueString(c.AttributeValueList[0])
	}
	for _, m := range keyEquality.FindAllStringSubmatch(str(q.KeyConditionExpression), -1) {
		lhs, rhs := m[1], m[2]
		if strings.HasPrefix(lhs, ":") {
			lhs, rhs = rhs, lhs
		}
		if resolveName(lhs, q.ExpressionAttributeNames) == name && strings.HasPrefix(rhs, ":") {
			if v, ok := q.ExpressionAttributeValues[rhs]; ok {
				return valueString(v)
			}
		}
	}
	return "", false
}

func resolveName(n string, names map[string]string) string {
	if strings.HasPrefix(n, "#") {
		return names[n]
	}
	return n
}
