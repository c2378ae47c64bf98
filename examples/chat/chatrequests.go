package main

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

type chatRequestItem struct {
	PK, SK string
	ChatRequest
}

// RequestToJoinGroupChat stores a pending request from u to join a group
// chat, once under the user and once under the group chat so that each
// side can list it, both with the same PendingId so that both are in
// PendingChatRequestsIndex. The transaction also checks that the chat
// exists and that u is not in it yet.
func (s *Store) RequestToJoinGroupChat(ctx context.Context, u User, chatID string) (ChatRequest, error) {
	r := ChatRequest{ID: s.newID(), UserID: u.ID, Username: u.Username, ChatID: chatID,
		CreatedAt: stamp(s.now()), Status: StatusPending, PendingID: s.newID()}
	sk, gpk := chatRequestSK(r.CreatedAt, r.ID), groupChatPK(chatID)
	notMember := types.TransactWriteItem{ConditionCheck: &types.ConditionCheck{TableName: aws.String(GroupChatsTable),
		Key: key(gpk, userPK(u.ID)), ConditionExpression: aws.String("attribute_not_exists(PK)")}}
	err := s.transact(ctx, []tablePut{
		{ChatRequestsTable, chatRequestItem{PK: userPK(u.ID), SK: sk, ChatRequest: r}},
		{ChatRequestsTable, chatRequestItem{PK: gpk, SK: sk, ChatRequest: r}},
	}, mustExist(GroupChatsTable, key(gpk, gpk)), notMember)
	return r, err
}

// AcceptChatRequest settles a pending request as accepted and, in the
// same transaction, adds the user to the group chat and counts them,
// refusing when the chat is full.
func (s *Store) AcceptChatRequest(ctx context.Context, r ChatRequest) (ChatRequest, error) {
	gpk := groupChatPK(r.ChatID)
	member := memberItem{PK: gpk, SK: userPK(r.UserID),
		Member: Member{UserID: r.UserID, Username: r.Username, JoinedAt: stamp(s.now())}}
	count := countMember(gpk, false)
	if err := s.transact(ctx, []tablePut{{GroupChatsTable, member}}, append(settle(r, StatusAccepted), count)...); err != nil {
		return ChatRequest{}, err
	}
	return settled(r, StatusAccepted), nil
}

// DeclineChatRequest settles a pending request as declined.
func (s *Store) DeclineChatRequest(ctx context.Context, r ChatRequest) (ChatRequest, error) {
	if err := s.transact(ctx, nil, settle(r, StatusDeclined)...); err != nil {
		return ChatRequest{}, err
	}
	return settled(r, StatusDeclined), nil
}

// settle updates both copies of a pending request to status and removes
// their PendingId, which takes them out of PendingChatRequestsIndex. The
// condition makes settling a request twice fail.
func settle(r ChatRequest, status string) []types.TransactWriteItem {
	sk := chatRequestSK(r.CreatedAt, r.ID)
	var actions []types.TransactWriteItem
	for _, pk := range []string{userPK(r.UserID), groupChatPK(r.ChatID)} {
		actions = append(actions, types.TransactWriteItem{Update: &types.Update{TableName: aws.String(ChatRequestsTable),
			Key: key(pk, sk), UpdateExpression: aws.String("SET #status = :status REMOVE PendingId"),
			ConditionExpression:      aws.String("#status = :pending"),
			ExpressionAttributeNames: map[string]string{"#status": "Status"},
			ExpressionAttributeValues: map[string]types.AttributeValue{":status": str(status),
				":pending": str(StatusPending)}}})
	}
	return actions
}

func settled(r ChatRequest, status string) ChatRequest {
	r.Status, r.PendingID = status, ""
	return r
}

// GetUserChatRequests is "Get a user's chat requests", of every status,
// newest first.
func (s *Store) GetUserChatRequests(ctx context.Context, userID string) ([]ChatRequest, error) {
	return s.chatRequests(ctx, userPK(userID))
}

// GetGroupChatChatRequests is "Get a group chat's chat requests", of
// every status, newest first.
func (s *Store) GetGroupChatChatRequests(ctx context.Context, chatID string) ([]ChatRequest, error) {
	return s.chatRequests(ctx, groupChatPK(chatID))
}

func (s *Store) chatRequests(ctx context.Context, pk string) ([]ChatRequest, error) {
	in := inPartition(ChatRequestsTable, "", "PK", pk, "SK", "CHATREQUEST#")
	in.ScanIndexForward = aws.Bool(false)
	var rs []ChatRequest
	err := s.queryAll(ctx, in, &rs)
	return rs, err
}

// GetUserChatRequestsPartiQL is GetUserChatRequests as a PartiQL SELECT:
// equality on PK makes it the same Query, begins_with its key condition,
// and ORDER BY SK DESC its newest-first order.
func (s *Store) GetUserChatRequestsPartiQL(ctx context.Context, userID string) ([]ChatRequest, error) {
	var rs []ChatRequest
	err := s.statement(ctx, &rs, `SELECT * FROM "`+ChatRequestsTable+`" WHERE PK = ? AND begins_with(SK, ?) ORDER BY SK DESC`,
		str(userPK(userID)), str("CHATREQUEST#"))
	return rs, err
}

// GetUserPendingChatRequests is "Get all of a user's pending chat
// requests": the user's partition of the sparse PendingChatRequestsIndex,
// in PendingId order.
func (s *Store) GetUserPendingChatRequests(ctx context.Context, userID string) ([]ChatRequest, error) {
	return s.pending(ctx, userPK(userID))
}

// GetGroupChatPendingChatRequests is "Get all of a group chat's pending
// chat requests", from the same index.
func (s *Store) GetGroupChatPendingChatRequests(ctx context.Context, chatID string) ([]ChatRequest, error) {
	return s.pending(ctx, groupChatPK(chatID))
}

// pending lists a partition of the index. The index lags the table, so a
// request settled a moment ago may still be listed as pending; settle's
// condition on the table's item makes acting on it safe (see
// TestPendingRequestsUnderIndexLag).
func (s *Store) pending(ctx context.Context, pk string) ([]ChatRequest, error) {
	var rs []ChatRequest
	err := s.queryAll(ctx, partition(ChatRequestsTable, PendingChatRequestsIndex, "PK", pk), &rs)
	return rs, err
}
