package globalcart

import (
	"context"
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// pollEvery paces the wait for a table to become ACTIVE. sortkey answers
// ACTIVE at once; DynamoDB takes minutes to add a replica.
const pollEvery = 5 * time.Second

// CreateGlobalTable creates table (pk, sk, on demand) in home's region and
// adds a replica in each of replicaRegions, one at a time: DynamoDB takes
// one replica change per table at once.
func CreateGlobalTable(ctx context.Context, home *dynamodb.Client, table string, replicaRegions ...string) error {
	if err := createTable(ctx, home, table); err != nil {
		return err
	}
	for _, region := range replicaRegions {
		if err := addReplica(ctx, home, table, region); err != nil {
			return err
		}
	}
	return waitActive(ctx, home, table)
}

func createTable(ctx context.Context, db *dynamodb.Client, table string) error {
	_, err := db.CreateTable(ctx, &dynamodb.CreateTableInput{
		TableName:   aws.String(table),
		BillingMode: types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{
			{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS},
			{AttributeName: aws.String("sk"), AttributeType: types.ScalarAttributeTypeS}},
		KeySchema: []types.KeySchemaElement{
			{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash},
			{AttributeName: aws.String("sk"), KeyType: types.KeyTypeRange}},
	})
	return err
}

func addReplica(ctx context.Context, home *dynamodb.Client, table, region string) error {
	if err := waitActive(ctx, home, table); err != nil {
		return err
	}
	_, err := home.UpdateTable(ctx, &dynamodb.UpdateTableInput{TableName: aws.String(table),
		ReplicaUpdates: []types.ReplicationGroupUpdate{{Create: &types.CreateReplicationGroupMemberAction{RegionName: aws.String(region)}}}})
	if err != nil {
		return fmt.Errorf("adding a replica in %s: %w", region, err)
	}
	return nil
}

// waitActive returns once the table and all its replicas are ACTIVE.
func waitActive(ctx context.Context, db *dynamodb.Client, table string) error {
	for {
		out, err := db.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(table)})
		if err != nil || active(out.Table) {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(pollEvery):
		}
	}
}

func active(t *types.TableDescription) bool {
	for _, r := range t.Replicas {
		if r.ReplicaStatus != types.ReplicaStatusActive {
			return false
		}
	}
	return t.TableStatus == types.TableStatusActive
}
