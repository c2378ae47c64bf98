package dataio

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// LoadOptions say how a fixture is loaded.
type LoadOptions struct {
	// SkipExisting leaves a table that already exists as it is, items
	// and all (sortkey serve --seed on a data folder seeded before);
	// otherwise an existing table fails the load.
	SkipExisting bool
	// Progress hears of the items and bytes read; tables.json gives it
	// the total.
	Progress Progress
}

// ReadFixture reads dir/tables.json and checks that every data file is
// there, before anything is created.
func ReadFixture(dir string) (*Fixture, error) {
	path := filepath.Join(dir, fixtureIndex)
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf(msgFixtureRead, path, err)
	}
	f, err := ParseFixture(data)
	if err != nil {
		return nil, err
	}
	for _, t := range f.Tables {
		if _, err := os.Stat(filepath.Join(dir, t.File)); err != nil {
			return nil, fmt.Errorf(msgFixtureRead, t.File, err)
		}
	}
	return f, nil
}

// Load creates the fixture's tables and writes their items. On any
// error the tables it created are deleted: a load is whole or not at all.
// It returns the names of the tables it created.
func Load(ctx context.Context, c FixtureAPI, dir string, o LoadOptions) ([]string, error) {
	f, err := ReadFixture(dir)
	if err != nil {
		return nil, err
	}
	existing := map[string]bool{}
	if o.SkipExisting {
		names, err := listTables(ctx, c)
		if err != nil {
			return nil, err
		}
		for _, n := range names {
			existing[n] = true
		}
	}
	if o.Progress != nil {
		o.Progress.SetTotal(f.itemsBut(existing))
	}
	var created []string
	for _, t := range f.Tables {
		name := aws.ToString(t.Create.TableName)
		if existing[name] {
			continue
		}
		err := loadTable(ctx, c, dir, t, o.Progress, &created)
		if err != nil {
			return nil, dropAll(c, created, fmt.Errorf(msgLoadTable, name, err))
		}
	}
	return created, nil
}

// itemsBut is how many items the fixture's tables hold, but those named.
func (f *Fixture) itemsBut(skip map[string]bool) int64 {
	var n int64
	for _, t := range f.Tables {
		if !skip[aws.ToString(t.Create.TableName)] {
			n += t.ItemCount
		}
	}
	return n
}

func loadTable(ctx context.Context, c FixtureAPI, dir string, t FixtureTable, p Progress, created *[]string) error {
	if _, err := c.CreateTable(ctx, t.Create); err != nil {
		return err
	}
	*created = append(*created, *t.Create.TableName)
	waiter := dynamodb.NewTableExistsWaiter(c)
	if err := waiter.Wait(ctx, &dynamodb.DescribeTableInput{TableName: t.Create.TableName}, 10*time.Minute); err != nil {
		return err
	}
	if t.TTLAttribute != "" {
		if _, err := c.UpdateTimeToLive(ctx, &dynamodb.UpdateTimeToLiveInput{TableName: t.Create.TableName,
			TimeToLiveSpecification: &types.TimeToLiveSpecification{AttributeName: aws.String(t.TTLAttribute), Enabled: aws.Bool(true)}}); err != nil {
			return err
		}
	}
	return loadItems(ctx, c, dir, t, p)
}

// loadItems writes the data file's items. A fixture is sortkey's own
// dump: any line that does not make an item fails the load.
func loadItems(ctx context.Context, c FixtureAPI, dir string, t FixtureTable, p Progress) error {
	log := NewErrorLog(os.DevNull, "")
	keys := Schema{KeySchema: t.Create.KeySchema}.keyNames()
	w := newBatchWriter(ctx, c, *t.Create.TableName, keys, log, defaultWriters)
	r := &ImportResult{}
	var bad error
	strict := func(p Pending) error { return w.add(p) }
	files := []SourceFile{{Path: filepath.Join(dir, t.File), Key: t.File}}
	err := ReadFiles(files, ReadOptions{Format: FormatJSON, Compression: CompressionGzip, Progress: p}, strict, log, r)
	err = errors.Join(err, w.finish())
	if n := log.Errors(); n > 0 && err == nil {
		bad = fmt.Errorf(msgLoadBadItem, t.File, n)
	}
	if err == nil && bad == nil && r.ProcessedItemCount != t.ItemCount {
		bad = fmt.Errorf(msgLoadCount, t.File, r.ProcessedItemCount, t.ItemCount)
	}
	return errors.Join(err, bad)
}

// dropAll deletes the tables a failed load created.
func dropAll(c FixtureAPI, tables []string, cause error) error {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	for _, name := range tables {
		if _, err := c.DeleteTable(ctx, &dynamodb.DeleteTableInput{TableName: aws.String(name)}); err != nil {
			cause = errors.Join(cause, err)
		}
	}
	return cause
}
