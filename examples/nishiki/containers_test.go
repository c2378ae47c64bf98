package main

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

var created = iso(testNow) // every sample food's CreatedDatetime

func TestGetContainer(t *testing.T) {
	f := newFixture(t)
	c, err := f.s.GetContainer(ctx, fridge)
	equal(t, "GetContainer(fridge)", c, err, Container{ContainerId: fridge, ContainerName: "Fridge", Foods: []Food{
		withCreated(food(milk, "Milk", "L", 1, "Dairy", "2025-06-08T00:00:00Z")),
		withCreated(food(eggs, "Eggs", "pieces", 10, "Eggs", "2025-06-20T00:00:00Z")),
		withCreated(food(spinach, "Spinach", "bunch", 1, "Vegetables", "2025-06-04T00:00:00Z")),
		{FoodId: curry, Name: aws.String("Leftover curry"), CreatedDatetime: created},
	}})
	f.calls(t, getItem())
	_, err = f.s.GetContainer(ctx, family)
	fails(t, "GetContainer(a group's ID)", err, ErrNotFound)
}

func withCreated(f Food) Food {
	f.CreatedDatetime = created
	return f
}

// TestFoodNullsAreStoredAsNull: the design's "| null" fields are NULL
// attributes of the food's map, not missing ones.
func TestFoodNullsAreStoredAsNull(t *testing.T) {
	f := newFixture(t)
	out, err := f.db.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(DevTable), Key: key(fridge, "Container"),
		ProjectionExpression: aws.String("Foods[3]")})
	if err != nil {
		t.Fatal(err)
	}
	leftover := out.Item["Foods"].(*types.AttributeValueMemberL).Value[0].(*types.AttributeValueMemberM).Value
	for _, name := range []string{"Unit", "Quantity", "Category", "Expiry"} {
		if v, ok := leftover[name].(*types.AttributeValueMemberNULL); !ok || !v.Value {
			t.Errorf("leftover curry's %s is %#v, want NULL", name, leftover[name])
		}
	}
}

// TestContainerWrites: a container and its group's link come and go
// together, and so do the patterns that read them.
func TestContainerWrites(t *testing.T) {
	f := newFixture(t)
	box, err := f.s.CreateContainer(ctx, share, Container{ContainerName: "Vegetable box"})
	if err != nil {
		t.Fatal(err)
	}
	f.calls(t, transact())
	c, err := f.s.GetContainer(ctx, box.ContainerId)
	equal(t, "new container", c, err, Container{ContainerId: box.ContainerId, ContainerName: "Vegetable box", Foods: []Food{}})
	group, err := f.s.GetGroupByContainerId(ctx, box.ContainerId)
	equal(t, "new container's group", group, err, share)
	if err := f.s.RenameContainer(ctx, box.ContainerId, "Veg box"); err != nil {
		t.Fatal(err)
	}
	c, err = f.s.GetContainer(ctx, box.ContainerId)
	equal(t, "renamed container", c.ContainerName, err, "Veg box")
	if err := f.s.DeleteContainer(ctx, share, box.ContainerId); err != nil {
		t.Fatal(err)
	}
	_, err = f.s.GetContainer(ctx, box.ContainerId)
	fails(t, "GetContainer(deleted)", err, ErrNotFound)
	_, err = f.s.GetGroupByContainerId(ctx, box.ContainerId)
	fails(t, "GetGroupByContainerId(deleted)", err, ErrNotFound)
	ids, err := f.s.ListOfContainers(ctx, share)
	equal(t, "share's containers after the delete", ids, err, []string{shelf})
}

func TestContainerWritesRefused(t *testing.T) {
	f := newFixture(t)
	_, err := f.s.CreateContainer(ctx, "00000000-0000-4000-8000-000000000000", Container{ContainerId: "0c0c0c0c-0000-4000-8000-000000000000"})
	fails(t, "CreateContainer(unknown group)", err, ErrNotFound)
	_, err = f.s.GetContainer(ctx, "0c0c0c0c-0000-4000-8000-000000000000")
	fails(t, "the refused container", err, ErrNotFound)
	_, err = f.s.CreateContainer(ctx, share, Container{ContainerId: fridge})
	fails(t, "CreateContainer(the fridge's ID)", err, ErrExists)
	fails(t, "RenameContainer(unknown)", f.s.RenameContainer(ctx, family, "x"), ErrNotFound)
	fails(t, "DeleteContainer(from the wrong group)", f.s.DeleteContainer(ctx, share, fridge), ErrNotFound)
	_, err = f.s.GetContainer(ctx, fridge)
	if err != nil {
		t.Fatalf("the fridge after a refused delete: %v", err)
	}
}
