package validate

import (
	"strings"

	"github.com/sortkeydb/sortkey/internal/apierr"
	"github.com/sortkeydb/sortkey/internal/attr"
	"github.com/sortkeydb/sortkey/internal/expr"
	"github.com/sortkeydb/sortkey/internal/protocol"
	"github.com/sortkeydb/sortkey/internal/vector"
)

// Vector indexes (CreateTable's VectorIndexes, UpdateTable's
// VectorIndexUpdates) and SearchVectors: what the request alone decides.
// UpdateTable's rules that need the table (its billing mode, its other
// indexes) are the engine's; the exported texts below are for it, so that
// CreateTable and UpdateTable refuse the same thing in the same words.

// The vector enums, in the order the API Reference lists them.
var (
	distanceFunctions = []string{"COSINE", "EUCLIDEAN", "DOT_PRODUCT"}
	searchSchemaTypes = []string{"HASH", "INLINE_FILTER"}
)

// Texts DynamoDB documents (developer guide, vector search troubleshooting).
const (
	MsgSearchSchemaUndefined = "One element in SearchSchema is not defined in attribute definitions"
	msgTopKRange             = "Provided TopK value is out of valid range"
)

// Texts for rules the documentation states without a message: sortkey's
// own wording, in the service's style (listed in docs/COMPATIBILITY.md).
const (
	MsgVectorOnDemand   = invalid + "Vector indexes are supported only on tables in on-demand (PAY_PER_REQUEST) capacity mode"
	MsgVectorDimensions = invalid + "Vector indexes on attribute %s must all have the same Dimensions: index %s has %d"
	MsgVectorOnKey      = invalid + "The vector attribute %s is a key attribute of the table or of an index"

	MsgVectorCount       = invalid + "VectorIndex count exceeds the per-table limit of %d"
	msgDimensionsLimit   = invalid + "Dimensions for vector index: %s exceeds the limit of %d"
	msgSearchSchemaTwice = invalid + "Duplicate AttributeName in SearchSchema for vector index: %s: %s"
	msgHashElements      = invalid + "SearchSchema for vector index: %s has more than one HASH element"
	msgInlineFilters     = invalid + "SearchSchema for vector index: %s has more than %d INLINE_FILTER elements"
	msgVectorInSchema    = invalid + "The vector attribute %s of vector index: %s cannot be in its SearchSchema"
	msgVectorDefined     = invalid + "The vector attribute %s of vector index: %s cannot be in AttributeDefinitions: a vector is a list of numbers (L), not S, N or B"

	msgVectorUpdatesOne  = invalid + "Only one vector index can be created or deleted per UpdateTable request"
	msgVectorWithGSI     = invalid + "VectorIndexUpdates and GlobalSecondaryIndexUpdates cannot be specified in the same request"
	msgVectorUpdateNone  = invalid + "One of VectorIndexUpdate.Create or VectorIndexUpdate.Delete must be specified"
	msgVectorUpdateBoth  = invalid + "Only one of VectorIndexUpdate.Create or VectorIndexUpdate.Delete can be specified"
	msgSearchVectorLong  = "The SearchVector has %d elements, which exceeds the limit of %d"
	msgSearchVectorValue = "Invalid SearchVector: %s"
	nullSearchCondition  = "SearchConditionExpression is null"
)

// vectorIndexModel checks one vector index's members in the order of the
// shape, as gsiModel does a GSI's.
func vectorIndexModel(v *violations, x *protocol.VectorIndex, member string) {
	indexNameModel(v, x.IndexName, member+".indexName")
	vectorAttributeModel(v, x.VectorAttribute, member+".vectorAttribute")
	if v.present(x.Dimensions == nil, member+".dimensions") {
		v.atLeast(x.Dimensions, member+".dimensions", 1)
	}
	if v.present(x.DistanceFunction == nil, member+".distanceFunction") {
		v.enum(x.DistanceFunction, member+".distanceFunction", distanceFunctions)
	}
	projectionModel(v, x.Projection, member+".projection")
	searchSchemaModel(v, x.SearchSchema, member+".searchSchema")
}

