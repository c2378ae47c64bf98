package validate

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/sortkeydb/sortkey/internal/apierr"
	"github.com/sortkeydb/sortkey/internal/attr"
	"github.com/sortkeydb/sortkey/internal/protocol"
)

// The batch operations' limits: keys per BatchGetItem, requests per
// BatchWriteItem. Each applies to one table's list in the model and to the
// whole request in the service.
const (
	MaxBatchGetKeys = 100
	MaxBatchWrites  = 25
)

// DuplicateKeys is the error for a batch naming one item twice.
func DuplicateKeys() error {
	return apierr.Validationf(msgDuplicateKeys)
}

// BatchGetItem checks a BatchGetItem request: model constraints, the
// RequestItems the service requires, each table's number of keys, the
// total number of keys, then each table's projection parameters, key
// values and duplicate keys. Checks against the tables are the engine's.
func BatchGetItem(in *protocol.BatchGetItemInput) error {
	if err := batchGetModel(in); err != nil {
		return err
	}
	if len(in.RequestItems) == 0 {
		return apierr.Validationf(msgRequestItemsRequired, "BatchGetItem")
	}
	if err := keysPerTable(in.RequestItems); err != nil {
		return err
	}
	total := 0
	for _, ka := range in.RequestItems {
		total += len(ka.Keys)
	}
	if total > MaxBatchGetKeys {
		return apierr.Validationf(msgTooManyBatchGets)
	}
	for _, ref := range slices.Sorted(maps.Keys(in.RequestItems)) {
		if err := keysAndAttributes(in.RequestItems[ref]); err != nil {
			return err
		}
	}
	return nil
}

// batchGetModel collects the model's violations. RequestItems being
// required, empty or not, is the service's check, not the model's.
func batchGetModel(in *protocol.BatchGetItemInput) error {
	var v violations
	if m := in.RequestItems; m != nil {
		if n := len(m); n > MaxBatchGetKeys {
			v.count(renderGetMap(m), n, "requestItems", 1, MaxBatchGetKeys)
		}
		v.tableRefKeys(slices.Collect(maps.Keys(m)), func() string { return renderGetMap(m) })
		for _, ref := range slices.Sorted(maps.Keys(m)) {
			keysAndAttributesModel(&v, m[ref], "requestItems."+ref+".member")
		}
	}
	v.enum(in.ReturnConsumedCapacity, "returnConsumedCapacity", consumedCapacitySet)
	return v.err()
}

// keysAndAttributesModel checks one table's part. Too many keys is the
// service's check (keysPerTable), not the model's.
func keysAndAttributesModel(v *violations, ka protocol.KeysAndAttributes, member string) {
	if v.present(ka.Keys == nil, member+".keys") && len(ka.Keys) < 1 {
		v.count(renderKeys(ka.Keys), len(ka.Keys), member+".keys", 1, -1)
	}
	if ka.AttributesToGet != nil {
		v.count(renderStrings(ka.AttributesToGet), len(ka.AttributesToGet), member+".attributesToGet", 1, -1)
	}
}

// keysPerTable refuses a table asking for more keys than a whole request
// may. The service words it as a one-error message that names the member,
// capitalised, and echoes no value.
func keysPerTable(m map[string]protocol.KeysAndAttributes) error {
	for _, ref := range slices.Sorted(maps.Keys(m)) {
		if len(m[ref].Keys) > MaxBatchGetKeys {
			return bare("RequestItems."+ref+".member.Keys", fmt.Sprintf(cMaxLength, MaxBatchGetKeys))
		}
	}
	return nil
}

// keysAndAttributes applies GetItem's rules to one table's part of a
// BatchGetItem, then refuses a key asked for twice. Values are validated
// (and numbers normalized) first, so 1 and 1.0 are the same key.
func keysAndAttributes(ka protocol.KeysAndAttributes) error {
	if err := projectionParams(ka.ProjectionExpression, ka.AttributesToGet, ka.ExpressionAttributeNames); err != nil {
		return err
	}
	for _, k := range ka.Keys {
		if err := values(k); err != nil {
			return err
		}
	}
	return uniqueKeys(ka.Keys)
}

// uniqueKeys compares keys as the client wrote them, before they are
// checked against the table's key schema: DynamoDB reports duplicates
// first, even for keys the schema would refuse.
func uniqueKeys(keys []protocol.Key) error {
	seen := make(map[string]bool, len(keys))
	for _, k := range keys {
		s := string(attr.AppendItemJSON(nil, k)) // canonical: names sorted, numbers normalized
		if seen[s] {
			return DuplicateKeys()
		}
		seen[s] = true
	}
	return nil
}

