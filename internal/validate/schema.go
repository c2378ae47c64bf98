package validate

import (
	"fmt"
	"slices"
	"strings"
	"unicode"

	"github.com/sortkeydb/sortkey/internal/apierr"
	"github.com/sortkeydb/sortkey/internal/protocol"
)

// Model checks shared by CreateTable, UpdateTable and the index helpers.

// keySchemaModel checks a key schema's shape; max is its length limit: 2
// for a table or an LSI, none (-1) for a GSI, whose multi-attribute keys
// GSIKeySchema limits.
func keySchemaModel(v *violations, ks []protocol.KeySchemaElement, member string, max int) {
	if !v.present(ks == nil, member) {
		return
	}
	v.count(renderKeySchema(ks), len(ks), member, 1, max)
	for i, k := range ks {
		m := item(member, i)
		if v.present(k.AttributeName == nil, m+".attributeName") {
			v.length(*k.AttributeName, m+".attributeName", 1, 255)
		}
		if v.present(k.KeyType == nil, m+".keyType") {
			v.enum(k.KeyType, m+".keyType", keyTypes)
		}
	}
}

func attrDefsModel(v *violations, defs []protocol.AttributeDefinition, member string) {
	for i, d := range defs {
		m := item(member, i)
		if v.present(d.AttributeName == nil, m+".attributeName") {
			v.length(*d.AttributeName, m+".attributeName", 1, 255)
		}
		if v.present(d.AttributeType == nil, m+".attributeType") {
			v.enum(d.AttributeType, m+".attributeType", attrTypes)
		}
	}
}

// throughputModel checks write before read: that is the order of a real
// two-error report for a zero-capacity request.
func throughputModel(v *violations, pt *protocol.ProvisionedThroughput, member string) {
	if pt == nil {
		return
	}
	if v.present(pt.WriteCapacityUnits == nil, member+".writeCapacityUnits") {
		v.atLeast(pt.WriteCapacityUnits, member+".writeCapacityUnits", 1)
	}
	if v.present(pt.ReadCapacityUnits == nil, member+".readCapacityUnits") {
		v.atLeast(pt.ReadCapacityUnits, member+".readCapacityUnits", 1)
	}
}

func projectionModel(v *violations, p *protocol.Projection, member string) {
	if !v.present(p == nil, member) {
		return
	}
	v.enum(p.ProjectionType, member+".projectionType", projTypes)
	if p.NonKeyAttributes == nil {
		return
	}
	nka := member + ".nonKeyAttributes"
	v.count(renderStrings(p.NonKeyAttributes), len(p.NonKeyAttributes), nka, 1, 20)
	for i, a := range p.NonKeyAttributes {
		v.length(a, item(nka, i), 1, 255)
	}
}

func indexNameModel(v *violations, name *string, member string) {
	if v.present(name == nil, member) {
		v.name(*name, member)
	}
}

func gsiModel(v *violations, g *protocol.GlobalSecondaryIndex, member string) {
	indexNameModel(v, g.IndexName, member+".indexName")
	keySchemaModel(v, g.KeySchema, member+".keySchema", -1)
	projectionModel(v, g.Projection, member+".projection")
	throughputModel(v, g.ProvisionedThroughput, member+".provisionedThroughput")
}

func lsiModel(v *violations, l *protocol.LocalSecondaryIndex, member string) {
	indexNameModel(v, l.IndexName, member+".indexName")
	keySchemaModel(v, l.KeySchema, member+".keySchema", 2)
	projectionModel(v, l.Projection, member+".projection")
}

func streamModel(v *violations, s *protocol.StreamSpecification, member string) {
	if s == nil {
		return
	}
	v.present(s.StreamEnabled == nil, member+".streamEnabled")
	v.enum(s.StreamViewType, member+".streamViewType", streamViews)
}

func sseModel(v *violations, s *protocol.SSESpecification, member string) {
	if s != nil {
		v.enum(s.SSEType, member+".sseType", sseTypes)
	}
}

func tagsModel(v *violations, tags []protocol.Tag, member string) {
	for i, t := range tags {
		m := item(member, i)
		if v.present(t.Key == nil, m+".key") {
			v.length(*t.Key, m+".key", 1, 128)
			v.tagText(*t.Key, m+".key")
		}
		if v.present(t.Value == nil, m+".value") {
			v.length(*t.Value, m+".value", 0, 256)
			v.tagText(*t.Value, m+".value")
		}
	}
}

