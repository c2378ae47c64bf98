package main

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
)

// CreateUser stores a new user; one without an ID gets a fresh UUID.
// E-mail addresses are not checked for uniqueness: the design has no item
// that could guard them (see README).
func (s *Store) CreateUser(ctx context.Context, u User) (User, error) {
	if u.UserId == "" {
		u.UserId = newUUID()
	}
	it, err := item(skUser, u)
	if err != nil {
		return User{}, err
	}
	_, err = s.db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(s.table), Item: it,
		ConditionExpression: aws.String("attribute_not_exists(PK)")})
	if conditionFailed(err) {
		return User{}, fmt.Errorf("user %s: %w", u.UserId, ErrExists)
	}
	return u, err
}

// CreateUserPartiQL is CreateUser as a PartiQL INSERT, which refuses an
// existing key by itself (DuplicateItemException): the statement needs no
// condition to keep attribute_not_exists(PK)'s promise.
func (s *Store) CreateUserPartiQL(ctx context.Context, u User) (User, error) {
	if u.UserId == "" {
		u.UserId = newUUID()
	}
	it, err := item(skUser, u)
	if err != nil {
		return User{}, err
	}
	err = s.insert(ctx, it)
	if duplicate(err) {
		return User{}, fmt.Errorf("user %s: %w", u.UserId, ErrExists)
	}
	return u, err
}

// GetUser reads a user's data (UserId / User).
func (s *Store) GetUser(ctx context.Context, userID string) (User, error) {
	var u User
	return u, s.get(ctx, userID, skUser, &u)
}

// GetUserPartiQL is GetUser as a PartiQL SELECT; equality on the whole key
// makes it the same single-item read.
func (s *Store) GetUserPartiQL(ctx context.Context, userID string) (User, error) {
	var us []User
	if err := s.statement(ctx, &us, `SELECT * FROM "`+s.table+`" WHERE PK = ? AND SK = ?`, str(userID), str(skUser)); err != nil {
		return User{}, err
	}
	return one(us, "user "+userID)
}

// GetUserInGroup reads a user's membership of one group (UserId /
// Group#{GroupId}): the check that a user may see a group's data.
func (s *Store) GetUserInGroup(ctx context.Context, userID, groupID string) (Membership, error) {
	var m Membership
	return m, s.get(ctx, userID, groupPrefix+groupID, &m)
}

// GetUserByEMail returns the ID of the user with an e-mail address, from
// the KEYS_ONLY index EMailAndUserIdRelationship.
func (s *Store) GetUserByEMail(ctx context.Context, email string) (string, error) {
	var found []User
	if err := s.queryIndex(ctx, IndexEMailAndUserId, "EMailAddress", email, &found); err != nil {
		return "", err
	}
	u, err := one(found, "user with e-mail "+email)
	return u.UserId, err
}

// ListOfUsersGroup returns the IDs of the groups a user belongs to, in
// GroupId order (the order of their Group#{GroupId} sort keys).
func (s *Store) ListOfUsersGroup(ctx context.Context, userID string) ([]string, error) {
	var ms []Membership
	if err := s.queryPrefix(ctx, userID, groupPrefix, &ms); err != nil {
		return nil, err
	}
	return groupIDs(ms), nil
}

// ListOfUsersGroupPartiQL is ListOfUsersGroup as a PartiQL SELECT: equality
// on PK makes it a Query, and begins_with on SK its key condition.
func (s *Store) ListOfUsersGroupPartiQL(ctx context.Context, userID string) ([]string, error) {
	var ms []Membership
	if err := s.statement(ctx, &ms, `SELECT * FROM "`+s.table+`" WHERE PK = ? AND begins_with(SK, ?)`,
		str(userID), str(groupPrefix)); err != nil {
		return nil, err
	}
	return groupIDs(ms), nil
}

func groupIDs(ms []Membership) []string {
	ids := make([]string, len(ms))
	for i, m := range ms {
		ids[i] = m.GroupId
	}
	return ids
}
