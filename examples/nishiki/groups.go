package main

import (
	"context"
	"fmt"
	"slices"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// CreateGroup stores a new group with its creator as the first member;
// one without an ID gets a fresh UUID.
func (s *Store) CreateGroup(ctx context.Context, g Group, creatorID string) (Group, error) {
	if g.GroupId == "" {
		g.GroupId = newUUID()
	}
	g.Users = []string{creatorID}
	groupItem, err := item(skGroup, g)
	if err != nil {
		return Group{}, err
	}
	member, err := item(groupPrefix+g.GroupId, Membership{UserId: creatorID, GroupId: g.GroupId})
	if err != nil {
		return Group{}, err
	}
	return g, s.transact(ctx, s.mustExist(creatorID, skUser),
		s.putNew(groupItem, fmt.Errorf("group %s: %w", g.GroupId, ErrExists)),
		s.putNew(member, fmt.Errorf("user %s in group %s: %w", creatorID, g.GroupId, ErrAlreadyMember)))
}

// AddUserToGroup makes a user a member of a group.
func (s *Store) AddUserToGroup(ctx context.Context, groupID, userID string) error {
	return s.join(ctx, groupID, userID)
}

// join writes a membership item and adds the user to the group's Users in
// one transaction, with any further checks the caller needs.
func (s *Store) join(ctx context.Context, groupID, userID string, checks ...action) error {
	member, err := item(groupPrefix+groupID, Membership{UserId: userID, GroupId: groupID})
	if err != nil {
		return err
	}
	actions := []action{s.mustExist(userID, skUser),
		s.putNew(member, fmt.Errorf("user %s in group %s: %w", userID, groupID, ErrAlreadyMember)),
		s.updateUsers(groupID, "ADD", userID)}
	return s.transact(ctx, append(actions, checks...)...)
}

// RemoveUserFromGroup ends a user's membership of a group.
func (s *Store) RemoveUserFromGroup(ctx context.Context, groupID, userID string) error {
	return s.transact(ctx, s.deleteExisting(userID, groupPrefix+groupID), s.updateUsers(groupID, "DELETE", userID))
}

// updateUsers adds a user to, or deletes one from, a group's Users set.
func (s *Store) updateUsers(groupID, op, userID string) action {
	return action{write: types.TransactWriteItem{Update: &types.Update{TableName: aws.String(s.table),
		Key: key(groupID, skGroup), UpdateExpression: aws.String(op + " #users :user"),
		ConditionExpression:       aws.String("attribute_exists(PK)"),
		ExpressionAttributeNames:  map[string]string{"#users": "Users"}, // a reserved word
		ExpressionAttributeValues: map[string]types.AttributeValue{":user": &types.AttributeValueMemberSS{Value: []string{userID}}}}},
		failed: fmt.Errorf("group %s: %w", groupID, ErrNotFound)}
}

// GetGroup reads a group's data (GroupId / Group). Users is a set, which
// has no order in DynamoDB: it is sorted here.
func (s *Store) GetGroup(ctx context.Context, groupID string) (Group, error) {
	var g Group
	err := s.get(ctx, groupID, skGroup, &g)
	slices.Sort(g.Users)
	return g, err
}

// GetGroupByContainerId returns the ID of the group a container belongs
// to, from the KEYS_ONLY index GroupAndContainerRelationship.
func (s *Store) GetGroupByContainerId(ctx context.Context, containerID string) (string, error) {
	var found []ContainerLink
	if err := s.queryIndex(ctx, IndexGroupAndContainer, "ContainerId", containerID, &found); err != nil {
		return "", err
	}
	l, err := one(found, "group of container "+containerID)
	return l.GroupId, err
}

// ListOfContainers returns the IDs of a group's containers, in
// ContainerId order (the order of their Container#{ContainerId} sort keys).
func (s *Store) ListOfContainers(ctx context.Context, groupID string) ([]string, error) {
	var links []ContainerLink
	if err := s.queryPrefix(ctx, groupID, containerPrefix, &links); err != nil {
		return nil, err
	}
	ids := make([]string, len(links))
	for i, l := range links {
		ids[i] = l.ContainerId
	}
	return ids, nil
}

// ListOfUsersInGroup returns the IDs of a group's members, from the
// KEYS_ONLY index UserAndGroupRelationship. The index has no sort key, so
// DynamoDB returns a group's entries in no defined order: they are sorted
// here.
func (s *Store) ListOfUsersInGroup(ctx context.Context, groupID string) ([]string, error) {
	var ms []Membership
	if err := s.queryIndex(ctx, IndexUserAndGroup, "GroupId", groupID, &ms); err != nil {
		return nil, err
	}
	ids := make([]string, len(ms))
	for i, m := range ms {
		ids[i] = m.UserId
	}
	slices.Sort(ids)
	return ids, nil
}
