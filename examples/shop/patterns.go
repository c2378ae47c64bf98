package main

import (
	"context"
	"fmt"
	"time"
)

// pattern is one row of the design's access-pattern table, run on the
// sample and turned into printable rows.
type pattern struct {
	name, args string
	run        func(context.Context, *Store) (header []string, rows [][]string, err error)
}

// patterns are the design's access patterns, in its table's order, with
// the sample's values for their parameters.
func patterns(sm *Sample) []pattern {
	ana, ben := sm.Users["Ana Lima"], sm.Users["Ben Okafor"]
	sony, apple := sm.Brands["Sony"], sm.Brands["Apple"]
	phones, headphones := sm.Categories["Phones"], sm.Categories["Headphones"]
	return []pattern{
		{"Get a user by id", "Ana Lima's id", users(func(ctx context.Context, s *Store) ([]User, error) { return one(s.GetUserByID(ctx, ana.ID)) })},
		{"Get a user by email", "chloe.martin@example.com", users(func(ctx context.Context, s *Store) ([]User, error) {
			return one(s.GetUserByEmail(ctx, "chloe.martin@example.com"))
		})},
		{"List users", "oldest first", users(func(ctx context.Context, s *Store) ([]User, error) { return s.ListUsers(ctx, Ascending) })},
		{"List users filter by created_at", "since Ben Okafor signed up, newest first", users(func(ctx context.Context, s *Store) ([]User, error) {
			return s.ListUsersByCreatedAt(ctx, ben.CreatedAt, Descending)
		})},
		{"List users filter by email-prefix", "\"test\"", users(func(ctx context.Context, s *Store) ([]User, error) {
			return s.ListUsersByEmailPrefix(ctx, "test", Ascending)
		})},
		{"Get a category by id", "Phones' id", categories(func(ctx context.Context, s *Store) ([]Category, error) {
			return one(s.GetCategoryByID(ctx, phones.ID))
		})},
		{"List categories", "oldest first", categories(func(ctx context.Context, s *Store) ([]Category, error) { return s.ListCategories(ctx, Ascending) })},
		{"List categories filter by name-prefix", "\"Lap\"", categories(func(ctx context.Context, s *Store) ([]Category, error) {
			return s.ListCategoriesByNamePrefix(ctx, "Lap", Ascending)
		})},
		{"Get a brand by id", "Sony's id", brands(func(ctx context.Context, s *Store) ([]Brand, error) { return one(s.GetBrandByID(ctx, sony.ID)) })},
		{"List brands", "oldest first", brands(func(ctx context.Context, s *Store) ([]Brand, error) { return s.ListBrands(ctx, Ascending) })},
		{"List brands filter by name-prefix", "\"S\"", brands(func(ctx context.Context, s *Store) ([]Brand, error) {
			return s.ListBrandsByNamePrefix(ctx, "S", Ascending)
		})},
		{"Get a product by id", "Alpha 7 IV's id", products(sm, func(ctx context.Context, s *Store) ([]Product, error) {
			return one(s.GetProductByID(ctx, sm.Products["Alpha 7 IV"].ID))
		})},
		{"List products", "newest first", products(sm, func(ctx context.Context, s *Store) ([]Product, error) { return s.ListProducts(ctx, Descending) })},
		{"List products by brand", "Sony", products(sm, func(ctx context.Context, s *Store) ([]Product, error) {
			return s.ListProductsByBrand(ctx, sony.ID, Ascending)
		})},
		{"List products by brand + category", "Sony, Headphones", products(sm, func(ctx context.Context, s *Store) ([]Product, error) {
			return s.ListProductsByBrandAndCategory(ctx, sony.ID, headphones.ID, Ascending)
		})},
		{"List products by category", "Headphones", products(sm, func(ctx context.Context, s *Store) ([]Product, error) {
			return s.ListProductsByCategory(ctx, headphones.ID, Ascending)
		})},
		{"List products by category + brand", "Phones, Apple", products(sm, func(ctx context.Context, s *Store) ([]Product, error) {
			return s.ListProductsByCategoryAndBrand(ctx, phones.ID, apple.ID, Ascending)
		})},
		{"Get user's order by id", "Ana Lima's first order", orders(sm, func(ctx context.Context, s *Store) ([]Order, error) {
			return one(s.GetUserOrderByID(ctx, ana.ID, sm.Orders["ana-1"].ID))
		})},
		{"List user's orders", "Ana Lima, newest first", orders(sm, func(ctx context.Context, s *Store) ([]Order, error) {
			return s.ListUserOrders(ctx, ana.ID, Descending)
		})},
		{"List orders by status", "DELIVERED since the first delivery", orders(sm, func(ctx context.Context, s *Store) ([]Order, error) {
			return s.ListOrdersByStatus(ctx, StatusDelivered, sm.Delivered, Ascending)
		})},
	}
}

