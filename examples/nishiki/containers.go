package main

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// CreateContainer stores a new, empty container in a group: the container
// item and the group's Container#{ContainerId} link, in one transaction.
// One without an ID gets a fresh UUID.
func (s *Store) CreateContainer(ctx context.Context, groupID string, c Container) (Container, error) {
	if c.ContainerId == "" {
		c.ContainerId = newUUID()
	}
	c.Foods = []Food{} // an empty list, not NULL, so that foods can be appended
	containerItem, err := item(skContainer, c)
	if err != nil {
		return Container{}, err
	}
	link, err := item(containerPrefix+c.ContainerId, ContainerLink{GroupId: groupID, ContainerId: c.ContainerId})
	if err != nil {
		return Container{}, err
	}
	exists := fmt.Errorf("container %s: %w", c.ContainerId, ErrExists)
	return c, s.transact(ctx, s.mustExist(groupID, skGroup), s.putNew(containerItem, exists), s.putNew(link, exists))
}

// GetContainer reads a container's data and foods (ContainerId / Container).
func (s *Store) GetContainer(ctx context.Context, containerID string) (Container, error) {
	var c Container
	return c, s.get(ctx, containerID, skContainer, &c)
}

// RenameContainer changes a container's name, leaving its foods alone.
func (s *Store) RenameContainer(ctx context.Context, containerID, name string) error {
	_, err := s.db.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String(s.table), Key: key(containerID, skContainer),
		UpdateExpression:          aws.String("SET ContainerName = :name"),
		ConditionExpression:       aws.String("attribute_exists(PK)"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":name": str(name)}})
	if conditionFailed(err) {
		return fmt.Errorf("container %s: %w", containerID, ErrNotFound)
	}
	return err
}

// DeleteContainer deletes a container, its foods and its group's link to
// it, in one transaction.
func (s *Store) DeleteContainer(ctx context.Context, groupID, containerID string) error {
	return s.transact(ctx, s.deleteExisting(groupID, containerPrefix+containerID), s.deleteExisting(containerID, skContainer))
}
