package main

import (
	"flag"
	"testing"

	"github.com/sortkeydb/sortkey/examples/internal/designtest"
	"github.com/sortkeydb/sortkey/internal/design"
	"github.com/sortkeydb/sortkey/sortkeytest"
)

// designFile is the design this example implements, as a design file.
const designFile = "design.yaml"

// updateReadme rewrites README.md's design doc section instead of
// comparing it: go test -run TestReadmeIsTheDesignDoc -update-readme.
var updateReadme = flag.Bool("update-readme", false, "rewrite README.md's design doc section from "+designFile)

func loadDesign(t *testing.T) *design.Design {
	t.Helper()
	d, err := design.Load(designFile)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// The design file declares the table CreateTables creates: its key, the
// LSI and the three GSIs (GSI3's multi-attribute sort key included) with
// their projections.
func TestDesignFileDeclaresTheTable(t *testing.T) {
	designtest.Tables(t, loadDesign(t), tableDefinition("shop"))
}

// Every item of the sample is exactly one of the design's entities, keyed
// in the table and in each index as its templates say, and in no index
// it has no keys for; the sample holds every entity.
func TestDesignFileDescribesEveryItem(t *testing.T) {
	d := loadDesign(t)
	db := sortkeytest.New(t).Client()
	if err := CreateTables(ctx, db, "shop"); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadSample(ctx, sampleStore(db, "shop")); err != nil {
		t.Fatal(err)
	}
	items, err := designtest.Scan(ctx, db, "shop")
	if err != nil {
		t.Fatal(err)
	}
	designtest.Items(t, d, "shop", items)
	got := designtest.Entities(d, "shop", items)
	designtest.EveryEntity(t, d, got)
}

// design.yaml passes `sortkey design check`, without an error or a
// warning.
func TestDesignFileChecks(t *testing.T) {
	designtest.Check(t, loadDesign(t))
}

// README.md's design section is what `sortkey design doc design.yaml`
// writes, so the document cannot drift from the design.
func TestReadmeIsTheDesignDoc(t *testing.T) {
	designtest.Readme(t, loadDesign(t), "README.md", *updateReadme)
}

// Applying the design file to the tables the example creates finds
// nothing to change and no difference: what `sortkey design apply`
// builds from the file is what the example builds in code.
func TestDesignFileAppliesToTheCreatedTables(t *testing.T) {
	db := sortkeytest.New(t).Client()
	if err := CreateTables(ctx, db, "shop"); err != nil {
		t.Fatal(err)
	}
	designtest.Applied(ctx, t, db, loadDesign(t))
}
