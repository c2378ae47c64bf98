package main

import "context"

type privateChatItem struct {
	PK, SK string
	PrivateChat
}

// CreatePrivateChat stores a private chat between two users, with both as
// members, in one transaction.
func (s *Store) CreatePrivateChat(ctx context.Context, p PrivateChat, a, b User) (PrivateChat, error) {
	p.ID = s.idOr(p.ID)
	pk := privateChatPK(p.ID)
	err := s.transact(ctx, []tablePut{
		{PrivateChatsTable, privateChatItem{PK: pk, SK: pk, PrivateChat: p}},
		{PrivateChatsTable, s.newMemberItem(pk, a)},
		{PrivateChatsTable, s.newMemberItem(pk, b)},
	})
	return p, err
}

// GetPrivateChat is "Get a private chat": GetItem on its own item.
func (s *Store) GetPrivateChat(ctx context.Context, id string) (PrivateChat, error) {
	var p PrivateChat
	err := s.get(ctx, PrivateChatsTable, key(privateChatPK(id), privateChatPK(id)), &p)
	return p, err
}

// GetPrivateChatMembers is "Get a private chat's members": its USER# items.
func (s *Store) GetPrivateChatMembers(ctx context.Context, id string) ([]Member, error) {
	return s.members(ctx, PrivateChatsTable, privateChatPK(id))
}

// GetPrivateChatMessages is "Get a private chat's messages, newest
// first", a page of at most limit messages at a time.
func (s *Store) GetPrivateChatMessages(ctx context.Context, id string, limit int32, after Cursor) ([]Message, Cursor, error) {
	return s.messages(ctx, PrivateChatsTable, privateChatPK(id), limit, after)
}

// SendPrivateChatMessage posts a message from one of the two members.
func (s *Store) SendPrivateChatMessage(ctx context.Context, chatID, senderID, content string) (Message, error) {
	return s.send(ctx, PrivateChatsTable, privateChatPK(chatID), senderID, content)
}

// MarkPrivateChatMessageRead records that the other member read m.
func (s *Store) MarkPrivateChatMessageRead(ctx context.Context, chatID string, m Message, readerID string) (Message, error) {
	return s.markRead(ctx, PrivateChatsTable, privateChatPK(chatID), m, readerID)
}
