package main

import (
	"context"
	"crypto/md5"
	"encoding/hex"
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// GenerateInvitationLink gives a group a new invitation link, valid for
// validFor from now. A group has one link: the new one replaces the old,
// whose hash then leaves the InvitationHash index and opens nothing.
func (s *Store) GenerateInvitationLink(ctx context.Context, groupID string, validFor time.Duration) (InvitationLink, error) {
	l := InvitationLink{GroupId: groupID, LinkExpiryDatetime: iso(s.Now().Add(validFor))}
	l.InvitationLinkHash = invitationHash(l.GroupId, l.LinkExpiryDatetime)
	it, err := item(skInvitation, l)
	if err != nil {
		return InvitationLink{}, err
	}
	put := action{write: types.TransactWriteItem{Put: &types.Put{TableName: aws.String(s.table), Item: it}}}
	return l, s.transact(ctx, s.mustExist(groupID, skGroup), put)
}

// invitationHash is the design's hash: MD5 of the group ID and the expiry
// date and time, in hexadecimal.
func invitationHash(groupID, expiry string) string {
	sum := md5.Sum([]byte(groupID + expiry))
	return hex.EncodeToString(sum[:])
}

// GetInvitationLink finds the link with a hash, and so its group and
// expiry, from the index InvitationHash (which includes
// LinkExpiryDatetime). It returns expired links too: JoinGroupByInvitation
// refuses them.
func (s *Store) GetInvitationLink(ctx context.Context, hash string) (InvitationLink, error) {
	var found []InvitationLink
	if err := s.queryIndex(ctx, IndexInvitationHash, "InvitationLinkHash", hash, &found); err != nil {
		return InvitationLink{}, err
	}
	return one(found, "invitation link "+hash)
}

// GetInvitationLinkByGroupId reads a group's invitation link (GroupId /
// InvitationLinkHash).
func (s *Store) GetInvitationLinkByGroupId(ctx context.Context, groupID string) (InvitationLink, error) {
	var l InvitationLink
	return l, s.get(ctx, groupID, skInvitation, &l)
}

// JoinGroupByInvitation makes a user a member of the group whose link has
// the hash, and returns the group's ID. The transaction checks the link
// again, so a link replaced or expired since it was read admits no one.
func (s *Store) JoinGroupByInvitation(ctx context.Context, hash, userID string) (string, error) {
	l, err := s.GetInvitationLink(ctx, hash)
	if err != nil {
		return "", err
	}
	now := iso(s.Now())
	if l.LinkExpiryDatetime <= now {
		return "", fmt.Errorf("invitation link %s: %w", hash, ErrLinkExpired)
	}
	return l.GroupId, s.join(ctx, l.GroupId, userID, s.linkStillValid(l, now))
}

// linkStillValid is a transaction's check that a group's link is still l
// and has not expired by now.
func (s *Store) linkStillValid(l InvitationLink, now string) action {
	return action{write: types.TransactWriteItem{ConditionCheck: &types.ConditionCheck{TableName: aws.String(s.table),
		Key: key(l.GroupId, skInvitation), ConditionExpression: aws.String("InvitationLinkHash = :hash AND LinkExpiryDatetime > :now"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":hash": str(l.InvitationLinkHash), ":now": str(now)}}},
		failed: fmt.Errorf("invitation link %s: %w", l.InvitationLinkHash, ErrLinkExpired)}
}
