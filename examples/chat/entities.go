package main

import "time"

// Location is where a user or community is, coarse to fine.
type Location struct {
	Country string
	State   string
	City    string
}

// User is an item of the Users table.
type User struct {
	ID            string `dynamodbav:"Id"`
	Username      string
	Name          string
	PasswordHash  string
	Email         string
	Bio           string
	Location      Location
	CreatedAt     string
	LastSeenAt    string
	AvatarURL     string
	CoverPhotoURL string
	Role          string
}

// Community is a community's own item in the Communities table.
type Community struct {
	ID            string `dynamodbav:"Id"`
	Name          string
	Description   string
	Topic         string
	AvatarURL     string
	CoverPhotoURL string
	Location      Location
	CreatedAt     string
	Founder       string // the founding user's id
}

// Member is a user's item inside a community, group chat or private
// chat partition: enough of the user to list the members without
// reading the Users table.
type Member struct {
	UserID   string `dynamodbav:"UserId"`
	Username string
	JoinedAt string
}

// CommunityMember is a membership item of the Communities table. It
// carries the community's name so that a user's communities can be
// listed from CommunityMembersIndex alone.
type CommunityMember struct {
	Member
	CommunityID   string `dynamodbav:"CommunityId"`
	CommunityName string
}

// CommunityGroupChat is the item that links a group chat to its
// community in the Communities table; CommunityGroupChatsIndex inverts it.
type CommunityGroupChat struct {
	CommunityID   string `dynamodbav:"CommunityId"`
	CommunityName string
	GroupChatID   string `dynamodbav:"GroupChatId"`
	Name          string
	Private       bool
}

// Notification is an item of the Notifications table. CreatedAt is kept
// as an attribute because marking a notification read rewrites its sort
// key, which embeds it.
type Notification struct {
	ID               string `dynamodbav:"Id"`
	NotificationType string
	Message          string
	Target           string // what the notification is about, e.g. GROUPCHAT#<id>
	Read             bool
	Seen             bool
	CreatedAt        string
}

// GroupChat is a group chat's own item in the GroupChats table.
type GroupChat struct {
	ID          string `dynamodbav:"Id"`
	Name        string
	Description string
	Capacity    int
	Private     bool
	NumMembers  int
}

// PrivateChat is a private chat's own item in the PrivateChats table.
type PrivateChat struct {
	ID          string `dynamodbav:"Id"`
	Name        string
	Description string
}

// Message is a message item of a group or private chat. Editted keeps the
// design's spelling on the wire.
type Message struct {
	ID        string `dynamodbav:"Id"`
	SenderID  string `dynamodbav:"SenderId"`
	Content   string
	CreatedAt string
	Reactions map[string][]string // emoji -> ids of the users who reacted
	Read      bool
	Edited    bool `dynamodbav:"Editted"`
}

// ChatRequest is a user's request to join a group chat. It is stored
// twice, in the user's partition and in the group chat's; PendingId
// exists only while the request is pending, which is what keeps
// PendingChatRequestsIndex sparse.
type ChatRequest struct {
	ID        string `dynamodbav:"Id"`
	UserID    string `dynamodbav:"UserId"`
	Username  string
	ChatID    string `dynamodbav:"ChatId"`
	CreatedAt string
	Status    string
	Seen      bool
	PendingID string `dynamodbav:"PendingId,omitempty"`
}

// Chat request statuses.
const (
	StatusPending  = "PENDING"
	StatusAccepted = "ACCEPTED"
	StatusDeclined = "DECLINED"
)

// stampLayout is ISO-8601 in UTC with a fixed number of fractional digits,
// so that timestamps inside sort keys sort as strings in time order
// (RFC3339Nano drops trailing zeros and would not).
const stampLayout = "2006-01-02T15:04:05.000Z"

func stamp(t time.Time) string { return t.UTC().Format(stampLayout) }
