package main

import (
	"context"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/sortkeydb/sortkey/examples/internal/runner"
)

// pattern is one access pattern as the program prints it.
type pattern struct {
	name   string
	header []string
	rows   func(context.Context, *Store) ([][]string, error)
}

// show runs every access pattern on the sample and prints each with the
// requests it made.
func show(ctx context.Context, s *Store, rec *runner.Recorder, w io.Writer) error {
	for _, p := range patterns() {
		rec.Take()
		rows, err := p.rows(ctx, s)
		if err != nil {
			return fmt.Errorf("%s: %w", p.name, err)
		}
		runner.Print(w, p.name, rec.Take(), p.header, rows)
	}
	return nil
}

// patterns lists the design's access patterns in the README's order.
func patterns() []pattern {
	return slices.Concat(userPatterns(), communityPatterns(), notificationPatterns(),
		groupChatPatterns(), privateChatPatterns(), chatRequestPatterns())
}

func userPatterns() []pattern {
	return []pattern{{"Get a user", userHeader, func(ctx context.Context, s *Store) ([][]string, error) {
		return one(s.GetUser(ctx, "alice"))(userRow)
	}}}
}

func communityPatterns() []pattern {
	return []pattern{
		{"Get a community", communityHeader, func(ctx context.Context, s *Store) ([][]string, error) {
			return one(s.GetCommunity(ctx, "sf-gophers"))(communityRow)
		}},
		{"Get a community's members", memberHeader, func(ctx context.Context, s *Store) ([][]string, error) {
			return many(s.GetCommunityMembers(ctx, "sf-gophers"))(memberRow)
		}},
		{"Get a community's group chats", linkHeader, func(ctx context.Context, s *Store) ([][]string, error) {
			return many(s.GetCommunityGroupChats(ctx, "sf-gophers"))(linkRow)
		}},
		{"Get all of a user's communities", membershipHeader, func(ctx context.Context, s *Store) ([][]string, error) {
			return many(s.GetUserCommunities(ctx, "alice"))(membershipRow)
		}},
		{"Get the community that this group chat belongs to", linkHeader, func(ctx context.Context, s *Store) ([][]string, error) {
			return one(s.GetGroupChatCommunity(ctx, "weekend"))(linkRow)
		}},
		{"Get all communities within a certain country", communityHeader, func(ctx context.Context, s *Store) ([][]string, error) {
			return many(s.GetCommunitiesInCountry(ctx, "United States"))(communityRow)
		}},
		{"Get all communities within a certain state", communityHeader, func(ctx context.Context, s *Store) ([][]string, error) {
			return many(s.GetCommunitiesInState(ctx, "United States", "California"))(communityRow)
		}},
		{"Get all communities within a certain city", communityHeader, func(ctx context.Context, s *Store) ([][]string, error) {
			return many(s.GetCommunitiesInCity(ctx, sf))(communityRow)
		}},
	}
}

func notificationPatterns() []pattern {
	return []pattern{
		{"Get a user's notifications, unread first", notificationHeader, func(ctx context.Context, s *Store) ([][]string, error) {
			return many(s.GetNotifications(ctx, "alice"))(notificationRow)
		}},
		{"Get a user's unread notifications", notificationHeader, func(ctx context.Context, s *Store) ([][]string, error) {
			return many(s.GetUnreadNotifications(ctx, "alice"))(notificationRow)
		}},
	}
}

func groupChatPatterns() []pattern {
	return []pattern{
		{"Get a group chat", groupChatHeader, func(ctx context.Context, s *Store) ([][]string, error) {
			return one(s.GetGroupChat(ctx, "core"))(groupChatRow)
		}},
		{"Get a group chat's members", memberHeader, func(ctx context.Context, s *Store) ([][]string, error) {
			return many(s.GetGroupChatMembers(ctx, "general"))(memberRow)
		}},
		{"Get a group chat's messages, newest first", messageHeader, func(ctx context.Context, s *Store) ([][]string, error) {
			return allPages(ctx, 3, s.GetGroupChatMessages, "general")
		}},
	}
}

func privateChatPatterns() []pattern {
	return []pattern{
		{"Get a private chat", []string{"Id", "Name"}, func(ctx context.Context, s *Store) ([][]string, error) {
			return one(s.GetPrivateChat(ctx, "alice-bob"))(func(p PrivateChat) []string { return []string{p.ID, p.Name} })
		}},
		{"Get a private chat's members", memberHeader, func(ctx context.Context, s *Store) ([][]string, error) {
			return many(s.GetPrivateChatMembers(ctx, "alice-bob"))(memberRow)
		}},
		{"Get a private chat's messages, newest first", messageHeader, func(ctx context.Context, s *Store) ([][]string, error) {
			return allPages(ctx, 2, s.GetPrivateChatMessages, "alice-bob")
		}},
	}
}

