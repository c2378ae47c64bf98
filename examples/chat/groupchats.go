package main

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

type groupChatItem struct {
	PK, SK string
	GroupChat
}

// CreateGroupChat stores a group chat of community c with its creator as
// first member, and the community's link to it (what
// CommunityGroupChatsIndex inverts), in one transaction that also checks
// the creator belongs to the community.
func (s *Store) CreateGroupChat(ctx context.Context, c Community, g GroupChat, creator User) (GroupChat, error) {
	g.ID, g.NumMembers = s.idOr(g.ID), 1
	pk := groupChatPK(g.ID)
	link := communityGroupChatItem{PK: communityPK(c.ID), SK: pk, GroupChatPK: pk, GroupChatSK: communityPK(c.ID),
		CommunityGroupChat: CommunityGroupChat{CommunityID: c.ID, CommunityName: c.Name, GroupChatID: g.ID, Name: g.Name, Private: g.Private}}
	err := s.transact(ctx, []tablePut{
		{GroupChatsTable, groupChatItem{PK: pk, SK: pk, GroupChat: g}},
		{GroupChatsTable, s.newMemberItem(pk, creator)},
		{CommunitiesTable, link},
	}, mustExist(CommunitiesTable, key(communityPK(c.ID), userPK(creator.ID))))
	return g, err
}

// GetGroupChat is "Get a group chat": GetItem on its own item.
func (s *Store) GetGroupChat(ctx context.Context, id string) (GroupChat, error) {
	var g GroupChat
	err := s.get(ctx, GroupChatsTable, key(groupChatPK(id), groupChatPK(id)), &g)
	return g, err
}

// GetGroupChatMembers is "Get a group chat's members": its USER# items.
func (s *Store) GetGroupChatMembers(ctx context.Context, id string) ([]Member, error) {
	return s.members(ctx, GroupChatsTable, groupChatPK(id))
}

// GetGroupChatMessages is "Get a group chat's messages, newest first", a
// page of at most limit messages at a time.
func (s *Store) GetGroupChatMessages(ctx context.Context, id string, limit int32, after Cursor) ([]Message, Cursor, error) {
	return s.messages(ctx, GroupChatsTable, groupChatPK(id), limit, after)
}

// SendGroupChatMessage posts a message from a member of the group chat.
func (s *Store) SendGroupChatMessage(ctx context.Context, chatID, senderID, content string) (Message, error) {
	return s.send(ctx, GroupChatsTable, groupChatPK(chatID), senderID, content)
}

// EditGroupChatMessage replaces the content of the editor's own message
// and marks it edited.
func (s *Store) EditGroupChatMessage(ctx context.Context, chatID string, m Message, editorID, content string) (Message, error) {
	return s.edit(ctx, GroupChatsTable, groupChatPK(chatID), m, editorID, content)
}

// ReactToGroupChatMessage adds the user's reaction with emoji.
func (s *Store) ReactToGroupChatMessage(ctx context.Context, chatID string, m Message, userID, emoji string) (Message, error) {
	return s.react(ctx, GroupChatsTable, groupChatPK(chatID), m, userID, emoji)
}

// JoinGroupChat adds u to a group chat that is not private; private ones
// are joined by a chat request. The member count goes up in the same
// transaction, which refuses a full chat.
func (s *Store) JoinGroupChat(ctx context.Context, chatID string, u User) error {
	pk := groupChatPK(chatID)
	return s.transact(ctx, []tablePut{{GroupChatsTable, s.newMemberItem(pk, u)}},
		countMember(pk, true))
}

// countMember counts one more member of a group chat, refusing a full
// chat and, when publicOnly, a private one.
func countMember(chatPK string, publicOnly bool) types.TransactWriteItem {
	cond, names := "NumMembers < #capacity", map[string]string{"#capacity": "Capacity"}
	values := map[string]types.AttributeValue{":one": &types.AttributeValueMemberN{Value: "1"}}
	if publicOnly {
		cond, names["#private"] = cond+" AND #private = :false", "Private"
		values[":false"] = &types.AttributeValueMemberBOOL{Value: false}
	}
	return types.TransactWriteItem{Update: &types.Update{TableName: aws.String(GroupChatsTable), Key: key(chatPK, chatPK),
		UpdateExpression: aws.String("SET NumMembers = NumMembers + :one"), ConditionExpression: aws.String(cond),
		ExpressionAttributeNames: names, ExpressionAttributeValues: values}}
}