func vectorAttributeModel(v *violations, a *protocol.VectorAttribute, member string) {
	if v.present(a == nil, member) && v.present(a.AttributeName == nil, member+".attributeName") {
		v.length(*a.AttributeName, member+".attributeName", 1, 255)
	}
}

// searchSchemaModel checks an optional SearchSchema: given, it has an
// element; an element's name has the API Reference's 65535 limit (the
// AttributeDefinitions it must match limit it to 255 anyway).
func searchSchemaModel(v *violations, s []protocol.SearchSchemaItem, member string) {
	if s == nil {
		return
	}
	v.count(renderSearchSchema(s), len(s), member, 1, -1)
	for i, e := range s {
		m := item(member, i)
		if v.present(e.AttributeName == nil, m+".attributeName") {
			v.length(*e.AttributeName, m+".attributeName", 0, 65535)
		}
		if v.present(e.SearchSchemaElementType == nil, m+".searchSchemaElementType") {
			v.enum(e.SearchSchemaElementType, m+".searchSchemaElementType", searchSchemaTypes)
		}
	}
}

func renderSearchSchema(s []protocol.SearchSchemaItem) string {
	parts := make([]string, len(s))
	for i, e := range s {
		parts[i] = "SearchSchemaElement(attributeName=" + javaString(e.AttributeName) +
			", searchSchemaElementType=" + javaString(e.SearchSchemaElementType) + ")"
	}
	return quote("[" + strings.Join(parts, ", ") + "]")
}

// vectorIndexRules checks one vector index that passed the model checks
// against the request's attribute definitions: the rules CreateTable and
// UpdateTable's Create share.
func vectorIndexRules(x *protocol.VectorIndex, defs map[string]string) error {
	name, vec := *x.IndexName, *x.VectorAttribute.AttributeName
	if *x.Dimensions > vector.MaxDimensions {
		return apierr.Validationf(msgDimensionsLimit, name, vector.MaxDimensions)
	}
	if err := searchSchemaShape(name, x.SearchSchema); err != nil {
		return err
	}
	if inSearchSchema(x.SearchSchema, vec) {
		return apierr.Validationf(msgVectorInSchema, vec, name)
	}
	if err := SearchSchemaDefined(x.SearchSchema, defs); err != nil {
		return err
	}
	if _, ok := defs[vec]; ok {
		return apierr.Validationf(msgVectorDefined, vec, name)
	}
	return Projection(x.Projection)
}

// searchSchemaShape refuses an attribute named twice, a second HASH and
// more INLINE_FILTERs than vector.MaxInlineFilters.
func searchSchemaShape(index string, s []protocol.SearchSchemaItem) error {
	seen := make(map[string]bool, len(s))
	hashes, filters := 0, 0
	for _, e := range s {
		if seen[*e.AttributeName] {
			return apierr.Validationf(msgSearchSchemaTwice, index, *e.AttributeName)
		}
		seen[*e.AttributeName] = true
		if *e.SearchSchemaElementType == "HASH" {
			hashes++
		} else {
			filters++
		}
	}
	if hashes > 1 {
		return apierr.Validationf(msgHashElements, index)
	}
	if filters > vector.MaxInlineFilters {
		return apierr.Validationf(msgInlineFilters, index, vector.MaxInlineFilters)
	}
	return nil
}

func inSearchSchema(s []protocol.SearchSchemaItem, name string) bool {
	for _, e := range s {
		if *e.AttributeName == name {
			return true
		}
	}
	return false
}

