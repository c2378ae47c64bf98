package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/sortkeydb/sortkey/examples/internal/runner"
)

// demo prints each access pattern with the requests it made.
type demo struct {
	w   io.Writer
	rec *runner.Recorder
}

// run clears the recorder, runs one pattern and prints its calls and rows.
func (d demo) run(pattern string, header []string, f func() ([][]string, error)) error {
	d.rec.Take()
	rows, err := f()
	if err != nil {
		return fmt.Errorf("%s: %w", pattern, err)
	}
	runner.Print(d.w, pattern, d.rec.Take(), header, rows)
	return nil
}

// show runs every access pattern for Rabinovich, and the by-id lookup
// once more as Okafor, who must not see Rabinovich's order.
func show(ctx context.Context, d demo, store *Store) error {
	s := store.As(Rabinovich)
	var last []Order
	steps := []struct {
		pattern string
		header  []string
		rows    func() ([][]string, error)
	}{
		{"1. Get user profile", []string{"pk", "sk", "id", "tp", "name", "email", "phones", "addresses"}, func() ([][]string, error) {
			p, err := s.Profile(ctx)
			return [][]string{profileRow(p)}, err
		}},
		{"2. Get the list of last N orders for user (N = 2)", orderHeader, func() (rows [][]string, err error) {
			last, err = s.LastOrders(ctx, 2)
			return orderRows(last), err
		}},
		{"3. Display bonuses for user", []string{"pk", "sk", "points", "balance", "reason", "granted"}, func() ([][]string, error) {
			rewards, err := s.Bonuses(ctx)
			return rewardRows(rewards), err
		}},
		{"4. Get a single order with all its items by id", orderHeader, func() ([][]string, error) {
			o, err := s.Order(ctx, last[0].Number)
			return orderRows([]Order{o}), err
		}},
		{"4. (the same order number, asked for by another user)", orderHeader, func() ([][]string, error) {
			_, err := store.As(Okafor).Order(ctx, last[0].Number)
			if errors.Is(err, ErrNotFound) {
				err = nil
			}
			return nil, err
		}},
	}
	for _, st := range steps {
		if err := d.run(st.pattern, st.header, st.rows); err != nil {
			return err
		}
	}
	return nil
}

func profileRow(p Profile) []string {
	var addrs []string
	for _, a := range p.Addresses {
		addrs = append(addrs, fmt.Sprintf("%s: %s, %s %s %s", a.Label, a.Street, a.Postcode, a.City, a.Country))
	}
	return []string{p.PK, p.SK, p.Handle, p.Type, p.Name, p.Email, strings.Join(p.Phones, "; "), strings.Join(addrs, "; ")}
}

var orderHeader = []string{"pk", "sk", "id", "placed", "status", "product", "qty", "price"}

// orderRows shows each order's metadata row, then its item rows.
func orderRows(orders []Order) [][]string {
	var rows [][]string
	for _, o := range orders {
		rows = append(rows, []string{o.PK, o.Key.String(), o.Number, stamp(o.Placed), o.Status, "", "", money(o.Total)})
		for _, it := range o.Items {
			rows = append(rows, []string{it.PK, it.SK, "", "", "", it.Name, strconv.Itoa(it.Qty), money(it.UnitPrice)})
		}
	}
	return rows
}

// rewardRows reads like a statement, newest first: each row shows the
// balance once that reward was in.
func rewardRows(rewards []Reward) [][]string {
	var rows [][]string
	for i, r := range rewards {
		rows = append(rows, []string{r.PK, r.Key.String(), strconv.Itoa(r.Points),
			strconv.Itoa(Balance(rewards[i:])), r.Reason, stamp(r.Granted)})
	}
	return rows
}

func stamp(t time.Time) string { return t.UTC().Format("2006-01-02 15:04:05") }

func money(cents int64) string { return fmt.Sprintf("%d.%02d", cents/100, cents%100) }
