package main

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
)

// foodNames lists a container's foods as name=quantity, in list order.
func foodNames(t *testing.T, f *fixture, containerID string) string {
	t.Helper()
	c, err := f.s.GetContainer(ctx, containerID)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, food := range c.Foods {
		q := "null"
		if food.Quantity != nil {
			q = fmt.Sprint(*food.Quantity)
		}
		out = append(out, orNull(food.Name)+"="+q)
	}
	return strings.Join(out, ", ")
}

func TestAddFood(t *testing.T) {
	f := newFixture(t)
	f.now = testNow.Add(90 * time.Minute)
	added, err := f.s.AddFood(ctx, freezer, Food{Name: aws.String("Ice cream"), Quantity: aws.Float64(1)})
	if err != nil {
		t.Fatal(err)
	}
	f.calls(t, updateItem())
	if !isUUIDv4(added.FoodId) || added.CreatedDatetime != "2025-06-01T10:30:00Z" {
		t.Fatalf("added food %+v: want a fresh UUID and the clock's time", added)
	}
	c, err := f.s.GetContainer(ctx, freezer)
	equal(t, "freezer foods", c.Foods, err, []Food{withCreated(food(gyoza, "Gyoza", "pieces", 24, "Frozen", "2025-08-30T00:00:00Z")), added})
	_, err = f.s.AddFood(ctx, family, Food{Name: aws.String("Lost")})
	fails(t, "AddFood(a group's ID)", err, ErrNotFound)
}

// TestUpdateFood finds the food, then sets its fields at its position;
// its ID and creation time stay, and the other foods are untouched.
func TestUpdateFood(t *testing.T) {
	f := newFixture(t)
	f.now = testNow.Add(time.Hour)
	eggs := food(eggs, "Eggs", "pieces", 4, "Eggs", "2025-06-20T00:00:00Z")
	eggs.Category = nil
	if err := f.s.UpdateFood(ctx, fridge, eggs); err != nil {
		t.Fatal(err)
	}
	f.calls(t, getItem(), updateItem())
	c, err := f.s.GetContainer(ctx, fridge)
	equal(t, "updated eggs", c.Foods[1], err, withCreated(eggs))
	equal(t, "fridge", foodNames(t, f, fridge), nil, "Milk=1, Eggs=4, Spinach=1, Leftover curry=null")
	fails(t, "UpdateFood(gyoza, in the fridge)", f.s.UpdateFood(ctx, fridge, Food{FoodId: gyoza}), ErrNotFound)
}

func TestRemoveFood(t *testing.T) {
	f := newFixture(t)
	if err := f.s.RemoveFood(ctx, fridge, spinach); err != nil {
		t.Fatal(err)
	}
	f.calls(t, getItem(), updateItem())
	equal(t, "fridge", foodNames(t, f, fridge), nil, "Milk=1, Eggs=10, Leftover curry=null")
	fails(t, "RemoveFood twice", f.s.RemoveFood(ctx, fridge, spinach), ErrNotFound)
}

// TestFoodWriteAtStalePositionFails: once the milk is removed the eggs
// move from 1 to 0, and a write still aimed at Foods[1] (now the spinach)
// is refused instead of changing the spinach. UpdateFood then re-reads.
func TestFoodWriteAtStalePositionFails(t *testing.T) {
	f := newFixture(t)
	if err := f.s.RemoveFood(ctx, fridge, milk); err != nil {
		t.Fatal(err)
	}
	fewerEggs := withCreated(food(eggs, "Eggs", "pieces", 2, "Eggs", "2025-06-20T00:00:00Z"))
	if err := f.s.updateFoodAt(ctx, fridge, 1, fewerEggs); !conditionFailed(err) {
		t.Fatalf("update at a stale position: %v, want a failed condition", err)
	}
	if err := f.s.removeFoodAt(ctx, fridge, 1, eggs); !conditionFailed(err) {
		t.Fatalf("remove at a stale position: %v, want a failed condition", err)
	}
	equal(t, "fridge after refused writes", foodNames(t, f, fridge), nil, "Eggs=10, Spinach=1, Leftover curry=null")
	f.rec.Take()
	if err := f.s.UpdateFood(ctx, fridge, fewerEggs); err != nil {
		t.Fatal(err)
	}
	f.calls(t, getItem(), updateItem())
	equal(t, "fridge", foodNames(t, f, fridge), nil, "Eggs=2, Spinach=1, Leftover curry=null")
}

// TestConcurrentFoodEdits: removals, updates and adds on one container at
// once all take effect, and none lands on the wrong food.
func TestConcurrentFoodEdits(t *testing.T) {
	f := newFixture(t)
	var wg sync.WaitGroup
	run := func(name string, edit func() error) {
		wg.Go(func() {
			if err := edit(); err != nil {
				t.Errorf("%s: %v", name, err)
			}
		})
	}
	run("remove milk", func() error { return f.s.RemoveFood(ctx, fridge, milk) })
	run("remove spinach", func() error { return f.s.RemoveFood(ctx, fridge, spinach) })
	run("update eggs", func() error { return f.s.UpdateFood(ctx, fridge, food(eggs, "Eggs", "pieces", 6, "Eggs", "")) })
	run("update curry", func() error {
		return f.s.UpdateFood(ctx, fridge, Food{FoodId: curry, Name: aws.String("Curry"), Quantity: aws.Float64(2)})
	})
	for i := range 4 {
		run("add", func() error {
			_, err := f.s.AddFood(ctx, fridge, Food{FoodId: fmt.Sprint("new-", i), Name: aws.String(fmt.Sprint("New ", i))})
			return err
		})
	}
	wg.Wait()
	got := strings.Split(foodNames(t, f, fridge), ", ")
	slices.Sort(got[2:]) // concurrent adds land in any order, after the foods already there
	equal(t, "fridge", strings.Join(got, ", "), nil, "Eggs=6, Curry=2, New 0=null, New 1=null, New 2=null, New 3=null")
}
