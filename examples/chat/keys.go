package main

// The key values of the design, one function per shape.

func userPK(id string) string         { return "USER#" + id }
func communityPK(id string) string    { return "COMMUNITY#" + id }
func groupChatPK(id string) string    { return "GROUPCHAT#" + id }
func privateChatPK(id string) string  { return "PRIVATECHAT#" + id }
func countryPK(country string) string { return "COUNTRY#" + country }

// stateCitySK is CommunityLocationIndex's sort key: the hierarchy below
// the country, so that begins_with narrows it to a state.
func stateCitySK(l Location) string { return statePrefix(l.State) + "CITY#" + l.City }

func statePrefix(state string) string { return "STATE#" + state + "#" }

func messageSK(createdAt, id string) string { return "MESSAGE#" + createdAt + "#" + id }

func chatRequestSK(createdAt, id string) string { return "CHATREQUEST#" + createdAt + "#" + id }

// Unread notifications sort before read ones because '#' sorts before 'R'.
const (
	unreadPrefix = "NOTIFICATION#UNREAD#"
	readPrefix   = "NOTIFICATIONREAD#"
)

func notificationSK(n Notification) string {
	prefix := unreadPrefix
	if n.Read {
		prefix = readPrefix
	}
	return prefix + n.CreatedAt + "#" + n.ID
}