func chatRequestPatterns() []pattern {
	return []pattern{
		{"Get a user's chat requests", requestHeader, func(ctx context.Context, s *Store) ([][]string, error) {
			return many(s.GetUserChatRequests(ctx, "carol"))(requestRow)
		}},
		{"Get a group chat's chat requests", requestHeader, func(ctx context.Context, s *Store) ([][]string, error) {
			return many(s.GetGroupChatChatRequests(ctx, "core"))(requestRow)
		}},
		{"Get all of a user's pending chat requests", requestHeader, func(ctx context.Context, s *Store) ([][]string, error) {
			return many(s.GetUserPendingChatRequests(ctx, "carol"))(requestRow)
		}},
		{"Get all of a group chat's pending chat requests", requestHeader, func(ctx context.Context, s *Store) ([][]string, error) {
			return many(s.GetGroupChatPendingChatRequests(ctx, "core"))(requestRow)
		}},
	}
}

// allPages reads a chat's messages page by page, as a client scrolling
// back would, and numbers the pages.
func allPages(ctx context.Context, limit int32, get func(context.Context, string, int32, Cursor) ([]Message, Cursor, error), id string) ([][]string, error) {
	var rows [][]string
	var after Cursor
	for page := 1; ; page++ {
		ms, next, err := get(ctx, id, limit, after)
		if err != nil {
			return nil, err
		}
		for _, m := range ms {
			rows = append(rows, append([]string{fmt.Sprint(page)}, messageRow(m)...))
		}
		if after = next; after == nil {
			return rows, nil
		}
	}
}

// one and many turn a method's result into rows with a row function.
func one[T any](v T, err error) func(func(T) []string) ([][]string, error) {
	return func(row func(T) []string) ([][]string, error) {
		if err != nil {
			return nil, err
		}
		return [][]string{row(v)}, nil
	}
}

func many[T any](vs []T, err error) func(func(T) []string) ([][]string, error) {
	return func(row func(T) []string) ([][]string, error) {
		var rows [][]string
		for _, v := range vs {
			rows = append(rows, row(v))
		}
		return rows, err
	}
}

var (
	userHeader         = []string{"Id", "Username", "Name", "Location", "Role", "CreatedAt"}
	communityHeader    = []string{"Id", "Name", "Topic", "Location", "Founder"}
	memberHeader       = []string{"UserId", "Username", "JoinedAt"}
	membershipHeader   = []string{"CommunityId", "CommunityName", "JoinedAt"}
	linkHeader         = []string{"CommunityId", "CommunityName", "GroupChatId", "Name", "Private"}
	notificationHeader = []string{"NotificationType", "Message", "Read", "CreatedAt"}
	groupChatHeader    = []string{"Id", "Name", "Private", "NumMembers", "Capacity"}
	messageHeader      = []string{"page", "SenderId", "Content", "CreatedAt", "Reactions", "Read", "Editted"}
	requestHeader      = []string{"Username", "ChatId", "Status", "PendingId", "CreatedAt"}
)

func userRow(u User) []string {
	return []string{u.ID, u.Username, u.Name, where(u.Location), u.Role, u.CreatedAt}
}

func communityRow(c Community) []string {
	return []string{c.ID, c.Name, c.Topic, where(c.Location), c.Founder}
}

func where(l Location) string { return l.City + ", " + l.State + ", " + l.Country }

func memberRow(m Member) []string { return []string{m.UserID, m.Username, m.JoinedAt} }

func membershipRow(m CommunityMember) []string {
	return []string{m.CommunityID, m.CommunityName, m.JoinedAt}
}

func linkRow(l CommunityGroupChat) []string {
	return []string{l.CommunityID, l.CommunityName, l.GroupChatID, l.Name, fmt.Sprint(l.Private)}
}

func notificationRow(n Notification) []string {
	return []string{n.NotificationType, n.Message, fmt.Sprint(n.Read), n.CreatedAt}
}

func groupChatRow(g GroupChat) []string {
	return []string{g.ID, g.Name, fmt.Sprint(g.Private), fmt.Sprint(g.NumMembers), fmt.Sprint(g.Capacity)}
}

func messageRow(m Message) []string {
	return []string{m.SenderID, m.Content, m.CreatedAt, reactions(m.Reactions), fmt.Sprint(m.Read), fmt.Sprint(m.Edited)}
}

// reactions prints the map in emoji order, since map order is random.
func reactions(r map[string][]string) string {
	var parts []string
	for _, emoji := range slices.Sorted(maps.Keys(r)) {
		parts = append(parts, emoji+" "+strings.Join(r[emoji], ","))
	}
	return strings.Join(parts, " ")
}

func requestRow(r ChatRequest) []string {
	return []string{r.Username, r.ChatID, r.Status, r.PendingID, r.CreatedAt}
}
