package main

import (
	"context"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/sortkeydb/sortkey/sortkeytest"
)

// TestCreateTableAsDesigned checks the key schema and both indexes, and
// that creating the table again (a second run) is not an error.
func TestCreateTableAsDesigned(t *testing.T) {
	db := sortkeytest.New(t).Client()
	ctx := context.Background()
	for range 2 {
		if err := CreateTable(ctx, db, DefaultTable); err != nil {
			t.Fatal(err)
		}
	}
	out, err := db.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(DefaultTable)})
	if err != nil {
		t.Fatal(err)
	}
	d := out.Table
	if got := schema(d.KeySchema); got != "PK HASH, SK RANGE" {
		t.Errorf("table key %s", got)
	}
	want := map[string]string{GSI1: "GSI1PK HASH, GSI1SK RANGE ALL", GSI2: "GSI2PK HASH, GSI2SK RANGE ALL"}
	got := map[string]string{}
	for _, g := range d.GlobalSecondaryIndexes {
		got[*g.IndexName] = schema(g.KeySchema) + " " + string(g.Projection.ProjectionType)
	}
	if len(got) != 2 || got[GSI1] != want[GSI1] || got[GSI2] != want[GSI2] || len(d.LocalSecondaryIndexes) != 0 {
		t.Errorf("indexes %v, want %v", got, want)
	}
}

// TestSampleItemsAsDesigned checks the stored items against the design's
// example rows: a category, its name record, an ingredient in the
// category's collection with its GSI1 (id) and GSI2 (name) keys, and the
// ingredient's name record.
func TestSampleItemsAsDesigned(t *testing.T) {
	f := newUncoveredFixture(t, true) // reads stored records back by key
	f.wantStored("CATEGORY#1", "CATEGORY#1", map[string]any{"PK": "CATEGORY#1", "SK": "CATEGORY#1", "id": "1",
		"name": "vegetables", "shopOrder": 1.0, "ingredientCount": 12.0,
		"GSI2PK": "CATEGORYNAME#vegetables", "GSI2SK": "CATEGORYNAME#vegetables"})
	f.wantStored("CATEGORYNAME#vegetables", "CATEGORYNAME#vegetables", nameRecord("CATEGORYNAME#vegetables", "1", "vegetables"))
	f.wantStored("CATEGORY#1", "#INGREDIENT#01", map[string]any{"PK": "CATEGORY#1", "SK": "#INGREDIENT#01",
		"id": "01", "name": "tomatoes", "categoryId": "1", "usedBy": 2.0,
		"GSI1PK": "INGREDIENT#01", "GSI1SK": "INGREDIENT#01",
		"GSI2PK": "INGREDIENTNAME#tomatoes", "GSI2SK": "INGREDIENTNAME#tomatoes"})
	f.wantStored("INGREDIENTNAME#tomatoes", "INGREDIENTNAME#tomatoes", nameRecord("INGREDIENTNAME#tomatoes", "01", "tomatoes"))
	f.wantStored("INGREDIENTID#01", "INGREDIENTID#01", idRecord("INGREDIENTID#01", "01"))
	f.wantStored("RECIPE#r1", "#INGREDIENT#02", map[string]any{"PK": "RECIPE#r1", "SK": "#INGREDIENT#02",
		"recipeId": "r1", "ingredientId": "02", "amount": 400.0, "unit": "g"})
	f.wantStored("MENU#w1", "#MENUITEM#w1-1", map[string]any{"PK": "MENU#w1", "SK": "#MENUITEM#w1-1",
		"id": "w1-1", "menuId": "w1", "name": "Monday", "recipeId": "r1",
		"GSI1PK": "MENUITEM#w1-1", "GSI1SK": "MENUITEM#w1-1",
		"GSI2PK": "MENUITEMNAME#w1#Monday", "GSI2SK": "MENUITEMNAME#w1#Monday"})
}
