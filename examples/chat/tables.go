package main

import (
	"context"
	"errors"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// The tables and indexes, named as the design names them.
const (
	UsersTable         = "Users"
	CommunitiesTable   = "Communities"
	NotificationsTable = "Notifications"
	GroupChatsTable    = "GroupChats"
	PrivateChatsTable  = "PrivateChats"
	ChatRequestsTable  = "ChatRequests"

	CommunityLocationIndex   = "CommunityLocationIndex"
	CommunityMembersIndex    = "CommunityMembersIndex"
	CommunityGroupChatsIndex = "CommunityGroupChatsIndex"
	// The design calls it "the Chat Requests GSI" without a name.
	PendingChatRequestsIndex = "PendingChatRequestsIndex"
)

// Tables is every table of the design, ready for CreateTable.
func Tables() []*dynamodb.CreateTableInput {
	return []*dynamodb.CreateTableInput{
		table(UsersTable, "PK", ""),
		communitiesTable(),
		table(NotificationsTable, "PK", "SK"),
		table(GroupChatsTable, "PK", "SK"),
		table(PrivateChatsTable, "PK", "SK"),
		chatRequestsTable(),
	}
}

// communitiesTable has three GSIs, each sparse: only the item kind it
// serves carries its key attributes, so the two inverted indexes do not
// both hold every item of the table.
func communitiesTable() *dynamodb.CreateTableInput {
	t := table(CommunitiesTable, "PK", "SK")
	t.GlobalSecondaryIndexes = []types.GlobalSecondaryIndex{
		gsi(CommunityLocationIndex, "LocationPK", "LocationSK"),
		gsi(CommunityMembersIndex, "MemberPK", "MemberSK"),
		gsi(CommunityGroupChatsIndex, "GroupChatPK", "GroupChatSK"),
	}
	t.AttributeDefinitions = append(t.AttributeDefinitions, attrs("LocationPK", "LocationSK",
		"MemberPK", "MemberSK", "GroupChatPK", "GroupChatSK")...)
	return t
}

// chatRequestsTable's GSI shares the table's partition key and sorts on
// PendingId, which only pending requests have.
func chatRequestsTable() *dynamodb.CreateTableInput {
	t := table(ChatRequestsTable, "PK", "SK")
	t.GlobalSecondaryIndexes = []types.GlobalSecondaryIndex{gsi(PendingChatRequestsIndex, "PK", "PendingId")}
	t.AttributeDefinitions = append(t.AttributeDefinitions, attrs("PendingId")...)
	return t
}

// table is an on-demand table keyed on pk and, unless it is "", sk.
func table(name, pk, sk string) *dynamodb.CreateTableInput {
	t := &dynamodb.CreateTableInput{TableName: aws.String(name), BillingMode: types.BillingModePayPerRequest,
		KeySchema: keySchema(pk, sk)}
	if sk == "" {
		t.AttributeDefinitions = attrs(pk)
	} else {
		t.AttributeDefinitions = attrs(pk, sk)
	}
	return t
}

func gsi(name, pk, sk string) types.GlobalSecondaryIndex {
	return types.GlobalSecondaryIndex{IndexName: aws.String(name), KeySchema: keySchema(pk, sk),
		Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll}}
}

func keySchema(pk, sk string) []types.KeySchemaElement {
	ks := []types.KeySchemaElement{{AttributeName: aws.String(pk), KeyType: types.KeyTypeHash}}
	if sk != "" {
		ks = append(ks, types.KeySchemaElement{AttributeName: aws.String(sk), KeyType: types.KeyTypeRange})
	}
	return ks
}

// attrs defines string attributes: every key in the design is a string.
func attrs(names ...string) []types.AttributeDefinition {
	var defs []types.AttributeDefinition
	for _, n := range names {
		defs = append(defs, types.AttributeDefinition{AttributeName: aws.String(n), AttributeType: types.ScalarAttributeTypeS})
	}
	return defs
}

// CreateTables creates every table that does not exist yet and waits
// until each is active, so it can run again against the same endpoint.
func CreateTables(ctx context.Context, db *dynamodb.Client) error {
	for _, t := range Tables() {
		_, err := db.CreateTable(ctx, t)
		var exists *types.ResourceInUseException
		if err != nil && !errors.As(err, &exists) {
			return err
		}
		if err := waitActive(ctx, db, *t.TableName); err != nil {
			return err
		}
	}
	return nil
}

// waitActive matters on AWS, where a new table is CREATING for seconds;
// the first check is immediate, so it costs nothing on sortkey.
func waitActive(ctx context.Context, db *dynamodb.Client, name string) error {
	w := dynamodb.NewTableExistsWaiter(db, func(o *dynamodb.TableExistsWaiterOptions) { o.MinDelay = time.Second })
	return w.Wait(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(name)}, 5*time.Minute)
}
