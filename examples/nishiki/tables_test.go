package main

import (
	"errors"
	"reflect"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go"

	"github.com/sortkeydb/sortkey/sortkeytest"
)

// TestTableAsDesigned reads the created table back: its keys, and every
// index with its key and projection as the design names them.
func TestTableAsDesigned(t *testing.T) {
	db := sortkeytest.New(t).Client()
	if err := CreateTable(ctx, db, DevTable); err != nil {
		t.Fatal(err)
	}
	out, err := db.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(DevTable)})
	if err != nil {
		t.Fatal(err)
	}
	tbl := out.Table
	equal(t, "table keys", keys(tbl.KeySchema), nil, "PK HASH, SK RANGE")
	equal(t, "deletion protection (dev)", aws.ToBool(tbl.DeletionProtectionEnabled), nil, false)
	got := map[string]string{}
	for _, g := range tbl.GlobalSecondaryIndexes {
		got[aws.ToString(g.IndexName)] = keys(g.KeySchema) + " " + string(g.Projection.ProjectionType) + " " + join(g.Projection.NonKeyAttributes)
	}
	equal(t, "indexes", got, nil, map[string]string{
		"UserAndGroupRelationship":      "GroupId HASH KEYS_ONLY ",
		"GroupAndContainerRelationship": "ContainerId HASH KEYS_ONLY ",
		"EMailAndUserIdRelationship":    "EMailAddress HASH KEYS_ONLY ",
		"InvitationHash":                "InvitationLinkHash HASH INCLUDE LinkExpiryDatetime",
	})
	if len(tbl.LocalSecondaryIndexes) != 0 {
		t.Fatalf("local indexes %v, the design has none", tbl.LocalSecondaryIndexes)
	}
}

func keys(ks []types.KeySchemaElement) string {
	var s []string
	for _, k := range ks {
		s = append(s, aws.ToString(k.AttributeName)+" "+string(k.KeyType))
	}
	return join(s)
}

func join(s []string) string {
	out := ""
	for i, v := range s {
		if i > 0 {
			out += ", "
		}
		out += v
	}
	return out
}

// TestCreateTableTwice is main's second run against one endpoint.
func TestCreateTableTwice(t *testing.T) {
	db := sortkeytest.New(t).Client()
	for range 2 {
		if err := CreateTable(ctx, db, DevTable); err != nil {
			t.Fatal(err)
		}
	}
}

// TestProdTableIsRetained: --env prod names the prod table, whose Retain
// policy is deletion protection.
func TestProdTableIsRetained(t *testing.T) {
	name, err := TableName("prod")
	equal(t, "prod table", name, err, "nishiki-table-prod-db")
	if _, err := TableName("staging"); err == nil {
		t.Fatal("an unknown environment named a table")
	}
	db := sortkeytest.New(t).Client()
	if err := CreateTable(ctx, db, name); err != nil {
		t.Fatal(err)
	}
	_, err = db.DeleteTable(ctx, &dynamodb.DeleteTableInput{TableName: aws.String(name)})
	var refused smithy.APIError
	if !errors.As(err, &refused) || refused.ErrorCode() != "ValidationException" {
		t.Fatalf("deleting the prod table: %v, want ValidationException", err)
	}
	if _, err := db.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(name)}); err != nil {
		t.Fatalf("the prod table is gone: %v", err)
	}
	if !reflect.DeepEqual(tableDefinition(DevTable).DeletionProtectionEnabled, aws.Bool(false)) {
		t.Fatal("the dev table is protected from deletion")
	}
}
