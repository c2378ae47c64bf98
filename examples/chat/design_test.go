package main

import (
	"context"
	"flag"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"

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

// The design file declares the six tables CreateTables creates, their
// keys and their indexes with their projections.
func TestDesignFileDeclaresTheTables(t *testing.T) {
	designtest.Tables(t, loadDesign(t), Tables()...)
}

// Every item of the sample, in every table, is exactly one of the
// design's entities, keyed in the table and in its indexes as its
// templates say; the sample holds every entity.
func TestDesignFileDescribesEveryItem(t *testing.T) {
	d := loadDesign(t)
	e := newUncoveredEnv(t)
	got := map[string]int{}
	for _, def := range Tables() {
		table := aws.ToString(def.TableName)
		items, err := designtest.Scan(e.ctx, e.s.db, table)
		if err != nil {
			t.Fatal(err)
		}
		designtest.Items(t, d, table, items)
		for name, n := range designtest.Entities(d, table, items) {
			got[name] += n
		}
	}
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
	ctx := context.Background()
	db := sortkeytest.New(t).Client()
	if err := CreateTables(ctx, db); err != nil {
		t.Fatal(err)
	}
	designtest.Applied(ctx, t, db, loadDesign(t))
}