// SearchSchemaDefined requires a definition, and so a scalar type, for
// every search schema attribute, as for a GSI's keys (UpdateTable checks
// it against the table's definitions with the request's merged in).
func SearchSchemaDefined(s []protocol.SearchSchemaItem, defs map[string]string) error {
	for _, e := range s {
		if _, ok := defs[*e.AttributeName]; !ok {
			return apierr.Validationf(MsgSearchSchemaUndefined)
		}
	}
	return nil
}

// VectorProjected is what a vector index adds to the table's count of
// projected attributes (MaxProjectedAttributes): its NonKeyAttributes,
// the vector attribute and each INLINE_FILTER; a HASH element is a key
// and does not count.
func VectorProjected(x *protocol.VectorIndex) int {
	n := 1
	if x.Projection != nil {
		n += len(x.Projection.NonKeyAttributes)
	}
	for _, e := range x.SearchSchema {
		if e.SearchSchemaElementType != nil && *e.SearchSchemaElementType == "INLINE_FILTER" {
			n++
		}
	}
	return n
}

// createTableVectors checks CreateTable's vector indexes: the table's
// billing mode and their number, then each index in turn against the
// table the request describes, as the engine checks an index UpdateTable
// adds to an existing table.
func createTableVectors(in *protocol.CreateTableInput) error {
	if len(in.VectorIndexes) == 0 {
		return nil
	}
	if deref(in.BillingMode) != "PAY_PER_REQUEST" { // absent is PROVISIONED
		return apierr.Validationf(MsgVectorOnDemand)
	}
	if len(in.VectorIndexes) > vector.MaxIndexesPerTable {
		return apierr.Validationf(MsgVectorCount, vector.MaxIndexesPerTable)
	}
	defs, err := DefinitionMap(in.AttributeDefinitions)
	if err != nil {
		return err
	}
	keys := keySet(keyNames(in))
	first := map[string]*protocol.VectorIndex{} // vector attribute -> its first index
	for i := range in.VectorIndexes {
		if err := createTableVector(&in.VectorIndexes[i], defs, keys, first); err != nil {
			return err
		}
	}
	return nil
}

// createTableVector checks one index of CreateTable: its vector attribute
// is no key (before the AttributeDefinitions rule, which a key would break
// less helpfully), its own rules, then one Dimensions per vector attribute.
func createTableVector(x *protocol.VectorIndex, defs map[string]string, keys map[string]bool, first map[string]*protocol.VectorIndex) error {
	vec := *x.VectorAttribute.AttributeName
	if keys[vec] {
		return apierr.Validationf(MsgVectorOnKey, vec)
	}
	if err := vectorIndexRules(x, defs); err != nil {
		return err
	}
	f, ok := first[vec]
	if !ok {
		first[vec] = x
		return nil
	}
	if *f.Dimensions != *x.Dimensions {
		return apierr.Validationf(MsgVectorDimensions, vec, *f.IndexName, *f.Dimensions)
	}
	return nil
}

func keySet(names []string) map[string]bool {
	set := make(map[string]bool, len(names))
	for _, n := range names {
		set[n] = true
	}
	return set
}

// searchSchemaNames lists every search schema attribute: definitions that
// only a search schema uses are used.
func searchSchemaNames(list []protocol.VectorIndex) []string {
	var names []string
	for _, x := range list {
		for _, e := range x.SearchSchema {
			names = append(names, *e.AttributeName)
		}
	}
	return names
}

// vectorIndexNames lists the vector indexes' names, which share one
// namespace with the GSIs' and LSIs' (all are ARNs under /index/).
func vectorIndexNames(list []protocol.VectorIndex) []string {
	names := make([]string, len(list))
	for i, x := range list {
		names[i] = *x.IndexName
	}
	return names
}

func vectorUpdateModel(v *violations, u *protocol.VectorIndexUpdate, member string) {
	if u.Create != nil {
		vectorIndexModel(v, u.Create, member+".create")
	}
	if u.Delete != nil {
		indexNameModel(v, u.Delete.IndexName, member+".delete.indexName")
	}
}

