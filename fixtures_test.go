package sortkey_test

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/sortkeydb/sortkey/internal/dataio"
	"github.com/sortkeydb/sortkey/sortkeytest"
)

func TestDumpLoadRoundTrip(t *testing.T) {
	src := sortkeytest.New(t)
	c := src.Client()
	ctx := context.Background()
	s := func(v string) *string { return &v }
	_, err := c.CreateTable(ctx, &dynamodb.CreateTableInput{TableName: s("Orders"), BillingMode: types.BillingModePayPerRequest,
		AttributeDefinitions:   []types.AttributeDefinition{{AttributeName: s("pk"), AttributeType: types.ScalarAttributeTypeS}, {AttributeName: s("sk"), AttributeType: types.ScalarAttributeTypeN}, {AttributeName: s("g"), AttributeType: types.ScalarAttributeTypeS}},
		KeySchema:              []types.KeySchemaElement{{AttributeName: s("pk"), KeyType: types.KeyTypeHash}, {AttributeName: s("sk"), KeyType: types.KeyTypeRange}},
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{{IndexName: s("byG"), KeySchema: []types.KeySchemaElement{{AttributeName: s("g"), KeyType: types.KeyTypeHash}}, Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll}}},
		LocalSecondaryIndexes:  []types.LocalSecondaryIndex{{IndexName: s("byG2"), KeySchema: []types.KeySchemaElement{{AttributeName: s("pk"), KeyType: types.KeyTypeHash}, {AttributeName: s("g"), KeyType: types.KeyTypeRange}}, Projection: &types.Projection{ProjectionType: types.ProjectionTypeKeysOnly}}},
		StreamSpecification:    &types.StreamSpecification{StreamEnabled: aws.Bool(true), StreamViewType: types.StreamViewTypeNewImage},
		Tags:                   []types.Tag{{Key: s("team"), Value: s("core")}}})
	if err != nil {
		t.Fatal(err)
	}
	c.UpdateTimeToLive(ctx, &dynamodb.UpdateTimeToLiveInput{TableName: s("Orders"), TimeToLiveSpecification: &types.TimeToLiveSpecification{AttributeName: s("exp"), Enabled: aws.Bool(true)}})
	for i := range 60 {
		c.PutItem(ctx, &dynamodb.PutItemInput{TableName: s("Orders"), Item: map[string]types.AttributeValue{
			"pk": &types.AttributeValueMemberS{Value: "p" + string(rune('a'+i%5))}, "sk": &types.AttributeValueMemberN{Value: string(rune('0'+i%10)) + "1" + string(rune('0'+i/10))},
			"g": &types.AttributeValueMemberS{Value: "x"}, "ss": &types.AttributeValueMemberSS{Value: []string{"a", "b"}}}})
	}
	dir := t.TempDir()
	if _, err := dataio.Dump(ctx, c, dir, dataio.DumpOptions{}); err != nil {
		t.Fatal(err)
	}
	dst := sortkeytest.New(t)
	dst.Load(t, dir)
	d1, _ := c.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: s("Orders")})
	d2, _ := dst.Client().DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: s("Orders")})
	if !reflect.DeepEqual(d1.Table.KeySchema, d2.Table.KeySchema) || len(d2.Table.GlobalSecondaryIndexes) != 1 || len(d2.Table.LocalSecondaryIndexes) != 1 ||
		d2.Table.StreamSpecification == nil || d2.Table.StreamSpecification.StreamViewType != types.StreamViewTypeNewImage || d1.Table.ItemCount == nil {
		t.Fatalf("settings differ:\n%+v\n%+v", d1.Table, d2.Table)
	}
	ttl, _ := dst.Client().DescribeTimeToLive(ctx, &dynamodb.DescribeTimeToLiveInput{TableName: s("Orders")})
	tags, _ := dst.Client().ListTagsOfResource(ctx, &dynamodb.ListTagsOfResourceInput{ResourceArn: d2.Table.TableArn})
	if aws.ToString(ttl.TimeToLiveDescription.AttributeName) != "exp" || len(tags.Tags) != 1 {
		t.Fatalf("TTL %+v tags %+v", ttl.TimeToLiveDescription, tags.Tags)
	}
	if a, b := scanLines(t, c, "Orders"), scanLines(t, dst.Client(), "Orders"); len(a) != 60 || !reflect.DeepEqual(a, b) {
		t.Fatalf("items differ: %d and %d", len(a), len(b))
	}
}

func scanLines(t *testing.T, c *dynamodb.Client, table string) map[string]string {
	out, err := c.Scan(context.Background(), &dynamodb.ScanInput{TableName: aws.String(table)})
	if err != nil {
		t.Fatal(err)
	}
	m := map[string]string{}
	for _, it := range out.Items {
		line := string(dataio.AppendItemLine(nil, it))
		m[line] = line
	}
	return m
}

func TestLoadBadFixtureLeavesNothing(t *testing.T) {
	src := sortkeytest.New(t)
	c := src.Client()
	ctx := context.Background()
	for _, name := range []string{"Aaa", "Bbb"} {
		c.CreateTable(ctx, &dynamodb.CreateTableInput{TableName: aws.String(name), BillingMode: types.BillingModePayPerRequest,
			AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS}},
			KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash}}})
		for i := range 200 {
			c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(name), Item: map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: strings.Repeat("k", i+1)}}})
		}
	}
	dir := t.TempDir()
	fx, err := dataio.Dump(ctx, c, dir, dataio.DumpOptions{})
	if err != nil {
		t.Fatal(err)
	}
	last := filepath.Join(dir, fx.Tables[1].File)
	data, _ := os.ReadFile(last)
	os.WriteFile(last, data[:len(data)/2], 0o644)
	dst := sortkeytest.New(t)
	_, err = dataio.Load(ctx, dst.Client(), dir, dataio.LoadOptions{})
	if err == nil || !strings.Contains(err.Error(), "Bbb") || !strings.Contains(err.Error(), "deleted") {
		t.Fatalf("a truncated data file: %v", err)
	}
	list, _ := dst.Client().ListTables(ctx, &dynamodb.ListTablesInput{})
	if len(list.TableNames) != 0 {
		t.Fatalf("the failed load left %v", list.TableNames)
	}
	os.WriteFile(filepath.Join(dir, "tables.json"), []byte(`{"version":1,"tables":[{"file":"../x"}]}`), 0o644)
	if _, err := dataio.Load(ctx, dst.Client(), dir, dataio.LoadOptions{}); err == nil || !strings.Contains(err.Error(), "tables.json") {
		t.Fatalf("an invalid tables.json: %v", err)
	}
}
