package main

import (
	"fmt"
	"sync"
	"testing"
)

// racers runs n attempts at once and returns their errors, by attempt.
func racers(n int, attempt func(i int) error) []error {
	errs := make([]error, n)
	start := make(chan struct{})
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			<-start
			errs[i] = attempt(i)
		})
	}
	close(start)
	wg.Wait()
	return errs
}

// oneWinner checks that exactly one attempt succeeded and that every
// other one was cancelled at the name record, with these reasons.
func oneWinner(t *testing.T, errs []error, reasons ...string) int {
	t.Helper()
	winner := -1
	for i, err := range errs {
		if err == nil {
			if winner >= 0 {
				t.Fatalf("attempts %d and %d both succeeded", winner, i)
			}
			winner = i
			continue
		}
		wantErr(t, err, ErrNameTaken, reasons...)
	}
	if winner < 0 {
		t.Fatal("no attempt succeeded")
	}
	return winner
}

const racerCount = 8

// TestCreateCategoryRace: several clients create categories with one
// name at once; the name record lets exactly one in.
func TestCreateCategoryRace(t *testing.T) {
	f := newUncoveredFixture(t, false) // reads stored records back by key
	errs := racers(racerCount, func(i int) error {
		return f.s.CreateCategory(f.ctx, Category{ID: fmt.Sprint(10 + i), Name: "herbs"})
	})
	w := oneWinner(t, errs, "None", "ConditionalCheckFailed")
	id := fmt.Sprint(10 + w)
	f.wantStored("CATEGORYNAME#herbs", "CATEGORYNAME#herbs", nameRecord("CATEGORYNAME#herbs", id, "herbs"))
	for i := range racerCount {
		if i != w {
			f.wantStored("CATEGORY#"+fmt.Sprint(10+i), "CATEGORY#"+fmt.Sprint(10+i), nil)
		}
	}
	c, err := f.s.GetCategoryByName(f.ctx, "herbs")
	wantEqual(t, c, err, Category{ID: id, Name: "herbs"})
}

// TestCreateIngredientRace: the losers' transactions also counted them
// in the category; none of that is written.
func TestCreateIngredientRace(t *testing.T) {
	f := newFixture(t, true)
	errs := racers(racerCount, func(i int) error {
		return f.s.CreateIngredient(f.ctx, Ingredient{ID: fmt.Sprint(30 + i), Name: "basil", CategoryID: fmt.Sprint(1 + i%4)})
	})
	w := oneWinner(t, errs, "None", "ConditionalCheckFailed", "None", "None")
	i, err := f.s.GetIngredientByName(f.ctx, "basil")
	wantEqual(t, i, err, Ingredient{ID: fmt.Sprint(30 + w), Name: "basil", CategoryID: fmt.Sprint(1 + w%4)})
	total := 0
	for _, id := range []string{"1", "2", "3", "4"} {
		c, err := f.s.GetCategory(f.ctx, id)
		f.must(err)
		total += c.IngredientCount
	}
	if total != len(sampleIngredients)+1 {
		t.Fatalf("categories count %d ingredients, want %d", total, len(sampleIngredients)+1)
	}
}

// TestCreateMenuItemRace: one Friday per menu, however many clients add
// one at once.
func TestCreateMenuItemRace(t *testing.T) {
	f := newFixture(t, true)
	errs := racers(racerCount, func(i int) error {
		return f.s.CreateMenuItem(f.ctx, MenuItem{ID: fmt.Sprintf("w1-f%d", i), MenuID: "w1", Name: "Friday", RecipeID: "r1"})
	})
	w := oneWinner(t, errs, "None", "ConditionalCheckFailed", "None", "None", "None")
	m, err := f.s.GetMenuAndItems(f.ctx, "w1")
	friday := MenuItem{ID: fmt.Sprintf("w1-f%d", w), MenuID: "w1", Name: "Friday", RecipeID: "r1"}
	wantEqual(t, m, err, MenuWithItems{Menu: Menu{ID: "w1", Name: "week 1", ItemCount: 4}, Items: append(sampleMenuItems[:3:3], friday)})
}

// TestRenameRace: several menus renamed to one name at once; the losers
// keep their names and their name records.
func TestRenameRace(t *testing.T) {
	f := newUncoveredFixture(t, false) // reads stored records back by key
	for i := range racerCount {
		f.must(f.s.CreateMenu(f.ctx, Menu{ID: fmt.Sprint("m", i), Name: fmt.Sprint("menu ", i)}))
	}
	errs := racers(racerCount, func(i int) error { return f.s.RenameMenu(f.ctx, fmt.Sprint("m", i), "party") })
	w := oneWinner(t, errs, "None", "ConditionalCheckFailed", "None")
	for i := range racerCount {
		m, err := f.s.GetMenu(f.ctx, fmt.Sprint("m", i))
		name := fmt.Sprint("menu ", i)
		if i == w {
			name = "party"
		}
		wantEqual(t, m, err, Menu{ID: fmt.Sprint("m", i), Name: name})
		key := menuName(name)
		f.wantStored(key, key, nameRecord(key, m.ID, name))
	}
}

// TestRenameFromStaleRead: a rename whose read is out of date (another
// rename came between its read and its write) fails at the old name
// record and at the entity, and changes nothing.
func TestRenameFromStaleRead(t *testing.T) {
	f := newUncoveredFixture(t, true) // reads stored records back by key
	c, err := f.s.GetCategory(f.ctx, "3")
	f.must(err)
	f.must(f.s.RenameCategory(f.ctx, "3", "milk"))
	err = f.s.rename(f.ctx, renaming{kind: categoryKind, id: "3", entity: categoryKeys(c), from: c.Name, to: "cheese",
		fromKey: categoryName(c.Name), toKey: categoryName("cheese")})
	wantErr(t, err, ErrConflict, "ConditionalCheckFailed", "None", "ConditionalCheckFailed")
	c, err = f.s.GetCategory(f.ctx, "3")
	wantEqual(t, c.Name, err, "milk")
	f.wantStored("CATEGORYNAME#cheese", "CATEGORYNAME#cheese", nil)
}
