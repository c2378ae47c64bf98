package main

import (
	"crypto/rand"
	"fmt"
	"time"
)

// The sort keys of the design's contexts. A partition key is always the
// entity's own ID (a UUID), in the attribute PK.
const (
	skUser          = "User"
	skGroup         = "Group"
	skContainer     = "Container"
	skInvitation    = "InvitationLinkHash"
	groupPrefix     = "Group#"     // + GroupId, in a user's partition
	containerPrefix = "Container#" // + ContainerId, in a group's partition
)

// User is a user's own item: PK UserId, SK "User". Its EMailAddress puts
// it in EMailAndUserIdRelationship; a user without one is left out (an
// index key cannot be an empty string).
type User struct {
	UserId       string `dynamodbav:"PK"`
	UserName     string
	EMailAddress string `dynamodbav:",omitempty"`
}

// Membership says that a user belongs to a group: PK UserId, SK
// "Group#{GroupId}". Its GroupId puts it in UserAndGroupRelationship.
type Membership struct {
	UserId  string `dynamodbav:"PK"`
	GroupId string
}

// Group is a group's own item: PK GroupId, SK "Group". Users holds the
// members' IDs, kept in step with the Membership items by transactions.
type Group struct {
	GroupId   string `dynamodbav:"PK"`
	GroupName string
	Users     []string `dynamodbav:",stringset,omitempty"`
}

// ContainerLink says that a container belongs to a group: PK GroupId, SK
// "Container#{ContainerId}". Its ContainerId puts it in
// GroupAndContainerRelationship.
type ContainerLink struct {
	GroupId     string `dynamodbav:"PK"`
	ContainerId string
}

// Container is a container's item: PK ContainerId, SK "Container", its
// foods a list of maps inside the item.
type Container struct {
	ContainerId   string `dynamodbav:"PK"`
	ContainerName string
	Foods         []Food
}

// Food is one element of a container's Foods. A nil field is stored as
// NULL, as the design's "| null" types say.
type Food struct {
	FoodId          string
	Name            *string
	Unit            *string
	Quantity        *float64
	Category        *string
	Expiry          *string // ISO 8601
	CreatedDatetime string  // ISO 8601
}

// InvitationLink is a group's one invitation link: PK GroupId, SK
// "InvitationLinkHash". Its hash puts it in the InvitationHash index.
type InvitationLink struct {
	GroupId            string `dynamodbav:"PK"`
	InvitationLinkHash string
	LinkExpiryDatetime string // ISO 8601, UTC
}

// iso formats a time as the design's ISO 8601 strings, always in UTC so
// that the strings sort and compare as the times do.
func iso(t time.Time) string {
	return t.UTC().Format(time.RFC3339)
}

// newUUID is a random (version 4) UUID, the design's ID format.
func newUUID() string {
	var b [16]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never returns an error
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:])
}
