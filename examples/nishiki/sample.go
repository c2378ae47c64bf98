package main

import (
	"context"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// The sample's IDs are fixed, so that a rerun against the same endpoint
// replaces the same items (see resetSample).
const (
	alice = "5a1ce7e2-3b4d-4c1a-9e0f-2d6b8a7c1e01"
	bob   = "b0b1d4f8-6a2c-4e5b-8d3f-7c9e0a1b2c02"
	carol = "ca401f5e-8b3d-4a6c-9f1e-4b7d2c8a3e03"
	dave  = "dae0c3b9-1f4a-4d7e-8c2b-5e9a6f0d4b04"

	family = "9f3c2a71-5d8e-4b6f-a1c4-8e2d7b3f5a10"
	share  = "2e71b8c4-9a3f-4e5d-b6c1-3f8a2d9e7c20"

	fridge  = "e1d5a9c3-7b2f-4c8e-9a4d-6f1b3e8c2d30"
	freezer = "7c4e1b8d-2a9f-4d6c-8e3b-9a5f2c7d1e40"
	pantry  = "03b8f2e6-4c1d-4a9b-b7e5-1d6c9f4a8b50"
	shelf   = "a9f6c3d1-8e4b-4f2a-9c7d-2b5e8a1f6c60"

	milk    = "f00d0001-0000-4000-8000-00000000a001"
	eggs    = "f00d0002-0000-4000-8000-00000000a002"
	spinach = "f00d0003-0000-4000-8000-00000000a003"
	curry   = "f00d0004-0000-4000-8000-00000000a004"
	gyoza   = "f00d0005-0000-4000-8000-00000000a005"
	rice    = "f00d0006-0000-4000-8000-00000000a006"
	soy     = "f00d0007-0000-4000-8000-00000000a007"
	oatMilk = "f00d0008-0000-4000-8000-00000000a008"
	tofu    = "f00d0009-0000-4000-8000-00000000a009" // added by the AddFood demo
)

// invitationValidity is how long the sample's invitation link is valid.
const invitationValidity = 7 * 24 * time.Hour

var sampleUsers = []User{
	{UserId: alice, UserName: "Alice Sato", EMailAddress: "alice@example.com"},
	{UserId: bob, UserName: "Bob Sato", EMailAddress: "bob@example.com"},
	{UserId: carol, UserName: "Carol Tanaka", EMailAddress: "carol@example.com"},
	{UserId: dave, UserName: "Dave Ito", EMailAddress: "dave@example.com"},
}

// sampleGroup is a group with its creator, further members and containers.
type sampleGroup struct {
	group      Group
	creator    string
	members    []string
	containers []Container
}

// sampleGroups are the sample's groups; their foods expire some days
// after today.
func sampleGroups(today time.Time) []sampleGroup {
	in := func(days int) string { return iso(today.Truncate(24*time.Hour).AddDate(0, 0, days)) }
	return []sampleGroup{
		{group: Group{GroupId: family, GroupName: "Sato family"}, creator: alice, members: []string{bob},
			containers: []Container{
				{ContainerId: fridge, ContainerName: "Fridge", Foods: []Food{
					food(milk, "Milk", "L", 1, "Dairy", in(7)),
					food(eggs, "Eggs", "pieces", 10, "Eggs", in(19)),
					food(spinach, "Spinach", "bunch", 1, "Vegetables", in(3)),
					{FoodId: curry, Name: aws.String("Leftover curry")}}},
				{ContainerId: freezer, ContainerName: "Freezer", Foods: []Food{
					food(gyoza, "Gyoza", "pieces", 24, "Frozen", in(90))}},
				{ContainerId: pantry, ContainerName: "Pantry", Foods: []Food{
					{FoodId: rice, Name: aws.String("Rice"), Unit: aws.String("kg"), Quantity: aws.Float64(5), Category: aws.String("Grains")},
					food(soy, "Soy sauce", "L", 1, "Seasoning", in(270))}},
			}},
		{group: Group{GroupId: share, GroupName: "Share house 3F"}, creator: carol, members: []string{alice},
			containers: []Container{{ContainerId: shelf, ContainerName: "Shared fridge", Foods: []Food{
				food(oatMilk, "Oat milk", "L", 2, "Drinks", in(45))}}}},
	}
}

func food(id, name, unit string, quantity float64, category, expiry string) Food {
	return Food{FoodId: id, Name: &name, Unit: &unit, Quantity: &quantity, Category: &category, Expiry: &expiry}
}

// sampleNames names the sample's IDs in printouts.
var sampleNames = map[string]string{alice: "Alice Sato", bob: "Bob Sato", carol: "Carol Tanaka", dave: "Dave Ito",
	family: "Sato family", share: "Share house 3F", fridge: "Fridge", freezer: "Freezer", pantry: "Pantry", shelf: "Shared fridge"}

// loadSample writes the sample through the store's own writes: users,
// groups and members, containers and foods, then an invitation link to
// the Sato family that Dave joins by, which it returns.
func loadSample(ctx context.Context, s *Store) (InvitationLink, error) {
	for _, u := range sampleUsers {
		if _, err := s.CreateUser(ctx, u); err != nil {
			return InvitationLink{}, err
		}
	}
	for _, g := range sampleGroups(s.Now()) {
		if err := loadGroup(ctx, s, g); err != nil {
			return InvitationLink{}, err
		}
	}
	link, err := s.GenerateInvitationLink(ctx, family, invitationValidity)
	if err != nil {
		return InvitationLink{}, err
	}
	_, err = s.JoinGroupByInvitation(ctx, link.InvitationLinkHash, dave)
	return link, err
}

func loadGroup(ctx context.Context, s *Store, g sampleGroup) error {
	if _, err := s.CreateGroup(ctx, g.group, g.creator); err != nil {
		return err
	}
	for _, m := range g.members {
		if err := s.AddUserToGroup(ctx, g.group.GroupId, m); err != nil {
			return err
		}
	}
	for _, c := range g.containers {
		if err := loadContainer(ctx, s, g.group.GroupId, c); err != nil {
			return err
		}
	}
	return nil
}

func loadContainer(ctx context.Context, s *Store, groupID string, c Container) error {
	if _, err := s.CreateContainer(ctx, groupID, c); err != nil {
		return err
	}
	for _, f := range c.Foods {
		if _, err := s.AddFood(ctx, c.ContainerId, f); err != nil {
			return err
		}
	}
	return nil
}

// resetSample deletes every item of the sample's partitions (users,
// groups, containers), so that loading it again starts clean.
func resetSample(ctx context.Context, s *Store) error {
	for id := range sampleNames {
		var keys []struct{ PK, SK string }
		err := s.query(ctx, &keys, &dynamodb.QueryInput{TableName: aws.String(s.table), KeyConditionExpression: aws.String("PK = :pk"),
			ProjectionExpression: aws.String("PK, SK"), ExpressionAttributeValues: map[string]types.AttributeValue{":pk": str(id)}})
		if err != nil {
			return err
		}
		for _, k := range keys {
			if _, err := s.db.DeleteItem(ctx, &dynamodb.DeleteItemInput{TableName: aws.String(s.table), Key: key(k.PK, k.SK)}); err != nil {
				return err
			}
		}
	}
	return nil
}
