package main

import (
	"flag"
	"maps"
	"slices"
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

// The design file declares the table CreateTables creates: its key, its
// two indexes with their projections, and TTL on ttl.
func TestDesignFileDeclaresTheTable(t *testing.T) {
	d := loadDesign(t)
	designtest.Tables(t, d, marketTable())
	if len(d.Tables) != 1 || d.Tables[0].TTL != ttlAttribute {
		t.Errorf("design tables %+v, want Market with TTL on %s", d.Tables, ttlAttribute)
	}
}

// Every item of the sample, and a cart still open, is exactly one of the
// design's entities, keyed in the table and both indexes as its templates
// say; the sample holds every entity.
func TestDesignFileDescribesEveryItem(t *testing.T) {
	d := loadDesign(t)
	f := newUncoveredFixture(t)
	if _, err := f.store.As(Okafor).OpenCart(ctx); err != nil {
		t.Fatal(err)
	}
	items := slices.Collect(maps.Values(f.contents(t)))
	designtest.Items(t, d, MarketTable, items)
	got := designtest.Entities(d, MarketTable, items)
	designtest.EveryEntity(t, d, got)
}

// design.yaml passes `sortkey design check`: no error, and only the two
// warnings it explains where it declares the elements (User in
// IdLookupIndex, pattern 2's filter).
func TestDesignFileChecks(t *testing.T) {
	designtest.Check(t, loadDesign(t), "index-extra", "filter-discard")
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
	if err := CreateTables(ctx, db); err != nil {
		t.Fatal(err)
	}
	designtest.Applied(ctx, t, db, loadDesign(t))
}
