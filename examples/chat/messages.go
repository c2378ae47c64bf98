package main

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Group chats and private chats lay out their partitions the same way:
// the chat's own item, USER# member items and MESSAGE# items. This file is
// what both share; groupchats.go and privatechats.go name the patterns.

type memberItem struct {
	PK, SK string
	Member
}

type messageItem struct {
	PK, SK string
	Message
}

// Cursor is where the next page of messages starts (a LastEvaluatedKey);
// nil asks for the first page, and a nil next Cursor means no more pages.
type Cursor map[string]types.AttributeValue

func (s *Store) newMemberItem(chatPK string, u User) memberItem {
	return memberItem{PK: chatPK, SK: userPK(u.ID), Member: s.member(u)}
}

func (s *Store) members(ctx context.Context, table, chatPK string) ([]Member, error) {
	var ms []Member
	err := s.queryAll(ctx, inPartition(table, "", "PK", chatPK, "SK", "USER#"), &ms)
	return ms, err
}

// messages reads one page of a chat's messages, newest first: the
// timestamp in the sort key makes the partition's MESSAGE# range a
// timeline, read backwards.
func (s *Store) messages(ctx context.Context, table, chatPK string, limit int32, after Cursor) ([]Message, Cursor, error) {
	in := inPartition(table, "", "PK", chatPK, "SK", "MESSAGE#")
	in.ScanIndexForward, in.Limit, in.ExclusiveStartKey = aws.Bool(false), aws.Int32(limit), after
	out, err := s.db.Query(ctx, in)
	if err != nil {
		return nil, nil, err
	}
	var ms []Message
	err = attributevalue.UnmarshalListOfMaps(out.Items, &ms)
	return ms, out.LastEvaluatedKey, err
}

// send stores a message from a member of the chat; the condition check
// refuses a sender who is not one.
func (s *Store) send(ctx context.Context, table, chatPK, senderID, content string) (Message, error) {
	m := Message{ID: s.newID(), SenderID: senderID, Content: content, CreatedAt: stamp(s.now()),
		Reactions: map[string][]string{}}
	item := messageItem{PK: chatPK, SK: messageSK(m.CreatedAt, m.ID), Message: m}
	err := s.transact(ctx, []tablePut{{table, item}}, mustExist(table, key(chatPK, userPK(senderID))))
	return m, err
}

// update applies an update expression to an existing message and returns
// the message as it now is.
func (s *Store) update(ctx context.Context, table, chatPK string, m Message, in *dynamodb.UpdateItemInput) (Message, error) {
	in.TableName, in.Key = aws.String(table), key(chatPK, messageSK(m.CreatedAt, m.ID))
	in.ReturnValues = types.ReturnValueAllNew
	out, err := s.db.UpdateItem(ctx, in)
	if err != nil {
		return Message{}, err
	}
	err = attributevalue.UnmarshalMap(out.Attributes, &m)
	return m, err
}

// edit replaces a message's content; only its sender may.
func (s *Store) edit(ctx context.Context, table, chatPK string, m Message, editorID, content string) (Message, error) {
	return s.update(ctx, table, chatPK, m, &dynamodb.UpdateItemInput{
		UpdateExpression:    aws.String("SET Content = :content, Editted = :true"),
		ConditionExpression: aws.String("attribute_exists(PK) AND SenderId = :editor"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":content": str(content),
			":true": &types.AttributeValueMemberBOOL{Value: true}, ":editor": str(editorID)}})
}

// react adds a user to an emoji's list in the Reactions map, creating the
// list on the first reaction; reacting twice with one emoji is refused.
func (s *Store) react(ctx context.Context, table, chatPK string, m Message, userID, emoji string) (Message, error) {
	return s.update(ctx, table, chatPK, m, &dynamodb.UpdateItemInput{
		UpdateExpression:         aws.String("SET Reactions.#emoji = list_append(if_not_exists(Reactions.#emoji, :none), :user)"),
		ConditionExpression:      aws.String("attribute_exists(PK) AND NOT contains(Reactions.#emoji, :userID)"),
		ExpressionAttributeNames: map[string]string{"#emoji": emoji},
		ExpressionAttributeValues: map[string]types.AttributeValue{":none": &types.AttributeValueMemberL{},
			":user": &types.AttributeValueMemberL{Value: []types.AttributeValue{str(userID)}}, ":userID": str(userID)}})
}

// markRead marks a message read by someone other than its sender.
func (s *Store) markRead(ctx context.Context, table, chatPK string, m Message, readerID string) (Message, error) {
	return s.update(ctx, table, chatPK, m, &dynamodb.UpdateItemInput{
		UpdateExpression:         aws.String("SET #read = :true"),
		ConditionExpression:      aws.String("attribute_exists(PK) AND SenderId <> :reader"),
		ExpressionAttributeNames: map[string]string{"#read": "Read"},
		ExpressionAttributeValues: map[string]types.AttributeValue{":true": &types.AttributeValueMemberBOOL{Value: true},
			":reader": str(readerID)}})
}
