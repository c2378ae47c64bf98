package validate

import (
	"strings"

	"github.com/sortkeydb/sortkey/internal/apierr"
	"github.com/sortkeydb/sortkey/internal/protocol"
)

// Limits DynamoDB applies to one table's definition.
const (
	MaxGSIs = 20
	MaxLSIs = 5
	MaxTags = 50
)

// requireTableName is the service's answer to a control-plane request
// without a TableName: a fixed sentence (msgTableNameRequired), given
// before any model constraint is checked (the model's own null check would
// come first otherwise).
func requireTableName(name *string) error {
	if name == nil {
		return apierr.Validationf(msgTableNameRequired)
	}
	return nil
}

// TableName checks the TableName of a control-plane request that has no
// other member (DescribeTable, DeleteTable, DescribeTimeToLive). Since
// 2024 DynamoDB's model accepts a table ARN here (length 1..1024, no
// pattern); a plain name still gets the classic 3..255 and pattern checks.
func TableName(name *string, member string) error {
	if err := requireTableName(name); err != nil {
		return err
	}
	v := &violations{}
	tableNameModel(v, name, member)
	return v.err()
}

func tableNameModel(v *violations, name *string, member string) {
	if !v.present(name == nil, member) {
		return
	}
	n := *name
	if n == "" || len(n) > 1024 {
		v.length(n, member, 1, 1024)
		return
	}
	if !strings.HasPrefix(n, "arn:") {
		v.name(n, member)
	}
}

// CreateTable checks a CreateTable request: a missing TableName, then
// model constraints, all reported together, then members sortkey refuses,
// then the semantic rules in order. The quotas, the table's name and
// what exists already are the engine's, in that order.
func CreateTable(in *protocol.CreateTableInput) error {
	if err := requireTableName(in.TableName); err != nil {
		return err
	}
	if err := createTableModel(in); err != nil {
		return err
	}
	if err := Refused(in); err != nil {
		return err
	}
	return createTableRules(in)
}

func createTableModel(in *protocol.CreateTableInput) error {
	v := &violations{}
	tableNameModel(v, in.TableName, "tableName")
	keySchemaModel(v, in.KeySchema, "keySchema", 2)
	if v.present(in.AttributeDefinitions == nil, "attributeDefinitions") {
		attrDefsModel(v, in.AttributeDefinitions, "attributeDefinitions")
	}
	v.enum(in.BillingMode, "billingMode", billingModes)
	throughputModel(v, in.ProvisionedThroughput, "provisionedThroughput")
	for i := range in.GlobalSecondaryIndexes {
		gsiModel(v, &in.GlobalSecondaryIndexes[i], item("globalSecondaryIndexes", i))
	}
	for i := range in.LocalSecondaryIndexes {
		lsiModel(v, &in.LocalSecondaryIndexes[i], item("localSecondaryIndexes", i))
	}
	streamModel(v, in.StreamSpecification, "streamSpecification")
	sseModel(v, in.SSESpecification, "sseSpecification")
	v.enum(in.TableClass, "tableClass", tableClasses)
	tagsModel(v, in.Tags, "tags")
	for i := range in.VectorIndexes {
		vectorIndexModel(v, &in.VectorIndexes[i], item("vectorIndexes", i))
	}
	return v.err()
}

