package apply

import (
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/sortkeydb/sortkey/internal/design"
)

// A design gives no capacity; a PROVISIONED table is created with
// DynamoDB's console default, and the change says so.
const defaultCapacity = 5

const payPerRequest = "PAY_PER_REQUEST"

// billing is the table's designed billing mode, PAY_PER_REQUEST unless
// it says otherwise.
func billing(t design.Table) string {
	if t.BillingMode == "" {
		return payPerRequest
	}
	return t.BillingMode
}

func provisioned(t design.Table) bool { return billing(t) != payPerRequest }

func throughput(t design.Table) *types.ProvisionedThroughput {
	if !provisioned(t) {
		return nil
	}
	return capacity()
}

func capacity() *types.ProvisionedThroughput {
	return &types.ProvisionedThroughput{ReadCapacityUnits: aws.Int64(defaultCapacity), WriteCapacityUnits: aws.Int64(defaultCapacity)}
}

func capacityNote(t design.Table) string {
	if !provisioned(t) {
		return ""
	}
	return fmt.Sprintf(noteCapacity, defaultCapacity, defaultCapacity)
}

func streamNote(t design.Table) string {
	if t.Stream == "" {
		return ""
	}
	return fmt.Sprintf(noteStream, t.Stream)
}

// CreateTableInput is the CreateTable request Apply sends to make t: for
// a tool that writes the request out rather than sends it.
func CreateTableInput(t design.Table) *dynamodb.CreateTableInput { return createInput(t) }

func createInput(t design.Table) *dynamodb.CreateTableInput {
	in := &dynamodb.CreateTableInput{
		TableName:             aws.String(t.Name),
		AttributeDefinitions:  definitions(t),
		KeySchema:             keySchema(tableKeys(t)),
		BillingMode:           types.BillingMode(billing(t)),
		ProvisionedThroughput: throughput(t),
	}
	for _, g := range t.GSIs {
		c := gsiCreate(t, g)
		in.GlobalSecondaryIndexes = append(in.GlobalSecondaryIndexes, types.GlobalSecondaryIndex{
			IndexName: c.IndexName, KeySchema: c.KeySchema, Projection: c.Projection, ProvisionedThroughput: c.ProvisionedThroughput})
	}
	for _, l := range t.LSIs {
		in.LocalSecondaryIndexes = append(in.LocalSecondaryIndexes, types.LocalSecondaryIndex{
			IndexName: aws.String(l.Name), KeySchema: keySchema(l.PartitionKey, l.SortKey), Projection: projection(l.Projection)})
	}
	for _, v := range t.VectorIndexes {
		in.VectorIndexes = append(in.VectorIndexes, vectorIndex(v))
	}
	if t.Stream != "" {
		in.StreamSpecification = &types.StreamSpecification{StreamEnabled: aws.Bool(true), StreamViewType: types.StreamViewType(t.Stream)}
	}
	return in
}

func gsiCreate(t design.Table, g design.Index) *types.CreateGlobalSecondaryIndexAction {
	return &types.CreateGlobalSecondaryIndexAction{
		IndexName:             aws.String(g.Name),
		KeySchema:             keySchema(g.PartitionKey, g.SortKey),
		Projection:            projection(g.Projection),
		ProvisionedThroughput: throughput(t),
	}
}

// tableKeys is the table's key as an index's: partition and sort.
func tableKeys(t design.Table) (design.KeyAttrs, design.KeyAttrs) {
	var sk design.KeyAttrs
	if t.SortKey != nil {
		sk = design.KeyAttrs{*t.SortKey}
	}
	return design.KeyAttrs{t.PartitionKey}, sk
}

func keySchema(pk, sk design.KeyAttrs) []types.KeySchemaElement {
	var out []types.KeySchemaElement
	for _, k := range pk {
		out = append(out, types.KeySchemaElement{AttributeName: aws.String(k.Name), KeyType: types.KeyTypeHash})
	}
	for _, k := range sk {
		out = append(out, types.KeySchemaElement{AttributeName: aws.String(k.Name), KeyType: types.KeyTypeRange})
	}
	return out
}

func projection(p design.Projection) *types.Projection {
	out := &types.Projection{ProjectionType: types.ProjectionType(p.Type)}
	if len(p.Attributes) > 0 {
		out.NonKeyAttributes = p.Attributes
	}
	return out
}

// definitions are the types of every key attribute of the table and its
// indexes, each once (Validate has refused conflicting types).
func definitions(t design.Table) []types.AttributeDefinition {
	var out []types.AttributeDefinition
	seen := map[string]bool{}
	for _, k := range keyAttrs(t) {
		if !seen[k.Name] {
			seen[k.Name] = true
			out = append(out, types.AttributeDefinition{AttributeName: aws.String(k.Name), AttributeType: types.ScalarAttributeType(k.Type)})
		}
	}
	return out
}

// keyAttrs is every attribute the table defines: the keys of the table
// and its indexes, and its vector indexes' search attributes, which
// DynamoDB types as it types keys.
func keyAttrs(t design.Table) []design.KeyAttr {
	pk, sk := tableKeys(t)
	out := append(append([]design.KeyAttr{}, pk...), sk...)
	for _, ix := range [][]design.Index{t.GSIs, t.LSIs} {
		for _, x := range ix {
			out = append(append(out, x.PartitionKey...), x.SortKey...)
		}
	}
	return append(out, searchAttrs(t)...)
}