func one[T any](v T, err error) ([]T, error) {
	if err != nil {
		return nil, err
	}
	return []T{v}, nil
}

// table runs a read and prints each entity it returns as one row.
func table[T any](header []string, row func(T) []string, read func(context.Context, *Store) ([]T, error)) func(context.Context, *Store) ([]string, [][]string, error) {
	return func(ctx context.Context, s *Store) ([]string, [][]string, error) {
		got, err := read(ctx, s)
		rows := make([][]string, 0, len(got))
		for _, v := range got {
			rows = append(rows, row(v))
		}
		return header, rows, err
	}
}

func users(read func(context.Context, *Store) ([]User, error)) func(context.Context, *Store) ([]string, [][]string, error) {
	return table([]string{"id", "name", "email", "created_at"}, func(u User) []string {
		return []string{u.ID, u.Name, u.Email, stamp(u.CreatedAt)}
	}, read)
}

func categories(read func(context.Context, *Store) ([]Category, error)) func(context.Context, *Store) ([]string, [][]string, error) {
	return table([]string{"id", "name", "created_at"}, func(c Category) []string {
		return []string{c.ID, c.Name, stamp(c.CreatedAt)}
	}, read)
}

func brands(read func(context.Context, *Store) ([]Brand, error)) func(context.Context, *Store) ([]string, [][]string, error) {
	return table([]string{"id", "name", "created_at"}, func(b Brand) []string {
		return []string{b.ID, b.Name, stamp(b.CreatedAt)}
	}, read)
}

func products(sm *Sample, read func(context.Context, *Store) ([]Product, error)) func(context.Context, *Store) ([]string, [][]string, error) {
	return table([]string{"name", "brand", "category", "price", "stock", "created_at"}, func(p Product) []string {
		return []string{p.Name, sm.brandName(p.BrandID), sm.categoryName(p.CategoryID), money(p.PriceCents),
			fmt.Sprint(p.Stock), stamp(p.CreatedAt)}
	}, read)
}

func orders(sm *Sample, read func(context.Context, *Store) ([]Order, error)) func(context.Context, *Store) ([]string, [][]string, error) {
	return table([]string{"id", "user", "status", "lines", "total", "created_at", "updated_at"}, func(o Order) []string {
		return []string{o.ID, sm.userName(o.UserID), string(o.Status), fmt.Sprint(len(o.Items)), money(o.TotalCents),
			stamp(o.CreatedAt), stamp(o.UpdatedAt)}
	}, read)
}

func stamp(t time.Time) string { return t.Format(time.DateTime) }

func money(cents int64) string { return fmt.Sprintf("%d.%02d", cents/100, cents%100) }

func (sm *Sample) userName(id string) string {
	for name, u := range sm.Users {
		if u.ID == id {
			return name
		}
	}
	return id
}

func (sm *Sample) brandName(id string) string {
	for name, b := range sm.Brands {
		if b.ID == id {
			return name
		}
	}
	return id
}

func (sm *Sample) categoryName(id string) string {
	for name, c := range sm.Categories {
		if c.ID == id {
			return name
		}
	}
	return id
}
