package conformance_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go"

	"github.com/sortkeydb/sortkey/sortkeytest"
)

var ctx = context.Background()

// createMusic creates a table keyed (Artist S, SongTitle S) with one GSI and
// one LSI, the shape the Developer Guide's examples use.
func createMusic(t *testing.T, c *dynamodb.Client, name string) *types.TableDescription {
	t.Helper()
	out, err := c.CreateTable(ctx, &dynamodb.CreateTableInput{
		TableName: aws.String(name),
		AttributeDefinitions: []types.AttributeDefinition{
			{AttributeName: aws.String("Artist"), AttributeType: types.ScalarAttributeTypeS},
			{AttributeName: aws.String("SongTitle"), AttributeType: types.ScalarAttributeTypeS},
			{AttributeName: aws.String("Genre"), AttributeType: types.ScalarAttributeTypeS},
			{AttributeName: aws.String("Year"), AttributeType: types.ScalarAttributeTypeN},
		},
		KeySchema: []types.KeySchemaElement{
			{AttributeName: aws.String("Artist"), KeyType: types.KeyTypeHash},
			{AttributeName: aws.String("SongTitle"), KeyType: types.KeyTypeRange},
		},
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{{
			IndexName:  aws.String("ByGenre"),
			KeySchema:  []types.KeySchemaElement{{AttributeName: aws.String("Genre"), KeyType: types.KeyTypeHash}},
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeKeysOnly},
		}},
		LocalSecondaryIndexes: []types.LocalSecondaryIndex{{
			IndexName: aws.String("ByYear"),
			KeySchema: []types.KeySchemaElement{
				{AttributeName: aws.String("Artist"), KeyType: types.KeyTypeHash},
				{AttributeName: aws.String("Year"), KeyType: types.KeyTypeRange},
			},
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeInclude, NonKeyAttributes: []string{"AlbumTitle"}},
		}},
		BillingMode: types.BillingModePayPerRequest,
		Tags:        []types.Tag{{Key: aws.String("team"), Value: aws.String("music")}},
	})
	if err != nil {
		t.Fatalf("CreateTable: %v", err)
	}
	return out.TableDescription
}

func TestDescribeLimitsAndEndpoints(t *testing.T) {
	srv := sortkeytest.New(t)
	c := srv.Client()
	l, err := c.DescribeLimits(ctx, &dynamodb.DescribeLimitsInput{})
	if err != nil || *l.TableMaxReadCapacityUnits != 40000 {
		t.Fatalf("DescribeLimits: %v %+v", err, l)
	}
	e, err := c.DescribeEndpoints(ctx, &dynamodb.DescribeEndpointsInput{})
	if err != nil || len(e.Endpoints) != 1 || !strings.HasSuffix(srv.URL, *e.Endpoints[0].Address) {
		t.Fatalf("DescribeEndpoints: %v %+v", err, e)
	}
}

func createSimple(t testing.TB, c *dynamodb.Client, name string) {
	t.Helper()
	_, err := c.CreateTable(ctx, &dynamodb.CreateTableInput{
		TableName:            aws.String(name),
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS}},
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash}},
		BillingMode:          types.BillingModePayPerRequest,
	})
	if err != nil {
		t.Fatalf("CreateTable %s: %v", name, err)
	}
}

func wantAPIError(t *testing.T, err error, code, msg string) {
	t.Helper()
	var ae smithy.APIError
	if !errors.As(err, &ae) {
		t.Fatalf("want %s %q, got %v", code, msg, err)
	}
	if ae.ErrorCode() != code || ae.ErrorMessage() != msg {
		t.Fatalf("want %s %q\n got %s %q", code, msg, ae.ErrorCode(), ae.ErrorMessage())
	}
}

func wantAPIErrorPrefix(t *testing.T, err error, code, prefix string) {
	t.Helper()
	var ae smithy.APIError
	if !errors.As(err, &ae) || ae.ErrorCode() != code || !strings.HasPrefix(ae.ErrorMessage(), prefix) {
		t.Fatalf("want %s %q..., got %v", code, prefix, err)
	}
}