// BatchWriteItem checks a BatchWriteItem request: model constraints, the
// total number of requests, then each request's shape and values. Checks
// against the tables, duplicates among them, are the engine's.
func BatchWriteItem(in *protocol.BatchWriteItemInput) error {
	if err := batchWriteModel(in); err != nil {
		return err
	}
	if len(in.RequestItems) == 0 {
		return apierr.Validationf(msgRequestItemsRequired, "BatchWriteItem")
	}
	total := 0
	for _, ws := range in.RequestItems {
		total += len(ws)
	}
	if total > MaxBatchWrites {
		return apierr.Validationf(msgTooManyBatchPuts)
	}
	for _, ref := range slices.Sorted(maps.Keys(in.RequestItems)) {
		for _, w := range in.RequestItems[ref] {
			if err := writeRequest(w); err != nil {
				return err
			}
		}
	}
	return nil
}

// batchWriteModel collects the model's violations; RequestItems being
// required is the service's check, as for BatchGetItem.
func batchWriteModel(in *protocol.BatchWriteItemInput) error {
	var v violations
	if m := in.RequestItems; m != nil {
		if n := len(m); n > MaxBatchWrites {
			v.count(renderWriteMap(m), n, "requestItems", 1, MaxBatchWrites)
		}
		v.tableRefKeys(slices.Collect(maps.Keys(m)), func() string { return renderWriteMap(m) })
		writeListsModel(&v, m)
	}
	v.enum(in.ReturnConsumedCapacity, "returnConsumedCapacity", consumedCapacitySet)
	v.enum(in.ReturnItemCollectionMetrics, "returnItemCollectionMetrics", collectionMetricSet)
	return v.err()
}

// writeListsModel checks each table's list of requests. The length is a
// constraint on the map's values, which the service reports once for the
// whole map, listing the constraint in full.
func writeListsModel(v *violations, m map[string][]protocol.WriteRequest) {
	refs := slices.Sorted(maps.Keys(m))
	for _, ref := range refs {
		if n := len(m[ref]); n < 1 || n > MaxBatchWrites {
			v.add(renderWriteMap(m), "requestItems", msgWriteListsLength)
			break
		}
	}
	for _, ref := range refs {
		for i, w := range m[ref] {
			writeRequestModel(v, w, item("requestItems."+ref+".member", i))
		}
	}
}

func writeRequestModel(v *violations, w protocol.WriteRequest, member string) {
	if w.PutRequest != nil {
		v.present(w.PutRequest.Item == nil, member+".putRequest.item")
	}
	if w.DeleteRequest != nil {
		v.present(w.DeleteRequest.Key == nil, member+".deleteRequest.key")
	}
}

// writeRequest checks that a request is a put or a delete, and its values.
func writeRequest(w protocol.WriteRequest) error {
	if (w.PutRequest == nil) == (w.DeleteRequest == nil) {
		return apierr.Validationf(msgWriteRequestShape)
	}
	if w.PutRequest != nil {
		if err := values(w.PutRequest.Item); err != nil {
			return err
		}
		return ItemSize(w.PutRequest.Item)
	}
	return values(w.DeleteRequest.Key)
}

// tableRefKeys checks the table names or ARNs keying RequestItems with the
// rules of a TableName member. The service reports a bad map key once for
// the map, listing every constraint on the keys.
func (v *violations) tableRefKeys(refs []string, rendered func() string) {
	slices.Sort(refs)
	for _, ref := range refs {
		var one violations
		tableNameModel(&one, &ref, "")
		if len(one.msgs) == 0 {
			continue
		}
		constraints := []string{fmt.Sprintf(cMaxLength, 1024), fmt.Sprintf(cMinLength, 1)}
		if ref != "" && len(ref) <= 1024 {
			constraints = []string{fmt.Sprintf(cPattern, namePattern), fmt.Sprintf(cMaxLength, 255), fmt.Sprintf(cMinLength, 3)}
		}
		v.add(rendered(), "requestItems", fmt.Sprintf(msgMapKeys, strings.Join(constraints, ", ")))
		return
	}
}

// The service quotes a batch's RequestItems with Java's toString, where
// requests and attribute values show as object identities no client can
// reproduce; sortkey prints their type names in their place.

func renderGetMap(m map[string]protocol.KeysAndAttributes) string {
	return quote(renderMap(slices.Collect(maps.Keys(m)), func(string) string { return "KeysAndAttributes" }))
}

func renderWriteMap(m map[string][]protocol.WriteRequest) string {
	return quote(renderMap(slices.Collect(maps.Keys(m)), func(ref string) string {
		if m[ref] == nil {
			return "null"
		}
		return renderList(len(m[ref]), func(int) string { return "WriteRequest" })
	}))
}

func renderKeys(keys []protocol.Key) string {
	return quote(renderList(len(keys), func(i int) string {
		return renderMap(slices.Collect(maps.Keys(keys[i])), func(string) string { return "AttributeValue" })
	}))
}

// renderMap prints a map as Java's HashMap does, in its iteration order.
func renderMap(keys []string, value func(string) string) string {
	parts := make([]string, 0, len(keys))
	for _, k := range javaHashSetOrder(keys) {
		parts = append(parts, k+"="+value(k))
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

func renderList(n int, elem func(int) string) string {
	parts := make([]string, n)
	for i := range parts {
		parts[i] = elem(i)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}