// vectorUpdates checks UpdateTable's VectorIndexUpdates: one index
// created or deleted per request, and not beside GSI changes; a new
// index's search schema must be defined in this request, as a new GSI's
// keys must.
func vectorUpdates(in *protocol.UpdateTableInput) error {
	switch n := len(in.VectorIndexUpdates); {
	case n == 0:
		return nil
	case len(in.GlobalSecondaryIndexUpdates) > 0:
		return apierr.Validationf(msgVectorWithGSI)
	case n > 1:
		return apierr.Validationf(msgVectorUpdatesOne)
	}
	u := &in.VectorIndexUpdates[0]
	if err := vectorUpdateAction(u); err != nil || u.Create == nil {
		return err
	}
	if deref(in.BillingMode) == "PROVISIONED" {
		return apierr.Validationf(MsgVectorOnDemand)
	}
	defs, err := DefinitionMap(in.AttributeDefinitions)
	if err != nil {
		return err
	}
	return vectorIndexRules(u.Create, defs)
}

func vectorUpdateAction(u *protocol.VectorIndexUpdate) error {
	switch {
	case u.Create == nil && u.Delete == nil:
		return apierr.Validationf(msgVectorUpdateNone)
	case u.Create != nil && u.Delete != nil:
		return apierr.Validationf(msgVectorUpdateBoth)
	}
	return nil
}

// SearchVectors checks what a SearchVectors request decides alone: the
// model constraints (all together), TopK's range, the search vector,
// then the expression maps as Query checks them. The index, its
// Dimensions and the SearchConditionExpression are the engine's.
func SearchVectors(in *protocol.SearchVectorsInput) error {
	if err := searchVectorsModel(in); err != nil {
		return err
	}
	if *in.TopK < vector.MinTopK || *in.TopK > vector.MaxTopK {
		return apierr.Validationf(msgTopKRange)
	}
	if err := searchVector(in.SearchVector); err != nil {
		return err
	}
	if err := searchParams(in); err != nil {
		return err
	}
	return expressionValues(in.ExpressionAttributeValues)
}

func searchVectorsModel(in *protocol.SearchVectorsInput) error {
	var v violations
	v.tableRef(in.TableName)
	indexNameModel(&v, in.IndexName, "indexName")
	if v.present(in.SearchVector == nil, "searchVector") {
		v.count(quote("[]"), len(in.SearchVector), "searchVector", 1, -1)
	}
	v.present(in.TopK == nil, "topK")
	v.enum(in.ReturnConsumedCapacity, "returnConsumedCapacity", consumedCapacitySet)
	return v.err()
}

// searchVector checks each element as an attribute value, then as the
// index will read it: an N whose magnitude fits a float32 (more precision
// is accepted and rounded). Whether its length is the index's Dimensions
// is the engine's to say.
func searchVector(list []attr.Value) error {
	if len(list) > vector.MaxDimensions {
		return apierr.Validationf(msgSearchVectorLong, len(list), vector.MaxDimensions)
	}
	for i := range list {
		if err := legacyValue(&list[i]); err != nil {
			return err
		}
	}
	if _, err := vector.FromAttribute(attr.Value{L: list}, len(list)); err != nil {
		return apierr.Validationf(msgSearchVectorValue, strings.TrimPrefix(err.Error(), "vector: "))
	}
	return nil
}

// searchParams refuses expression maps with nothing to use them (names
// need either expression, values the condition) and malformed maps.
func searchParams(in *protocol.SearchVectorsInput) error {
	if in.ExpressionAttributeNames != nil && in.SearchConditionExpression == nil && in.ProjectionExpression == nil {
		return apierr.Validationf(msgNamesUnusable)
	}
	if in.ExpressionAttributeValues != nil && in.SearchConditionExpression == nil {
		return apierr.Validationf(msgValuesUnusable, nullSearchCondition)
	}
	return expr.CheckMaps(in.ExpressionAttributeNames, in.ExpressionAttributeValues)
}