// tagPattern is the characters a tag key or value may hold: letters,
// digits, whitespace and + - = . _ : / (facts 33.3; the message is not
// pinned, so it follows the model's pattern wording).
const tagPattern = `^([\p{L}\p{Z}\p{N}_.:/=+\-]*)$`

// tagText checks a tag key or value against tagPattern.
func (v *violations) tagText(s, member string) {
	if strings.IndexFunc(s, badTagRune) >= 0 {
		v.add(quote(s), member, fmt.Sprintf(cPattern, tagPattern))
	}
}

func badTagRune(r rune) bool {
	return !unicode.IsLetter(r) && !unicode.IsNumber(r) && !unicode.IsSpace(r) && !unicode.In(r, unicode.Z) &&
		!strings.ContainsRune("+-=._:/", r)
}

// Semantic rules, each reported alone.

const invalid = "One or more parameter values were invalid: "

// keyNotDefined is the service's answer to a key schema naming an
// attribute that has no definition, and to one naming an attribute twice
// (observed for a table keyed HASH pk, RANGE pk with pk defined).
const keyNotDefined = "Invalid KeySchema: Some index key attribute have no definition"

// The rules of a GSI's multi-attribute key schema, as the service words
// them (observed on AWS).
const (
	msgFirstNotHash  = "Invalid KeySchema: The first KeySchemaElement is not a HASH key type"
	msgHashFirst     = invalid + "All HASH key attributes must precede RANGE key attributes in the KeySchema"
	msgTooManyKeys   = invalid + "The KeySchema exceeds the maximum allowed number of %s key attributes"
	msgKeyNamedTwice = "The KeySchema contains multiple key attributes with the same name"
)

// MaxKeyAttributes is how many HASH attributes, and how many RANGE ones,
// a GSI's key may have.
const MaxKeyAttributes = 4

// GSIKeySchema checks a GSI's key schema once the model checks passed:
// up to four HASH attributes, then up to four RANGE ones, all different.
// A schema of one HASH and at most one RANGE gets KeySchema's checks.
func GSIKeySchema(ks []protocol.KeySchemaElement) error {
	if len(ks) == 0 || *ks[0].KeyType != "HASH" {
		return KeySchema(ks)
	}
	hashes := 0
	for hashes < len(ks) && *ks[hashes].KeyType == "HASH" {
		hashes++
	}
	if hashes == 1 && len(ks) <= 2 {
		return KeySchema(ks)
	}
	return multiKeySchema(ks, hashes)
}

// multiKeySchema checks a key schema whose first hashes elements are HASH.
func multiKeySchema(ks []protocol.KeySchemaElement, hashes int) error {
	if slices.ContainsFunc(ks[hashes:], func(k protocol.KeySchemaElement) bool { return *k.KeyType == "HASH" }) {
		return apierr.Validationf(msgHashFirst)
	}
	if hashes > MaxKeyAttributes {
		return apierr.Validationf(msgTooManyKeys, "HASH")
	}
	if len(ks)-hashes > MaxKeyAttributes {
		return apierr.Validationf(msgTooManyKeys, "RANGE")
	}
	return uniqueKeyNames(ks)
}

// indexKeyShape checks a GSI's key schema, a repeated name first: an index
// that names an attribute twice is told "same name" (facts 19.2).
func indexKeyShape(ks []protocol.KeySchemaElement) error {
	if err := uniqueKeyNames(ks); err != nil {
		return err
	}
	return GSIKeySchema(ks)
}

func uniqueKeyNames(ks []protocol.KeySchemaElement) error {
	names := map[string]bool{}
	for _, k := range ks {
		if names[*k.AttributeName] {
			return apierr.Validationf(msgKeyNamedTwice)
		}
		names[*k.AttributeName] = true
	}
	return nil
}

// KeySchema checks a table's or an index's key schema once the model checks
// passed: HASH first, RANGE second, two different attributes.
func KeySchema(ks []protocol.KeySchemaElement) error {
	if len(ks) == 0 {
		return nil
	}
	if *ks[0].KeyType != "HASH" {
		return apierr.Validationf(msgFirstNotHash)
	}
	if len(ks) < 2 {
		return nil
	}
	if *ks[1].KeyType != "RANGE" {
		return apierr.Validationf("Invalid KeySchema: The second KeySchemaElement is not a RANGE key type")
	}
	if *ks[0].AttributeName == *ks[1].AttributeName {
		return apierr.Validationf(keyNotDefined)
	}
	return nil
}

// KeyAttributesDefined checks that every attribute of a key schema has a
// definition; UpdateTable's index creation uses it against the request's
// AttributeDefinitions.
func KeyAttributesDefined(ks []protocol.KeySchemaElement, defs map[string]string) error {
	for _, k := range ks {
		if _, ok := defs[*k.AttributeName]; !ok {
			return apierr.Validationf(keyNotDefined)
		}
	}
	return nil
}

