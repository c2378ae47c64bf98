package dataio

import (
	"bufio"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// A fixture is a whole server in one folder: tables.json, the tables'
// settings, and a data file per table in the export's line format
// (gzipped {"Item":...} lines). tables.json is written last, so a folder
// that has one is a whole dump.
const (
	fixtureIndex   = "tables.json"
	fixtureVersion = 1
)

// Fixture is tables.json.
type Fixture struct {
	Version int            `json:"version"`
	Tables  []FixtureTable `json:"tables"`
}

// FixtureTable is one table's settings, as CreateTable takes them, its
// Time to Live attribute and its data file.
type FixtureTable struct {
	Create       *dynamodb.CreateTableInput `json:"create"`
	TTLAttribute string                     `json:"ttlAttribute,omitempty"`
	File         string                     `json:"file"`
	ItemCount    int64                      `json:"itemCount"`
}

// ParseFixture reads and checks tables.json: the version, each table's
// name and keys, and data files that stay inside the folder.
func ParseFixture(data []byte) (*Fixture, error) {
	var f Fixture
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, fmt.Errorf(msgFixtureJSON, err)
	}
	if f.Version != fixtureVersion {
		return nil, fmt.Errorf(msgFixtureVersion, f.Version, fixtureVersion)
	}
	seen := map[string]bool{}
	for i, t := range f.Tables {
		if err := t.check(seen); err != nil {
			return nil, fmt.Errorf(msgFixtureTable, i, err)
		}
	}
	return &f, nil
}

func (t FixtureTable) check(seen map[string]bool) error {
	switch {
	case t.Create == nil || aws.ToString(t.Create.TableName) == "":
		return errors.New(msgFixtureNoName)
	case len(t.Create.KeySchema) == 0:
		return errors.New(msgFixtureNoKeys)
	case seen[*t.Create.TableName]:
		return fmt.Errorf(msgFixtureTwice, *t.Create.TableName)
	case t.File == "" || t.File == "." || t.File == ".." || filepath.Base(t.File) != t.File:
		return fmt.Errorf(msgFixtureFile, t.File)
	}
	seen[*t.Create.TableName] = true
	return nil
}

// DumpOptions say how a server is dumped.
type DumpOptions struct {
	// Progress hears of each item and the bytes of its line.
	Progress Progress
}

// Dump writes every table of the endpoint, settings and items, to dir.
func Dump(ctx context.Context, c FixtureAPI, dir string, o DumpOptions) (*Fixture, error) {
	names, err := listTables(ctx, c)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	f := &Fixture{Version: fixtureVersion, Tables: []FixtureTable{}}
	for i, name := range names {
		t, err := dumpTable(ctx, c, dir, name, fmt.Sprintf("table-%04d.json.gz", i), o.Progress)
		if err != nil {
			return nil, fmt.Errorf(msgDumpTable, name, err)
		}
		f.Tables = append(f.Tables, t)
	}
	data, _ := json.MarshalIndent(f, "", "  ")
	return f, writeAtomic(filepath.Join(dir, fixtureIndex), data)
}

// FixtureAPI is what dump and load use beyond API.
type FixtureAPI interface {
	API
	ListTables(context.Context, *dynamodb.ListTablesInput, ...func(*dynamodb.Options)) (*dynamodb.ListTablesOutput, error)
	ListTagsOfResource(context.Context, *dynamodb.ListTagsOfResourceInput, ...func(*dynamodb.Options)) (*dynamodb.ListTagsOfResourceOutput, error)
	DescribeTimeToLive(context.Context, *dynamodb.DescribeTimeToLiveInput, ...func(*dynamodb.Options)) (*dynamodb.DescribeTimeToLiveOutput, error)
	UpdateTimeToLive(context.Context, *dynamodb.UpdateTimeToLiveInput, ...func(*dynamodb.Options)) (*dynamodb.UpdateTimeToLiveOutput, error)
}

func listTables(ctx context.Context, c FixtureAPI) ([]string, error) {
	var names []string
	p := dynamodb.NewListTablesPaginator(c, &dynamodb.ListTablesInput{})
	for p.HasMorePages() {
		out, err := p.NextPage(ctx)
		if err != nil {
			return nil, err
		}
		names = append(names, out.TableNames...)
	}
	slices.Sort(names)
	return names, nil
}

