package regions_test

import (
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/sortkeydb/sortkey"
	"github.com/sortkeydb/sortkey/sortkeytest"
)

// westOnly may write only us-west-2's orders table; admin may do anything.
const regionsAuth = `{"account": "123456789012", "principals": [
 {"arn": "arn:aws:iam::123456789012:user/admin", "accessKeyId": "AKIDADMIN", "secretAccessKey": "admin-secret",
  "policies": [{"Version": "2012-10-17", "Statement": [{"Effect": "Allow", "Action": "dynamodb:*", "Resource": "*"}]}]},
 {"arn": "arn:aws:iam::123456789012:user/west", "accessKeyId": "AKIDWEST", "secretAccessKey": "west-secret",
  "policies": [{"Version": "2012-10-17", "Statement": [{"Effect": "Allow", "Action": ["dynamodb:PutItem", "dynamodb:GetItem"],
   "Resource": "arn:aws:dynamodb:us-west-2:123456789012:table/orders"}]}]}]}`

// TestPoliciesNameEachRegionsTables: with access control on, a request is
// signed for its region and judged on that region's table ARNs.
func TestPoliciesNameEachRegionsTables(t *testing.T) {
	s := sortkeytest.NewWithOptions(t, &sortkey.Options{Regions: sortkey.RegionsSeparate, Auth: []byte(regionsAuth), ReplicationLag: -1})
	as := func(key, secret, region string) *dynamodb.Client {
		cfg := s.AWSConfigIn(region)
		cfg.Credentials = credentials.NewStaticCredentialsProvider(key, secret, "")
		return dynamodb.NewFromConfig(cfg)
	}
	admin := as("AKIDADMIN", "admin-secret", east)
	if _, err := admin.CreateTable(ctx, &dynamodb.CreateTableInput{TableName: aws.String("orders"), BillingMode: types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS}},
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash}}}); err != nil {
		t.Fatal(err)
	}
	if _, err := admin.UpdateTable(ctx, &dynamodb.UpdateTableInput{TableName: aws.String("orders"),
		ReplicaUpdates: []types.ReplicationGroupUpdate{{Create: &types.CreateReplicationGroupMemberAction{RegionName: aws.String(west)}}}}); err != nil {
		t.Fatal(err)
	}
	item := map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: "o1"}}
	if _, err := as("AKIDWEST", "west-secret", west).PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("orders"), Item: item}); err != nil {
		t.Fatalf("us-west-2's table, allowed: %v", err)
	}
	_, err := as("AKIDWEST", "west-secret", east).PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("orders"), Item: item})
	if err == nil || !strings.Contains(err.Error(), "AccessDeniedException") ||
		!strings.Contains(err.Error(), "arn:aws:dynamodb:us-east-1:123456789012:table/orders") {
		t.Fatalf("us-east-1's table, not allowed: %v", err)
	}
	if err := s.DB.FlushReplication(ctx); err != nil {
		t.Fatal(err)
	}
	out, err := admin.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("orders"), Key: item, ConsistentRead: aws.Bool(true)})
	if err != nil || out.Item == nil {
		t.Fatalf("the write allowed in us-west-2 replicated to us-east-1: %v %v", out, err)
	}
}
