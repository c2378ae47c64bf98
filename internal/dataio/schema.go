package dataio

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Schema is what ImportTable's TableCreationParameters say of a table's
// shape: its keys, the attribute definitions they need, and global
// secondary indexes (ImportTable creates no local secondary indexes).
type Schema struct {
	KeySchema            []types.KeySchemaElement
	AttributeDefinitions []types.AttributeDefinition
	GlobalIndexes        []types.GlobalSecondaryIndex
}

// KeysSchema is the schema of a table with the given keys, each
// NAME:TYPE with TYPE S, N or B; sortKey may be empty.
func KeysSchema(partitionKey, sortKey string) (Schema, error) {
	var s Schema
	for _, k := range []struct {
		spec string
		kind types.KeyType
	}{{partitionKey, types.KeyTypeHash}, {sortKey, types.KeyTypeRange}} {
		if k.spec == "" {
			continue
		}
		name, typ, err := parseKey(k.spec)
		if err != nil {
			return Schema{}, err
		}
		s.KeySchema = append(s.KeySchema, types.KeySchemaElement{AttributeName: aws.String(name), KeyType: k.kind})
		s.AttributeDefinitions = append(s.AttributeDefinitions, types.AttributeDefinition{AttributeName: aws.String(name), AttributeType: typ})
	}
	return s, s.check()
}

func parseKey(spec string) (string, types.ScalarAttributeType, error) {
	name, typ, ok := strings.Cut(spec, ":")
	switch t := types.ScalarAttributeType(strings.ToUpper(typ)); {
	case !ok || name == "":
	case t == types.ScalarAttributeTypeS, t == types.ScalarAttributeTypeN, t == types.ScalarAttributeTypeB:
		return name, t, nil
	}
	return "", "", fmt.Errorf(msgKeyFlag, spec)
}

// SchemaFromTable is an existing table's keys and global secondary
// indexes, read with DescribeTable (from DynamoDB or any endpoint).
func SchemaFromTable(ctx context.Context, c API, table string) (Schema, error) {
	out, err := c.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(table)})
	if err != nil {
		return Schema{}, err
	}
	t := out.Table
	s := Schema{KeySchema: t.KeySchema, AttributeDefinitions: t.AttributeDefinitions}
	for _, g := range t.GlobalSecondaryIndexes {
		s.GlobalIndexes = append(s.GlobalIndexes, types.GlobalSecondaryIndex{
			IndexName: g.IndexName, KeySchema: g.KeySchema, Projection: g.Projection})
	}
	s.AttributeDefinitions = s.usedDefinitions()
	return s, s.check()
}

// usedDefinitions drops definitions only local secondary indexes used:
// CreateTable refuses a definition no key uses.
func (s Schema) usedDefinitions() []types.AttributeDefinition {
	used := map[string]bool{}
	for _, k := range s.allKeys() {
		used[aws.ToString(k.AttributeName)] = true
	}
	var defs []types.AttributeDefinition
	for _, d := range s.AttributeDefinitions {
		if used[aws.ToString(d.AttributeName)] {
			defs = append(defs, d)
		}
	}
	return defs
}

func (s Schema) allKeys() []types.KeySchemaElement {
	keys := append([]types.KeySchemaElement(nil), s.KeySchema...)
	for _, g := range s.GlobalIndexes {
		keys = append(keys, g.KeySchema...)
	}
	return keys
}

func (s Schema) check() error {
	if len(s.KeySchema) == 0 {
		return errors.New(msgNoKeySchema)
	}
	return nil
}

func (s Schema) createInput(table string) *dynamodb.CreateTableInput {
	return &dynamodb.CreateTableInput{
		TableName: aws.String(table), KeySchema: s.KeySchema, AttributeDefinitions: s.AttributeDefinitions,
		GlobalSecondaryIndexes: s.GlobalIndexes, BillingMode: types.BillingModePayPerRequest,
	}
}

// keyNames are the table's own key attributes, which identify an item.
func (s Schema) keyNames() []string {
	names := make([]string, len(s.KeySchema))
	for i, k := range s.KeySchema {
		names[i] = aws.ToString(k.AttributeName)
	}
	return names
}

// keyTypes are the types of every key attribute, the table's and its
// indexes': the CSV columns that are not strings.
func (s Schema) keyTypes() map[string]types.ScalarAttributeType {
	m := map[string]types.ScalarAttributeType{}
	for _, d := range s.AttributeDefinitions {
		m[aws.ToString(d.AttributeName)] = d.AttributeType
	}
	return m
}