func dumpTable(ctx context.Context, c FixtureAPI, dir, name, file string, p Progress) (FixtureTable, error) {
	desc, err := c.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(name)})
	if err != nil {
		return FixtureTable{}, err
	}
	t := FixtureTable{Create: createFromDescription(desc.Table), File: file}
	if t.Create.Tags, err = tagsOf(ctx, c, desc.Table.TableArn); err != nil {
		return t, err
	}
	ttl, err := c.DescribeTimeToLive(ctx, &dynamodb.DescribeTimeToLiveInput{TableName: aws.String(name)})
	if err != nil {
		return t, err
	}
	if d := ttl.TimeToLiveDescription; d != nil && d.TimeToLiveStatus == types.TimeToLiveStatusEnabled {
		t.TTLAttribute = aws.ToString(d.AttributeName)
	}
	t.ItemCount, err = dumpItems(ctx, c, name, filepath.Join(dir, file), p)
	return t, err
}

func tagsOf(ctx context.Context, c FixtureAPI, arn *string) ([]types.Tag, error) {
	var tags []types.Tag
	in := &dynamodb.ListTagsOfResourceInput{ResourceArn: arn}
	for {
		out, err := c.ListTagsOfResource(ctx, in)
		if err != nil {
			return nil, err
		}
		tags = append(tags, out.Tags...)
		if out.NextToken == nil {
			return tags, nil
		}
		in.NextToken = out.NextToken
	}
}

// dumpItems scans the table into a gzipped file of export lines.
func dumpItems(ctx context.Context, c FixtureAPI, table, path string, progress Progress) (int64, error) {
	f, err := os.Create(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	bw := bufio.NewWriter(f)
	zw := gzip.NewWriter(bw)
	var n int64
	var line []byte
	p := dynamodb.NewScanPaginator(c, &dynamodb.ScanInput{TableName: aws.String(table), ConsistentRead: aws.Bool(true)})
	for p.HasMorePages() {
		out, err := p.NextPage(ctx)
		if err != nil {
			return 0, err
		}
		for _, item := range out.Items {
			line = AppendItemLine(line[:0], item)
			if _, err := zw.Write(line); err != nil {
				return 0, err
			}
			n++
			tell(progress, 1, int64(len(line)))
		}
	}
	return n, errors.Join(zw.Close(), bw.Flush(), f.Sync())
}

func writeAtomic(path string, data []byte) error {
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, data, 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// createFromDescription is the CreateTable request that makes a table
// like the one described: keys, indexes, billing, streams, encryption,
// class and deletion protection.
func createFromDescription(d *types.TableDescription) *dynamodb.CreateTableInput {
	in := &dynamodb.CreateTableInput{TableName: d.TableName, KeySchema: d.KeySchema,
		AttributeDefinitions: d.AttributeDefinitions, BillingMode: types.BillingModePayPerRequest,
		StreamSpecification: d.StreamSpecification, DeletionProtectionEnabled: d.DeletionProtectionEnabled,
		OnDemandThroughput: d.OnDemandThroughput}
	provisioned := d.BillingModeSummary == nil || d.BillingModeSummary.BillingMode == types.BillingModeProvisioned
	if provisioned && d.ProvisionedThroughput != nil {
		in.BillingMode = types.BillingModeProvisioned
		in.ProvisionedThroughput = throughput(d.ProvisionedThroughput)
	}
	if d.TableClassSummary != nil {
		in.TableClass = d.TableClassSummary.TableClass
	}
	if d.SSEDescription != nil && d.SSEDescription.SSEType == types.SSETypeKms {
		in.SSESpecification = &types.SSESpecification{Enabled: aws.Bool(true), SSEType: types.SSETypeKms, KMSMasterKeyId: d.SSEDescription.KMSMasterKeyArn}
	}
	for _, g := range d.GlobalSecondaryIndexes {
		gi := types.GlobalSecondaryIndex{IndexName: g.IndexName, KeySchema: g.KeySchema, Projection: g.Projection, OnDemandThroughput: g.OnDemandThroughput}
		if in.BillingMode == types.BillingModeProvisioned {
			gi.ProvisionedThroughput = throughput(g.ProvisionedThroughput)
		}
		in.GlobalSecondaryIndexes = append(in.GlobalSecondaryIndexes, gi)
	}
	for _, l := range d.LocalSecondaryIndexes {
		in.LocalSecondaryIndexes = append(in.LocalSecondaryIndexes, types.LocalSecondaryIndex{IndexName: l.IndexName, KeySchema: l.KeySchema, Projection: l.Projection})
	}
	return in
}

func throughput(p *types.ProvisionedThroughputDescription) *types.ProvisionedThroughput {
	if p == nil {
		return nil
	}
	return &types.ProvisionedThroughput{ReadCapacityUnits: p.ReadCapacityUnits, WriteCapacityUnits: p.WriteCapacityUnits}
}
