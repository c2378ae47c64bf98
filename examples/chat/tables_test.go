package main

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// TestTablesAsDesigned describes every table as the server holds it:
// key schemas and indexes (all projecting ALL), and that creating them
// again leaves them as they are.
func TestTablesAsDesigned(t *testing.T) {
	e := newEnv(t)
	if err := CreateTables(e.ctx, e.s.db); err != nil {
		t.Fatalf("creating the tables again: %v", err)
	}
	want := map[string]string{
		UsersTable:         "PK",
		CommunitiesTable:   "PK,SK CommunityGroupChatsIndex(GroupChatPK,GroupChatSK ALL) CommunityLocationIndex(LocationPK,LocationSK ALL) CommunityMembersIndex(MemberPK,MemberSK ALL)",
		NotificationsTable: "PK,SK",
		GroupChatsTable:    "PK,SK",
		PrivateChatsTable:  "PK,SK",
		ChatRequestsTable:  "PK,SK PendingChatRequestsIndex(PK,PendingId ALL)",
	}
	for table, schema := range want {
		out, err := e.s.db.DescribeTable(e.ctx, &dynamodb.DescribeTableInput{TableName: aws.String(table)})
		if err != nil {
			t.Fatal(err)
		}
		if got := describe(out.Table); got != schema {
			t.Errorf("%s:\n got %s\nwant %s", table, got, schema)
		}
	}
}

func describe(td *types.TableDescription) string {
	parts := []string{keys(td.KeySchema)}
	for _, g := range td.GlobalSecondaryIndexes {
		parts = append(parts, fmt.Sprintf("%s(%s %s)", *g.IndexName, keys(g.KeySchema), g.Projection.ProjectionType))
	}
	slices.Sort(parts[1:])
	return strings.Join(parts, " ")
}

func keys(ks []types.KeySchemaElement) string {
	var names []string
	for _, k := range ks {
		names = append(names, *k.AttributeName)
	}
	return strings.Join(names, ",")
}

// TestItemKeysAsDesigned reads sample items by the exact keys the design
// spells out, so a key built differently would not be found.
func TestItemKeysAsDesigned(t *testing.T) {
	e := newUncoveredEnv(t)
	for _, c := range []struct {
		table  string
		key    map[string]types.AttributeValue
		wantAt map[string]string // other key attributes the item carries, for the GSIs
	}{
		{UsersTable, map[string]types.AttributeValue{"PK": str("USER#alice")}, nil},
		{CommunitiesTable, key("COMMUNITY#sf-gophers", "COMMUNITY#sf-gophers"),
			map[string]string{"LocationPK": "COUNTRY#United States", "LocationSK": "STATE#California#CITY#San Francisco"}},
		{CommunitiesTable, key("COMMUNITY#sf-gophers", "USER#bob"),
			map[string]string{"MemberPK": "USER#bob", "MemberSK": "COMMUNITY#sf-gophers"}},
		{CommunitiesTable, key("COMMUNITY#sf-gophers", "GROUPCHAT#general"),
			map[string]string{"GroupChatPK": "GROUPCHAT#general", "GroupChatSK": "COMMUNITY#sf-gophers"}},
		{NotificationsTable, key("USER#alice", "NOTIFICATION#UNREAD#2024-05-01T09:39:00.000Z#id18"), nil},
		{NotificationsTable, key("USER#alice", "NOTIFICATIONREAD#2024-05-01T09:38:00.000Z#id17"), nil},
		{GroupChatsTable, key("GROUPCHAT#core", "GROUPCHAT#core"), nil},
		{GroupChatsTable, key("GROUPCHAT#core", "USER#bob"), nil},
		{GroupChatsTable, key("GROUPCHAT#general", "MESSAGE#2024-05-01T09:23:00.000Z#id01"), nil},
		{PrivateChatsTable, key("PRIVATECHAT#alice-bob", "PRIVATECHAT#alice-bob"), nil},
		{PrivateChatsTable, key("PRIVATECHAT#alice-bob", "USER#alice"), nil},
		{PrivateChatsTable, key("PRIVATECHAT#alice-bob", "MESSAGE#2024-05-01T09:30:00.000Z#id06"), nil},
		{ChatRequestsTable, key("USER#carol", "CHATREQUEST#2024-05-01T09:35:00.000Z#id13"), map[string]string{"PendingId": "id14"}},
		{ChatRequestsTable, key("GROUPCHAT#core", "CHATREQUEST#2024-05-01T09:35:00.000Z#id13"), map[string]string{"PendingId": "id14"}},
	} {
		out, err := e.s.db.GetItem(e.ctx, &dynamodb.GetItemInput{TableName: aws.String(c.table), Key: c.key})
		if err != nil || out.Item == nil {
			t.Errorf("%s %v: not found (%v)", c.table, c.key, err)
			continue
		}
		for name, want := range c.wantAt {
			if got, _ := out.Item[name].(*types.AttributeValueMemberS); got == nil || got.Value != want {
				t.Errorf("%s %v: %s = %v, want %q", c.table, c.key, name, out.Item[name], want)
			}
		}
	}
	// A settled request has no PendingId at all: that is what took it out
	// of the sparse index.
	out, err := e.s.db.GetItem(e.ctx, &dynamodb.GetItemInput{TableName: aws.String(ChatRequestsTable),
		Key: key("GROUPCHAT#core", "CHATREQUEST#2024-05-01T09:33:00.000Z#id09")})
	if _, has := out.Item["PendingId"]; err != nil || out.Item == nil || has {
		t.Errorf("bob's accepted request: %v, %v", out.Item, err)
	}
}
