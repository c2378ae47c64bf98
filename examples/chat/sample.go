package main

import (
	"context"
	"errors"
	"time"
)

// sampleStart is when the sample's clock starts; it steps a minute per
// write, so every timestamp of the sample is distinct and in write order.
var sampleStart = time.Date(2024, 5, 1, 9, 0, 0, 0, time.UTC)

// steppingClock returns a clock that advances a minute at each call.
func steppingClock(start time.Time) func() time.Time {
	t := start.Add(-time.Minute)
	return func() time.Time {
		t = t.Add(time.Minute)
		return t
	}
}

var (
	sf      = Location{Country: "United States", State: "California", City: "San Francisco"}
	oakland = Location{Country: "United States", State: "California", City: "Oakland"}
	austin  = Location{Country: "United States", State: "Texas", City: "Austin"}
	toronto = Location{Country: "Canada", State: "Ontario", City: "Toronto"}
)

// sampleUsers are the people of the sample, by id.
func sampleUsers() []User {
	return []User{
		{ID: "alice", Username: "alice", Name: "Alice Nguyen", Email: "alice@example.com", Bio: "Go and climbing", Location: sf, Role: "admin"},
		{ID: "bob", Username: "bobm", Name: "Bob Martinez", Email: "bob@example.com", Location: sf, Role: "user"},
		{ID: "carol", Username: "carol", Name: "Carol Smith", Email: "carol@example.com", Location: austin, Role: "user"},
		{ID: "dave", Username: "dkim", Name: "Dave Kim", Email: "dave@example.com", Location: oakland, Role: "user"},
	}
}

// loaded reports whether the sample is already there, from an earlier run
// against the same endpoint; its writes are not repeatable (they are
// conditional, as an application's are).
func loaded(ctx context.Context, s *Store) (bool, error) {
	_, err := s.GetUser(ctx, "alice")
	if errors.Is(err, ErrNotFound) {
		return false, nil
	}
	return err == nil, err
}

// loadSample writes the sample through the Store's own write methods, in
// the order an application would make them.
func loadSample(ctx context.Context, s *Store) error {
	users := map[string]User{}
	for _, u := range sampleUsers() {
		u.PasswordHash = "$2a$10$sample.hash.not.a.real.password"
		created, err := s.CreateUser(ctx, u)
		if err != nil {
			return err
		}
		users[u.ID] = created
	}
	for _, step := range []func(context.Context, *Store, map[string]User) error{
		loadCommunities, loadGroupChats, loadPrivateChat, loadChatRequests, loadNotifications,
	} {
		if err := step(ctx, s, users); err != nil {
			return err
		}
	}
	return nil
}

func loadCommunities(ctx context.Context, s *Store, u map[string]User) error {
	for _, c := range []struct {
		Community
		founder string
		members []string
	}{
		{Community{ID: "sf-gophers", Name: "SF Gophers", Topic: "Go", Description: "Go programmers in San Francisco", Location: sf}, "alice", []string{"bob", "carol"}},
		{Community{ID: "bay-climbers", Name: "Bay Area Climbers", Topic: "Climbing", Description: "Weekend climbing trips", Location: oakland}, "dave", []string{"alice"}},
		{Community{ID: "mission-books", Name: "Mission Book Club", Topic: "Books", Description: "A novel a month", Location: sf}, "bob", []string{"alice"}},
		{Community{ID: "atx-music", Name: "Austin Music Makers", Topic: "Music", Description: "Jam sessions", Location: austin}, "carol", nil},
		{Community{ID: "toronto-devs", Name: "Toronto Devs", Topic: "Software", Description: "Meetups downtown", Location: toronto}, "bob", nil},
	} {
		created, err := s.CreateCommunity(ctx, c.Community, u[c.founder])
		if err != nil {
			return err
		}
		for _, m := range c.members {
			if err := s.JoinCommunity(ctx, created, u[m]); err != nil {
				return err
			}
		}
	}
	return nil
}

