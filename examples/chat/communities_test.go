package main

import (
	"testing"
)

// communities are the sample's communities as the Communities table holds them.
var communities = map[string]Community{
	"sf-gophers": {ID: "sf-gophers", Name: "SF Gophers", Description: "Go programmers in San Francisco", Topic: "Go",
		Location: sf, CreatedAt: at(4), Founder: "alice"},
	"bay-climbers": {ID: "bay-climbers", Name: "Bay Area Climbers", Description: "Weekend climbing trips", Topic: "Climbing",
		Location: oakland, CreatedAt: at(8), Founder: "dave"},
	"mission-books": {ID: "mission-books", Name: "Mission Book Club", Description: "A novel a month", Topic: "Books",
		Location: sf, CreatedAt: at(11), Founder: "bob"},
	"atx-music": {ID: "atx-music", Name: "Austin Music Makers", Description: "Jam sessions", Topic: "Music",
		Location: austin, CreatedAt: at(14), Founder: "carol"},
}

func pick(ids ...string) []Community {
	var cs []Community
	for _, id := range ids {
		cs = append(cs, communities[id])
	}
	return cs
}

func TestGetCommunity(t *testing.T) {
	e := newEnv(t)
	got, err := e.s.GetCommunity(e.ctx, "sf-gophers")
	e.calls(t, getItem(CommunitiesTable))
	same(t, got, err, communities["sf-gophers"])
}

func TestGetCommunityMembers(t *testing.T) {
	e := newEnv(t)
	got, err := e.s.GetCommunityMembers(e.ctx, "sf-gophers")
	e.calls(t, query(CommunitiesTable, "", byPrefix))
	same(t, got, err, []Member{{"alice", "alice", at(5)}, {"bob", "bobm", at(6)}, {"carol", "carol", at(7)}})
}

func TestGetCommunityGroupChats(t *testing.T) {
	e := newEnv(t)
	got, err := e.s.GetCommunityGroupChats(e.ctx, "sf-gophers")
	e.calls(t, query(CommunitiesTable, "", byPrefix))
	same(t, got, err, []CommunityGroupChat{
		{CommunityID: "sf-gophers", CommunityName: "SF Gophers", GroupChatID: "core", Name: "Core contributors", Private: true},
		{CommunityID: "sf-gophers", CommunityName: "SF Gophers", GroupChatID: "general", Name: "General"},
	})
}

// TestGetUserCommunities reads the inverted index: alice founded one
// community and joined two, in community id order.
func TestGetUserCommunities(t *testing.T) {
	e := newEnv(t)
	got, err := e.s.GetUserCommunities(e.ctx, "alice")
	e.calls(t, query(CommunitiesTable, CommunityMembersIndex, "MemberPK = :pk"))
	alice := func(joined int) Member { return Member{UserID: "alice", Username: "alice", JoinedAt: at(joined)} }
	same(t, got, err, []CommunityMember{
		{Member: alice(10), CommunityID: "bay-climbers", CommunityName: "Bay Area Climbers"},
		{Member: alice(13), CommunityID: "mission-books", CommunityName: "Mission Book Club"},
		{Member: alice(5), CommunityID: "sf-gophers", CommunityName: "SF Gophers"},
	})
}

func TestGetGroupChatCommunity(t *testing.T) {
	e := newEnv(t)
	got, err := e.s.GetGroupChatCommunity(e.ctx, "weekend")
	e.calls(t, query(CommunitiesTable, CommunityGroupChatsIndex, "GroupChatPK = :pk"))
	same(t, got, err, CommunityGroupChat{CommunityID: "bay-climbers", CommunityName: "Bay Area Climbers",
		GroupChatID: "weekend", Name: "Weekend trips", Private: true})
}

// TestGetCommunitiesInCountry: by state, then city; the two San Francisco
// communities by name.
func TestGetCommunitiesInCountry(t *testing.T) {
	e := newEnv(t)
	got, err := e.s.GetCommunitiesInCountry(e.ctx, "United States")
	e.calls(t, query(CommunitiesTable, CommunityLocationIndex, "LocationPK = :pk"))
	same(t, got, err, pick("bay-climbers", "mission-books", "sf-gophers", "atx-music"))
}

func TestGetCommunitiesInState(t *testing.T) {
	e := newEnv(t)
	got, err := e.s.GetCommunitiesInState(e.ctx, "United States", "California")
	e.calls(t, query(CommunitiesTable, CommunityLocationIndex, "LocationPK = :pk AND begins_with(LocationSK, :prefix)"))
	same(t, got, err, pick("bay-climbers", "mission-books", "sf-gophers"))

	got, err = e.s.GetCommunitiesInState(e.ctx, "Canada", "Ontario")
	if err != nil || len(got) != 1 || got[0].ID != "toronto-devs" {
		t.Fatalf("Ontario: %+v, %v", got, err)
	}
}

func TestGetCommunitiesInCity(t *testing.T) {
	e := newEnv(t)
	got, err := e.s.GetCommunitiesInCity(e.ctx, sf)
	e.calls(t, query(CommunitiesTable, CommunityLocationIndex, "LocationPK = :pk AND LocationSK = :sk"))
	same(t, got, err, pick("mission-books", "sf-gophers"))
}

// TestGetCommunitiesInCityIsExact: Los Altos and Los Altos Hills are both
// cities in California; one's name begins the other's.
func TestGetCommunitiesInCityIsExact(t *testing.T) {
	e := newEnv(t)
	alice, _ := e.s.GetUser(e.ctx, "alice")
	losAltos := Location{Country: "United States", State: "California", City: "Los Altos"}
	hills := Location{Country: "United States", State: "California", City: "Los Altos Hills"}
	for _, c := range []Community{{ID: "la", Name: "Los Altos Runners", Location: losAltos}, {ID: "lah", Name: "Hills Hikers", Location: hills}} {
		if _, err := e.s.CreateCommunity(e.ctx, c, alice); err != nil {
			t.Fatal(err)
		}
	}
	got, err := e.s.GetCommunitiesInCity(e.ctx, losAltos)
	if err != nil || len(got) != 1 || got[0].ID != "la" {
		t.Fatalf("Los Altos: %+v, %v", got, err)
	}
}

func TestJoinCommunityIsRefusedTwiceOrForAMissingCommunity(t *testing.T) {
	e := newEnv(t)
	bob, _ := e.s.GetUser(e.ctx, "bob")
	refused(t, e.s.JoinCommunity(e.ctx, communities["sf-gophers"], bob))
	refused(t, e.s.JoinCommunity(e.ctx, Community{ID: "nowhere", Name: "Nowhere"}, bob))
	got, err := e.s.GetUserCommunities(e.ctx, "bob")
	if err != nil || len(got) != 3 {
		t.Fatalf("bob's communities: %+v, %v", got, err)
	}
}
