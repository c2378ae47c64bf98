package validate

import (
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
	return apierr.Validationf("Provided list of item keys contains duplicates")
}

// BatchGetItem checks a BatchGetItem request: model constraints, the total
// number of keys, then each table's projection parameters, key values and
// duplicate keys. Checks against the tables are the engine's.
func BatchGetItem(in *protocol.BatchGetItemInput) error {
	if err := batchGetModel(in); err != nil {
		return err
	}
	total := 0
	for _, ka := range in.RequestItems {
		total += len(ka.Keys)
	}
	if total > MaxBatchGetKeys {
		return apierr.Validationf("Too many items requested for the BatchGetItem call")
	}
	for _, ref := range slices.Sorted(maps.Keys(in.RequestItems)) {
		if err := keysAndAttributes(in.RequestItems[ref]); err != nil {
			return err
		}
	}
	return nil
}

func batchGetModel(in *protocol.BatchGetItemInput) error {
	var v violations
	if m := in.RequestItems; v.present(m == nil, "requestItems") {
		if n := len(m); n < 1 || n > MaxBatchGetKeys {
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

func keysAndAttributesModel(v *violations, ka protocol.KeysAndAttributes, member string) {
	if v.present(ka.Keys == nil, member+".keys") {
		if n := len(ka.Keys); n < 1 || n > MaxBatchGetKeys {
			v.count(renderKeys(ka.Keys), n, member+".keys", 1, MaxBatchGetKeys)
		}
	}
	if ka.AttributesToGet != nil {
		v.count(renderStrings(ka.AttributesToGet), len(ka.AttributesToGet), member+".attributesToGet", 1, -1)
	}
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
	total := 0
	for _, ws := range in.RequestItems {
		total += len(ws)
	}
	if total > MaxBatchWrites {
		return apierr.Validationf("Too many items requested for the BatchWriteItem call")
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

func batchWriteModel(in *protocol.BatchWriteItemInput) error {
	var v violations
	if m := in.RequestItems; v.present(m == nil, "requestItems") {
		if n := len(m); n < 1 || n > MaxBatchWrites {
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
			v.add(renderWriteMap(m), "requestItems", "Map value must satisfy constraint: ["+
				"Member must have length less than or equal to 25, Member must have length greater than or equal to 1]")
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
		return apierr.Validationf(invalid + "A WriteRequest must contain exactly one of PutRequest or DeleteRequest")
	}
	if w.PutRequest != nil {
		return values(w.PutRequest.Item)
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
		constraints := "Member must have length less than or equal to 1024, Member must have length greater than or equal to 1"
		if ref != "" && len(ref) <= 1024 {
			constraints = "Member must satisfy regular expression pattern: " + namePattern +
				", Member must have length less than or equal to 255, Member must have length greater than or equal to 3"
		}
		v.add(rendered(), "requestItems", "Map keys must satisfy constraint: ["+constraints+"]")
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