func loadGroupChats(ctx context.Context, s *Store, u map[string]User) error {
	gophers, err := s.GetCommunity(ctx, "sf-gophers")
	if err != nil {
		return err
	}
	climbers, err := s.GetCommunity(ctx, "bay-climbers")
	if err != nil {
		return err
	}
	for _, g := range []struct {
		c       Community
		chat    GroupChat
		creator string
	}{
		{gophers, GroupChat{ID: "general", Name: "General", Description: "Anything Go", Capacity: 50}, "alice"},
		{gophers, GroupChat{ID: "core", Name: "Core contributors", Description: "Planning the meetups", Capacity: 3, Private: true}, "alice"},
		{climbers, GroupChat{ID: "weekend", Name: "Weekend trips", Description: "Who drives?", Capacity: 10, Private: true}, "dave"},
	} {
		if _, err := s.CreateGroupChat(ctx, g.c, g.chat, u[g.creator]); err != nil {
			return err
		}
	}
	return loadGeneral(ctx, s, u)
}

// loadGeneral fills the General chat: members who joined, messages, an
// edit and reactions.
func loadGeneral(ctx context.Context, s *Store, u map[string]User) error {
	for _, id := range []string{"bob", "carol"} {
		if err := s.JoinGroupChat(ctx, "general", u[id]); err != nil {
			return err
		}
	}
	var sent []Message
	for _, m := range [][2]string{{"alice", "Welcome to SF Gophers!"}, {"bob", "Anyone going to GopherCon?"},
		{"carol", "I am!"}, {"alice", "Meetup on Thursday at 6pm"}, {"bob", "See you there"}} {
		msg, err := s.SendGroupChatMessage(ctx, "general", m[0], m[1])
		if err != nil {
			return err
		}
		sent = append(sent, msg)
	}
	if _, err := s.EditGroupChatMessage(ctx, "general", sent[3], "alice", "Meetup on Thursday at 6:30pm"); err != nil {
		return err
	}
	for _, r := range [][2]string{{"bob", "🎉"}, {"carol", "🎉"}, {"carol", "👋"}} {
		if _, err := s.ReactToGroupChatMessage(ctx, "general", sent[0], r[0], r[1]); err != nil {
			return err
		}
	}
	return nil
}

func loadPrivateChat(ctx context.Context, s *Store, u map[string]User) error {
	if _, err := s.CreatePrivateChat(ctx, PrivateChat{ID: "alice-bob", Name: "Alice & Bob"}, u["alice"], u["bob"]); err != nil {
		return err
	}
	var sent []Message
	for _, m := range [][2]string{{"alice", "Hey Bob, got a minute?"}, {"bob", "Sure, what's up?"}, {"alice", "Can you review my PR?"}} {
		msg, err := s.SendPrivateChatMessage(ctx, "alice-bob", m[0], m[1])
		if err != nil {
			return err
		}
		sent = append(sent, msg)
	}
	_, err := s.MarkPrivateChatMessageRead(ctx, "alice-bob", sent[0], "bob")
	return err
}

// loadChatRequests leaves one request accepted, one declined and two
// pending.
func loadChatRequests(ctx context.Context, s *Store, u map[string]User) error {
	var reqs []ChatRequest
	for _, r := range [][2]string{{"bob", "core"}, {"dave", "core"}, {"carol", "core"}, {"carol", "weekend"}} {
		req, err := s.RequestToJoinGroupChat(ctx, u[r[0]], r[1])
		if err != nil {
			return err
		}
		reqs = append(reqs, req)
	}
	if _, err := s.AcceptChatRequest(ctx, reqs[0]); err != nil {
		return err
	}
	_, err := s.DeclineChatRequest(ctx, reqs[1])
	return err
}

// loadNotifications gives alice four notifications and reads the oldest.
func loadNotifications(ctx context.Context, s *Store, _ map[string]User) error {
	var sent []Notification
	for _, n := range []Notification{
		{NotificationType: "COMMUNITY_JOIN", Message: "bobm joined SF Gophers", Target: communityPK("sf-gophers")},
		{NotificationType: "COMMUNITY_JOIN", Message: "carol joined SF Gophers", Target: communityPK("sf-gophers")},
		{NotificationType: "CHAT_REQUEST", Message: "carol asked to join Core contributors", Target: groupChatPK("core")},
		{NotificationType: "MESSAGE", Message: "bobm: See you there", Target: groupChatPK("general")},
	} {
		created, err := s.Notify(ctx, "alice", n)
		if err != nil {
			return err
		}
		sent = append(sent, created)
	}
	_, err := s.MarkNotificationRead(ctx, "alice", sent[0])
	return err
}
