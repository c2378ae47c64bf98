package main

import (
	"cmp"
	"context"
	"slices"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
)

type communityItem struct {
	PK, SK, LocationPK, LocationSK string
	Community
}

type communityMemberItem struct {
	PK, SK, MemberPK, MemberSK string
	CommunityMember
}

type communityGroupChatItem struct {
	PK, SK, GroupChatPK, GroupChatSK string
	CommunityGroupChat
}

func newCommunityItem(c Community) communityItem {
	pk := communityPK(c.ID)
	return communityItem{PK: pk, SK: pk, LocationPK: countryPK(c.Location.Country),
		LocationSK: stateCitySK(c.Location), Community: c}
}

// newCommunityMemberItem keys the membership under the community, and
// inverted (user, community) for CommunityMembersIndex.
func (s *Store) newCommunityMemberItem(c Community, u User) communityMemberItem {
	m := CommunityMember{Member: s.member(u), CommunityID: c.ID, CommunityName: c.Name}
	return communityMemberItem{PK: communityPK(c.ID), SK: userPK(u.ID),
		MemberPK: userPK(u.ID), MemberSK: communityPK(c.ID), CommunityMember: m}
}

func (s *Store) member(u User) Member {
	return Member{UserID: u.ID, Username: u.Username, JoinedAt: stamp(s.now())}
}

// CreateCommunity stores a community and its founder's membership in one
// transaction, so a community never exists without its founder.
func (s *Store) CreateCommunity(ctx context.Context, c Community, founder User) (Community, error) {
	c.ID = s.idOr(c.ID)
	c.CreatedAt = stamp(s.now())
	c.Founder = founder.ID
	err := s.transact(ctx, []tablePut{
		{CommunitiesTable, newCommunityItem(c)},
		{CommunitiesTable, s.newCommunityMemberItem(c, founder)},
	})
	return c, err
}

// JoinCommunity adds u to an existing community; joining twice is refused.
func (s *Store) JoinCommunity(ctx context.Context, c Community, u User) error {
	pk := communityPK(c.ID)
	return s.transact(ctx, []tablePut{{CommunitiesTable, s.newCommunityMemberItem(c, u)}},
		mustExist(CommunitiesTable, key(pk, pk)))
}

// GetCommunity is "Get a community": GetItem on its own item.
func (s *Store) GetCommunity(ctx context.Context, id string) (Community, error) {
	var c Community
	err := s.get(ctx, CommunitiesTable, key(communityPK(id), communityPK(id)), &c)
	return c, err
}

// GetCommunityMembers is "Get a community's members": the USER# items of
// its partition, in user id order.
func (s *Store) GetCommunityMembers(ctx context.Context, communityID string) ([]Member, error) {
	var ms []Member
	err := s.queryAll(ctx, inPartition(CommunitiesTable, "", "PK", communityPK(communityID), "SK", "USER#"), &ms)
	return ms, err
}

// GetCommunityGroupChats is "Get a community's group chats": the
// GROUPCHAT# items of its partition.
func (s *Store) GetCommunityGroupChats(ctx context.Context, communityID string) ([]CommunityGroupChat, error) {
	var gs []CommunityGroupChat
	err := s.queryAll(ctx, inPartition(CommunitiesTable, "", "PK", communityPK(communityID), "SK", "GROUPCHAT#"), &gs)
	return gs, err
}

// GetUserCommunities is "Get all of a user's communities": one partition
// of the inverted CommunityMembersIndex.
func (s *Store) GetUserCommunities(ctx context.Context, userID string) ([]CommunityMember, error) {
	var ms []CommunityMember
	err := s.queryAll(ctx, partition(CommunitiesTable, CommunityMembersIndex, "MemberPK", userPK(userID)), &ms)
	return ms, err
}

// GetGroupChatCommunity is "Get the community that this group chat
// belongs to": the group chat's partition of CommunityGroupChatsIndex,
// which holds its one link item.
func (s *Store) GetGroupChatCommunity(ctx context.Context, groupChatID string) (CommunityGroupChat, error) {
	var gs []CommunityGroupChat
	err := s.queryAll(ctx, partition(CommunitiesTable, CommunityGroupChatsIndex, "GroupChatPK", groupChatPK(groupChatID)), &gs)
	if err == nil && len(gs) == 0 {
		err = ErrNotFound
	}
	if err != nil {
		return CommunityGroupChat{}, err
	}
	return gs[0], nil
}

// GetCommunitiesInCountry is "Get all communities within a certain
// country": a whole partition of CommunityLocationIndex.
func (s *Store) GetCommunitiesInCountry(ctx context.Context, country string) ([]Community, error) {
	return s.communitiesAt(ctx, partition(CommunitiesTable, CommunityLocationIndex, "LocationPK", countryPK(country)))
}

// GetCommunitiesInState is "Get all communities within a certain state":
// begins_with on the location hierarchy, up to and including the '#' that
// ends the state, so a state does not match another whose name extends
// its own.
func (s *Store) GetCommunitiesInState(ctx context.Context, country, state string) ([]Community, error) {
	return s.communitiesAt(ctx, inPartition(CommunitiesTable, CommunityLocationIndex,
		"LocationPK", countryPK(country), "LocationSK", statePrefix(state)))
}

// GetCommunitiesInCity is "Get all communities within a certain city":
// the city is the last level of the hierarchy, so its sort key is matched
// exactly (begins_with would also match cities whose names extend it).
func (s *Store) GetCommunitiesInCity(ctx context.Context, l Location) ([]Community, error) {
	in := partition(CommunitiesTable, CommunityLocationIndex, "LocationPK", countryPK(l.Country))
	*in.KeyConditionExpression += " AND LocationSK = :sk"
	in.ExpressionAttributeValues[":sk"] = str(stateCitySK(l))
	return s.communitiesAt(ctx, in)
}

// communitiesAt runs a location query. Communities in the same city share
// their index keys, and DynamoDB does not define the order of equal index
// keys, so ties are put in name order here.
func (s *Store) communitiesAt(ctx context.Context, in *dynamodb.QueryInput) ([]Community, error) {
	var cs []Community
	if err := s.queryAll(ctx, in, &cs); err != nil {
		return nil, err
	}
	slices.SortStableFunc(cs, func(a, b Community) int {
		return cmp.Or(strings.Compare(stateCitySK(a.Location), stateCitySK(b.Location)), strings.Compare(a.Name, b.Name))
	})
	return cs, nil
}
