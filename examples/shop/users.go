package main

import (
	"context"
	"time"
)

// CreateUser adds a user with a new KSUID, so that the USER partition
// lists users in the order they signed up.
func (s *Store) CreateUser(ctx context.Context, name, email, passwordHash string) (User, error) {
	now, id, err := s.stamp()
	if err != nil {
		return User{}, err
	}
	u := User{ID: id, Name: name, Email: email, PasswordHash: passwordHash, CreatedAt: now, UpdatedAt: now}
	return u, s.create(ctx, userKeys(u), "User", u)
}

// GetUserByID reads PK="USER" AND SK="USER#<id>" from the table.
func (s *Store) GetUserByID(ctx context.Context, id string) (User, error) {
	var u User
	return u, s.get(ctx, pkUsers, userSK(id), &u)
}

// GetUserByEmail queries the LSI: PK="USER" AND SKU="EMAIL#<email>".
func (s *Store) GetUserByEmail(ctx context.Context, email string) (User, error) {
	return only(queryAll[User](ctx, s, query{index: indexLSI, cond: "PK = :pk AND SKU = :sku",
		values: values(":pk", pkUsers, ":sku", emailKey(email)), dir: Ascending}))
}

// ListUsers queries PK="USER" on the table: every user, by created_at.
func (s *Store) ListUsers(ctx context.Context, dir Direction) ([]User, error) {
	return queryAll[User](ctx, s, query{cond: "PK = :pk", values: values(":pk", pkUsers), dir: dir})
}

// ListUsersByCreatedAt lists the users created at or after since (to the
// second), by created_at: PK="USER" AND SK > "USER#<first KSUID of since>".
func (s *Store) ListUsersByCreatedAt(ctx context.Context, since time.Time, dir Direction) ([]User, error) {
	return queryAll[User](ctx, s, query{cond: "PK = :pk AND SK > :sk",
		values: values(":pk", pkUsers, ":sk", userSK(firstIDAt(since))), dir: dir})
}

// ListUsersByEmailPrefix queries GSI1 for the users whose email starts
// with prefix, by email: GSI1PK="USER" AND begins_with(GSI1SK, "EMAIL#<prefix>").
func (s *Store) ListUsersByEmailPrefix(ctx context.Context, prefix string, dir Direction) ([]User, error) {
	return queryAll[User](ctx, s, query{index: indexGSI1, cond: "GSI1PK = :pk AND begins_with(GSI1SK, :prefix)",
		values: values(":pk", pkUsers, ":prefix", emailKey(prefix)), dir: dir})
}
