package sortkey_test

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

func TestCreateAndDescribeTableWithIndexes(t *testing.T) {
	c := sortkeytest.New(t).Client()
	created := createMusic(t, c, "Music")
	if created.TableStatus != types.TableStatusCreating {
		t.Errorf("CreateTable status %s, want CREATING", created.TableStatus)
	}
	// DynamoDB builds a new table's indexes with it: CREATING, and no
	// Backfilling, which only indexes added to an existing table report.
	if g := created.GlobalSecondaryIndexes[0]; g.IndexStatus != types.IndexStatusCreating || g.Backfilling != nil {
		t.Errorf("CreateTable GSI status %s, backfilling %v; want CREATING, none", g.IndexStatus, g.Backfilling)
	}
	d, err := c.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String("Music")})
	if err != nil {
		t.Fatal(err)
	}
	tbl := d.Table
	if tbl.TableStatus != types.TableStatusActive || *tbl.TableArn != "arn:aws:dynamodb:us-east-1:000000000000:table/Music" {
		t.Errorf("status %s arn %s", tbl.TableStatus, *tbl.TableArn)
	}
	if *tbl.TableId != *created.TableId || tbl.CreationDateTime == nil || *tbl.ItemCount != 0 {
		t.Errorf("id %s vs %s, created %v, items %d", *tbl.TableId, *created.TableId, tbl.CreationDateTime, *tbl.ItemCount)
	}
	if tbl.BillingModeSummary == nil || tbl.BillingModeSummary.BillingMode != types.BillingModePayPerRequest {
		t.Errorf("billing summary %+v", tbl.BillingModeSummary)
	}
	if len(tbl.GlobalSecondaryIndexes) != 1 || *tbl.GlobalSecondaryIndexes[0].IndexName != "ByGenre" ||
		tbl.GlobalSecondaryIndexes[0].IndexStatus != types.IndexStatusActive ||
		tbl.GlobalSecondaryIndexes[0].Projection.ProjectionType != types.ProjectionTypeKeysOnly {
		t.Errorf("GSIs %+v", tbl.GlobalSecondaryIndexes)
	}
	if len(tbl.LocalSecondaryIndexes) != 1 || tbl.LocalSecondaryIndexes[0].Projection.NonKeyAttributes[0] != "AlbumTitle" ||
		*tbl.LocalSecondaryIndexes[0].IndexArn != *tbl.TableArn+"/index/ByYear" {
		t.Errorf("LSIs %+v", tbl.LocalSecondaryIndexes)
	}
}

func TestTableErrors(t *testing.T) {
	c := sortkeytest.New(t).Client()
	createMusic(t, c, "Music")
	_, err := c.CreateTable(ctx, &dynamodb.CreateTableInput{
		TableName:            aws.String("Music"),
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("k"), AttributeType: types.ScalarAttributeTypeS}},
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("k"), KeyType: types.KeyTypeHash}},
		BillingMode:          types.BillingModePayPerRequest,
	})
	wantAPIError(t, err, "ResourceInUseException", "Table already exists: Music")
	_, err = c.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String("Nope")})
	wantAPIError(t, err, "ResourceNotFoundException", "Requested resource not found: Table: Nope not found")
	_, err = c.DeleteTable(ctx, &dynamodb.DeleteTableInput{TableName: aws.String("Nope")})
	wantAPIError(t, err, "ResourceNotFoundException", "Requested resource not found: Table: Nope not found")
}

func TestListTablesPages(t *testing.T) {
	c := sortkeytest.New(t).Client()
	for _, n := range []string{"ccc", "aaa", "bbb", "ddd"} {
		createSimple(t, c, n)
	}
	var got []string
	p := dynamodb.NewListTablesPaginator(c, &dynamodb.ListTablesInput{Limit: aws.Int32(3)})
	pages := 0
	for p.HasMorePages() {
		out, err := p.NextPage(ctx)
		if err != nil {
			t.Fatal(err)
		}
		pages++
		got = append(got, out.TableNames...)
	}
	if strings.Join(got, ",") != "aaa,bbb,ccc,ddd" || pages != 2 {
		t.Fatalf("tables %v in %d pages", got, pages)
	}
}

