package main

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

type notificationItem struct {
	PK, SK string
	Notification
}

func notificationKey(userID string, n Notification) map[string]types.AttributeValue {
	return key(userPK(userID), notificationSK(n))
}

func newNotificationItem(userID string, n Notification) notificationItem {
	return notificationItem{PK: userPK(userID), SK: notificationSK(n), Notification: n}
}

// Notify stores a new, unread notification for a user.
func (s *Store) Notify(ctx context.Context, userID string, n Notification) (Notification, error) {
	n.ID = s.idOr(n.ID)
	n.CreatedAt = stamp(s.now())
	n.Read, n.Seen = false, false
	item, err := attributevalue.MarshalMap(newNotificationItem(userID, n))
	if err != nil {
		return Notification{}, err
	}
	_, err = s.db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(NotificationsTable), Item: item,
		ConditionExpression: aws.String("attribute_not_exists(PK)")})
	return n, err
}

// MarkNotificationRead moves an unread notification to its read sort key.
// A sort key cannot be updated, so the item is deleted and put again in
// one transaction; the condition makes a second call fail, not duplicate.
func (s *Store) MarkNotificationRead(ctx context.Context, userID string, n Notification) (Notification, error) {
	n.Read = false
	del := types.TransactWriteItem{Delete: &types.Delete{TableName: aws.String(NotificationsTable),
		Key: notificationKey(userID, n), ConditionExpression: aws.String("attribute_exists(PK)")}}
	n.Read, n.Seen = true, true
	err := s.transact(ctx, []tablePut{{NotificationsTable, newNotificationItem(userID, n)}}, del)
	return n, err
}

// GetNotifications is "Get a user's notifications, unread first": the
// whole partition in sort-key order, which puts NOTIFICATION#UNREAD#
// before NOTIFICATIONREAD#, each oldest first.
func (s *Store) GetNotifications(ctx context.Context, userID string) ([]Notification, error) {
	var ns []Notification
	err := s.queryAll(ctx, partition(NotificationsTable, "", "PK", userPK(userID)), &ns)
	return ns, err
}

// GetUnreadNotifications is "Get a user's unread notifications": the
// NOTIFICATION#UNREAD# prefix, newest first.
func (s *Store) GetUnreadNotifications(ctx context.Context, userID string) ([]Notification, error) {
	in := inPartition(NotificationsTable, "", "PK", userPK(userID), "SK", unreadPrefix)
	in.ScanIndexForward = aws.Bool(false)
	var ns []Notification
	err := s.queryAll(ctx, in, &ns)
	return ns, err
}
