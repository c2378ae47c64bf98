package main

import (
	"testing"

	"github.com/sortkeydb/sortkey/examples/internal/capacity"
)

// metered is f's store on a client that reports what each request
// consumes.
func (f *fixture) metered() (*Store, *capacity.Meter) {
	db, meter := capacity.Metered(f.s.db)
	return NewStore(db, f.s.table), meter
}

// TestRecipeReadsPartiQL: GetRecipe (strongly consistent, on the table)
// and GetRecipeByName (on GSI2) written as PartiQL read the same recipe at
// the same cost, and miss the same way.
func TestRecipeReadsPartiQL(t *testing.T) {
	f := newFixture(t, true)
	s, meter := f.metered()
	for _, id := range []string{"r1", "r3"} {
		want, err := s.GetRecipe(f.ctx, id)
		f.must(err)
		nativeRCU := meter.Take()
		got, err := s.GetRecipePartiQL(f.ctx, id)
		wantEqual(t, got, err, want)
		capacity.Same(t, "GetRecipe "+id, nativeRCU, meter.Take())
	}
	_, err := s.GetRecipePartiQL(f.ctx, "r9")
	wantErr(t, err, ErrNotFound)
	meter.Take()

	want, err := s.GetRecipeByName(f.ctx, "tomato soup")
	f.must(err)
	nativeRCU := meter.Take()
	got, err := s.GetRecipeByNamePartiQL(f.ctx, "tomato soup")
	wantEqual(t, got, err, Recipe{ID: "r3", Name: "tomato soup", Servings: 4, Minutes: 30, IngredientCount: 4, UsedBy: 2})
	wantEqual(t, got, nil, want)
	capacity.Same(t, "GetRecipeByName", nativeRCU, meter.Take())
	_, err = s.GetRecipeByNamePartiQL(f.ctx, "lasagne")
	wantErr(t, err, ErrNotFound)
}

// TestUpdateRecipePartiQL updates the risotto on two copies of the sample,
// one with each form: the same item is stored, at the same cost, and a
// missing recipe is refused, not created.
func TestUpdateRecipePartiQL(t *testing.T) {
	native, partiql := newFixture(t, true), newFixture(t, true)
	ns, nmeter := native.metered()
	ps, pmeter := partiql.metered()
	native.must(ns.UpdateRecipe(native.ctx, "r2", 4, 40))
	partiql.must(ps.UpdateRecipePartiQL(partiql.ctx, "r2", 4, 40))
	capacity.Same(t, "UpdateRecipe", nmeter.Take(), pmeter.Take())
	partiql.wantStored("RECIPE#r2", "RECIPE#r2", native.stored("RECIPE#r2", "RECIPE#r2"))
	r, err := ps.GetRecipe(partiql.ctx, "r2")
	wantEqual(t, r, err, Recipe{ID: "r2", Name: "mushroom risotto", Servings: 4, Minutes: 40, IngredientCount: 5, UsedBy: 1})
	wantErr(t, ps.UpdateRecipePartiQL(partiql.ctx, "r9", 1, 1), ErrNotFound)
	partiql.wantStored("RECIPE#r9", "RECIPE#r9", nil)
}