func TestDeleteTableHonoursDeletionProtection(t *testing.T) {
	c := sortkeytest.New(t).Client()
	createSimple(t, c, "guarded")
	_, err := c.UpdateTable(ctx, &dynamodb.UpdateTableInput{TableName: aws.String("guarded"), DeletionProtectionEnabled: aws.Bool(true)})
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.DeleteTable(ctx, &dynamodb.DeleteTableInput{TableName: aws.String("guarded")})
	wantAPIError(t, err, "ValidationException", "Resource cannot be deleted as it is currently protected against deletion. Disable deletion protection first.")
	_, err = c.UpdateTable(ctx, &dynamodb.UpdateTableInput{TableName: aws.String("guarded"), DeletionProtectionEnabled: aws.Bool(false)})
	if err != nil {
		t.Fatal(err)
	}
	out, err := c.DeleteTable(ctx, &dynamodb.DeleteTableInput{TableName: aws.String("guarded")})
	if err != nil || out.TableDescription.TableStatus != types.TableStatusDeleting {
		t.Fatalf("DeleteTable: %v %+v", err, out)
	}
	_, err = c.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String("guarded")})
	wantAPIError(t, err, "ResourceNotFoundException", "Requested resource not found: Table: guarded not found")
}

func TestUpdateTableBillingAndStreams(t *testing.T) {
	c := sortkeytest.New(t).Client()
	createSimple(t, c, "tb1")
	out, err := c.UpdateTable(ctx, &dynamodb.UpdateTableInput{
		TableName:             aws.String("tb1"),
		BillingMode:           types.BillingModeProvisioned,
		ProvisionedThroughput: &types.ProvisionedThroughput{ReadCapacityUnits: aws.Int64(5), WriteCapacityUnits: aws.Int64(7)},
		StreamSpecification:   &types.StreamSpecification{StreamEnabled: aws.Bool(true), StreamViewType: types.StreamViewTypeNewAndOldImages},
	})
	if err != nil {
		t.Fatal(err)
	}
	d := out.TableDescription
	if *d.ProvisionedThroughput.ReadCapacityUnits != 5 || *d.ProvisionedThroughput.WriteCapacityUnits != 7 {
		t.Errorf("throughput %+v", d.ProvisionedThroughput)
	}
	if d.StreamSpecification == nil || d.StreamSpecification.StreamViewType != types.StreamViewTypeNewAndOldImages ||
		!strings.HasPrefix(*d.LatestStreamArn, *d.TableArn+"/stream/") {
		t.Errorf("stream %+v %v", d.StreamSpecification, d.LatestStreamArn)
	}
	_, err = c.UpdateTable(ctx, &dynamodb.UpdateTableInput{
		TableName:             aws.String("tb1"),
		ProvisionedThroughput: &types.ProvisionedThroughput{ReadCapacityUnits: aws.Int64(5), WriteCapacityUnits: aws.Int64(7)},
	})
	wantAPIErrorPrefix(t, err, "ValidationException", "The provisioned throughput for the table will not change.")
}

func TestTags(t *testing.T) {
	c := sortkeytest.New(t).Client()
	arn := createMusic(t, c, "Music").TableArn
	_, err := c.TagResource(ctx, &dynamodb.TagResourceInput{ResourceArn: arn, Tags: []types.Tag{
		{Key: aws.String("team"), Value: aws.String("records")},
		{Key: aws.String("env"), Value: aws.String("dev")},
	}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.UntagResource(ctx, &dynamodb.UntagResourceInput{ResourceArn: arn, TagKeys: []string{"env"}}); err != nil {
		t.Fatal(err)
	}
	out, err := c.ListTagsOfResource(ctx, &dynamodb.ListTagsOfResourceInput{ResourceArn: arn})
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Tags) != 1 || *out.Tags[0].Key != "team" || *out.Tags[0].Value != "records" {
		t.Fatalf("tags %+v", out.Tags)
	}
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