// Projection checks that a projection names its type (the model lets it
// out, the service does not) and the pairing of ProjectionType and
// NonKeyAttributes.
func Projection(p *protocol.Projection) error {
	if p.ProjectionType == nil {
		return apierr.Validationf(invalid + "Unknown ProjectionType: null")
	}
	typ := *p.ProjectionType
	if typ == "INCLUDE" && len(p.NonKeyAttributes) == 0 {
		return apierr.Validationf(invalid + "ProjectionType is INCLUDE, but NonKeyAttributes is not specified")
	}
	if typ != "INCLUDE" && p.NonKeyAttributes != nil {
		return apierr.Validationf(invalid+"ProjectionType is %s, but NonKeyAttributes is specified", typ)
	}
	return uniqueNonKeyAttributes(p.NonKeyAttributes)
}

// MaxProjectedAttributes is DynamoDB's limit on NonKeyAttributes summed over
// every secondary index of a table; the same attribute in two indexes
// counts twice.
const MaxProjectedAttributes = 100

// ProjectedAttributes checks that total; the engine calls it with the
// existing indexes' count added when UpdateTable creates an index.
func ProjectedAttributes(total int) error {
	if total > MaxProjectedAttributes {
		return apierr.Validationf(invalid+"Number of projected attributes in all indexes exceeds limit of %d, number of projected attributes: %d", MaxProjectedAttributes, total)
	}
	return nil
}

// IndexThroughput checks a GSI's ProvisionedThroughput against the table's
// billing mode. creating selects CreateTable's wording; UpdateTable's index
// creation words the PAY_PER_REQUEST case differently.
func IndexThroughput(name string, pt *protocol.ProvisionedThroughput, billing string, creating bool) error {
	switch {
	case billing == "PAY_PER_REQUEST" && pt != nil && creating:
		return apierr.Validationf(invalid+"ProvisionedThroughput should not be specified for index: %s when BillingMode is PAY_PER_REQUEST", name)
	case billing == "PAY_PER_REQUEST" && pt != nil:
		return apierr.Validationf(invalid+"Neither ReadCapacityUnits nor WriteCapacityUnits can be specified for index: %s when BillingMode is PAY_PER_REQUEST", name)
	case billing != "PAY_PER_REQUEST" && pt == nil:
		return apierr.Validationf(invalid+"ProvisionedThroughput is not specified for index: %s", name)
	}
	return nil
}

// GlobalSecondaryIndex runs the semantic checks of one GSI definition that
// passed the model checks: key schema, definitions, projection, throughput
// (provisioned and on-demand maximum).
func GlobalSecondaryIndex(g *protocol.GlobalSecondaryIndex, defs map[string]string, billing string, creating bool) error {
	if err := indexKeyShape(g.KeySchema); err != nil {
		return err
	}
	if err := KeyAttributesDefined(g.KeySchema, defs); err != nil {
		return err
	}
	if err := Projection(g.Projection); err != nil {
		return err
	}
	if err := IndexThroughput(*g.IndexName, g.ProvisionedThroughput, billing, creating); err != nil {
		return err
	}
	return OnDemandThroughput(g.OnDemandThroughput, billing, *g.IndexName)
}

// TableThroughput checks the table's own ProvisionedThroughput against its
// billing mode ("" means the PROVISIONED default).
func TableThroughput(pt *protocol.ProvisionedThroughput, billing string) error {
	if billing == "PAY_PER_REQUEST" && pt != nil {
		return apierr.Validationf(invalid + "Neither ReadCapacityUnits nor WriteCapacityUnits can be specified when BillingMode is PAY_PER_REQUEST")
	}
	if billing != "PAY_PER_REQUEST" && pt == nil {
		return apierr.Validationf(invalid + "ReadCapacityUnits and WriteCapacityUnits must both be specified when BillingMode is PROVISIONED")
	}
	return nil
}

// DefinitionMap indexes attribute definitions by name, reporting a name
// defined twice.
func DefinitionMap(defs []protocol.AttributeDefinition) (map[string]string, error) {
	m := make(map[string]string, len(defs))
	for _, d := range defs {
		if _, dup := m[*d.AttributeName]; dup {
			return nil, apierr.Validationf(invalid+"Duplicate AttributeName in AttributeDefinitions: %s", *d.AttributeName)
		}
		m[*d.AttributeName] = *d.AttributeType
	}
	return m, nil
}