func createTableRules(in *protocol.CreateTableInput) error {
	billing := deref(in.BillingMode)
	steps := []func() error{
		func() error { return KeySchema(in.KeySchema) },
		func() error { return indexKeyNames(in) },
		func() error { return createTableVectors(in) },
		func() error { return attributeCoverage(in) },
		func() error { return TableThroughput(in.ProvisionedThroughput, billing) },
		func() error { return OnDemandThroughput(in.OnDemandThroughput, billing, "") },
		func() error { return localIndexes(in) },
		func() error { return globalIndexes(in, billing) },
		func() error { return uniqueIndexNames(in) },
		func() error { return ProjectedAttributes(projectedCount(in)) },
		func() error { return createStream(in.StreamSpecification) },
		func() error { return TagCount(len(in.Tags)) },
	}
	for _, step := range steps {
		if err := step(); err != nil {
			return err
		}
	}
	return nil
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// attributeCoverage checks AttributeDefinitions against every key schema:
// the service words it differently with and without secondary indexes.
func attributeCoverage(in *protocol.CreateTableInput) error {
	defs, err := DefinitionMap(in.AttributeDefinitions)
	if err != nil {
		return err
	}
	if err := KeyAttributesDefined(in.KeySchema, defs); err != nil {
		return err
	}
	used := keysUsed(in)
	if len(in.GlobalSecondaryIndexes)+len(in.LocalSecondaryIndexes) == 0 {
		if len(defs) != len(used) {
			return apierr.Validationf(invalid + "Number of attributes in KeySchema does not exactly match number of attributes defined in AttributeDefinitions")
		}
		return nil
	}
	return indexCoverage(in.AttributeDefinitions, defs, used)
}

// msgKeysNotDefined lists the keys of a schema and the definitions given.
const msgKeysNotDefined = invalid + "Some index key attributes are not defined in AttributeDefinitions. Keys: [%s], AttributeDefinitions: [%s]"

func indexCoverage(list []protocol.AttributeDefinition, defs map[string]string, used []string) error {
	names := make([]string, len(list))
	for i, d := range list {
		names[i] = *d.AttributeName
	}
	usedSet := map[string]bool{}
	for _, u := range used {
		usedSet[u] = true
		if _, ok := defs[u]; !ok {
			return apierr.Validationf(msgKeysNotDefined, strings.Join(used, ", "), strings.Join(names, ", "))
		}
	}
	if len(usedSet) != len(defs) {
		return apierr.Validationf(invalid+"Some AttributeDefinitions are not used. AttributeDefinitions: [%s], keys used: [%s]",
			strings.Join(names, ", "), strings.Join(used, ", "))
	}
	return nil
}

// keysUsed lists every key attribute of the table and its indexes, and
// every vector index's search schema attribute, in the order the service
// prints them.
func keysUsed(in *protocol.CreateTableInput) []string {
	return javaHashSetOrder(append(keyNames(in), searchSchemaNames(in.VectorIndexes)...))
}

// keyNames lists the key attributes of the table and its GSIs and LSIs.
func keyNames(in *protocol.CreateTableInput) []string {
	var names []string
	add := func(ks []protocol.KeySchemaElement) {
		for _, k := range ks {
			names = append(names, *k.AttributeName)
		}
	}
	add(in.KeySchema)
	for _, g := range in.GlobalSecondaryIndexes {
		add(g.KeySchema)
	}
	for _, l := range in.LocalSecondaryIndexes {
		add(l.KeySchema)
	}
	return names
}

func localIndexes(in *protocol.CreateTableInput) error {
	if len(in.LocalSecondaryIndexes) == 0 {
		return nil
	}
	if len(in.KeySchema) < 2 {
		return apierr.Validationf(invalid + "Table KeySchema does not have a range key, which is required when specifying a LocalSecondaryIndex")
	}
	if len(in.LocalSecondaryIndexes) > MaxLSIs {
		return apierr.Validationf(invalid+"LocalSecondaryIndex count exceeds the per-table limit of %d", MaxLSIs)
	}
	for i := range in.LocalSecondaryIndexes {
		if err := LocalSecondaryIndex(&in.LocalSecondaryIndexes[i], *in.KeySchema[0].AttributeName); err != nil {
			return err
		}
	}
	return nil
}

// indexKeyNames refuses an index key schema that names an attribute twice.
// DynamoDB reports it before unused AttributeDefinitions (facts 19.1) and,
// for an index, with "same name" even when the attribute is defined
// (facts 19.2; only a table's own key schema gets fact 9's text).
func indexKeyNames(in *protocol.CreateTableInput) error {
	for _, g := range in.GlobalSecondaryIndexes {
		if err := uniqueKeyNames(g.KeySchema); err != nil {
			return err
		}
	}
	for _, l := range in.LocalSecondaryIndexes {
		if err := uniqueKeyNames(l.KeySchema); err != nil {
			return err
		}
	}
	return nil
}

// LocalSecondaryIndex checks one LSI against the table's hash key.
func LocalSecondaryIndex(l *protocol.LocalSecondaryIndex, tableHash string) error {
	if err := uniqueKeyNames(l.KeySchema); err != nil {
		return err
	}
	if err := KeySchema(l.KeySchema); err != nil {
		return err
	}
	name := *l.IndexName
	if len(l.KeySchema) < 2 {
		return apierr.Validationf(invalid+"Index KeySchema does not have a range key for index: %s", name)
	}
	if h := *l.KeySchema[0].AttributeName; h != tableHash {
		return apierr.Validationf(invalid+"Index KeySchema does not have the same leading hash key as table KeySchema for index: %s. index hash key: %s, table hash key: %s", name, h, tableHash)
	}
	return Projection(l.Projection)
}

func globalIndexes(in *protocol.CreateTableInput, billing string) error {
	if len(in.GlobalSecondaryIndexes) > MaxGSIs {
		return apierr.Validationf(invalid+"GlobalSecondaryIndex count exceeds the per-table limit of %d", MaxGSIs)
	}
	defs, _ := DefinitionMap(in.AttributeDefinitions)
	for i := range in.GlobalSecondaryIndexes {
		if err := GlobalSecondaryIndex(&in.GlobalSecondaryIndexes[i], defs, billing, true); err != nil {
			return err
		}
	}
	return nil
}

// uniqueIndexNames checks names across GSIs, LSIs and vector indexes:
// they share one namespace in Query's and SearchVectors' IndexName.
func uniqueIndexNames(in *protocol.CreateTableInput) error {
	seen := map[string]bool{}
	var names []string
	for _, g := range in.GlobalSecondaryIndexes {
		names = append(names, *g.IndexName)
	}
	for _, l := range in.LocalSecondaryIndexes {
		names = append(names, *l.IndexName)
	}
	names = append(names, vectorIndexNames(in.VectorIndexes)...)
	for _, n := range names {
		if seen[n] {
			return apierr.Validationf(invalid+"Duplicate index name: %s", n)
		}
		seen[n] = true
	}
	return nil
}

func projectedCount(in *protocol.CreateTableInput) int {
	n := 0
	for _, g := range in.GlobalSecondaryIndexes {
		n += len(g.Projection.NonKeyAttributes)
	}
	for _, l := range in.LocalSecondaryIndexes {
		n += len(l.Projection.NonKeyAttributes)
	}
	for i := range in.VectorIndexes {
		n += VectorProjected(&in.VectorIndexes[i])
	}
	return n
}

func createStream(s *protocol.StreamSpecification) error {
	if s == nil {
		return nil
	}
	if !*s.StreamEnabled && s.StreamViewType != nil {
		return apierr.Validationf(invalid + "Table is being created with a stream disabled, UpdateViewType should not be specified")
	}
	return streamViewRequired(s)
}

func streamViewRequired(s *protocol.StreamSpecification) error {
	if *s.StreamEnabled && s.StreamViewType == nil {
		return apierr.Validationf(invalid + "You must specify a StreamViewType when enabling a stream")
	}
	return nil
}

// TagCount checks a table's number of tags: those of one request, and,
// in the engine, those a table holds once TagResource's are added.
func TagCount(n int) error {
	if n > MaxTags {
		return apierr.Validationf(invalid+"The number of tags exceeds the limit of %d", MaxTags)
	}
	return nil
}
