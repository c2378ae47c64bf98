package sortkey_test

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/sortkeydb/sortkey"
	"github.com/sortkeydb/sortkey/sortkeytest"
)

// putApp writes an item of the single-table design, in every index.
func putApp(t *testing.T, c *dynamodb.Client, table, pk, sk, status string) {
	t.Helper()
	_, err := c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(table), Item: map[string]types.AttributeValue{
		"PK": s(pk), "SK": s(sk), "Status": s(status), "Created": n("1"), "Title": s(pk + sk), "PendingId": s(pk)}})
	if err != nil {
		t.Fatal(err)
	}
}

// tableKeys is every PK#SK of a table, scanned, sorted.
func tableKeys(t *testing.T, c *dynamodb.Client, table string, index *string) []string {
	t.Helper()
	out, err := c.Scan(ctx, &dynamodb.ScanInput{TableName: aws.String(table), IndexName: index})
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for _, it := range out.Items {
		keys = append(keys, it["PK"].(*types.AttributeValueMemberS).Value+"#"+it["SK"].(*types.AttributeValueMemberS).Value)
	}
	slices.Sort(keys)
	return keys
}

// wantSameTable checks the table and each of its indexes hold exactly want.
func wantSameTable(t *testing.T, c *dynamodb.Client, table string, want ...string) {
	t.Helper()
	for _, ix := range []*string{nil, aws.String("Inverted"), aws.String("Pending"), aws.String("ByStatus"), aws.String("ByCreated")} {
		if got := tableKeys(t, c, table, ix); !slices.Equal(got, want) {
			t.Fatalf("%s index %s: %v, want %v", table, aws.ToString(ix), got, want)
		}
	}
}

func createBackup(t *testing.T, c *dynamodb.Client, table, name string) string {
	t.Helper()
	out, err := c.CreateBackup(ctx, &dynamodb.CreateBackupInput{TableName: aws.String(table), BackupName: aws.String(name)})
	if err != nil {
		t.Fatal(err)
	}
	if out.BackupDetails.BackupStatus != types.BackupStatusAvailable {
		t.Fatalf("status %s", out.BackupDetails.BackupStatus)
	}
	return aws.ToString(out.BackupDetails.BackupArn)
}

func restoreBackup(c *dynamodb.Client, arn, target string) (*dynamodb.RestoreTableFromBackupOutput, error) {
	return c.RestoreTableFromBackup(ctx, &dynamodb.RestoreTableFromBackupInput{BackupArn: aws.String(arn), TargetTableName: aws.String(target)})
}

func TestBackupRestoreGivesTheTableAsItWas(t *testing.T) {
	c := sortkeytest.New(t).Client()
	createSingleTable(t, c)
	putApp(t, c, "app", "a", "1", "open")
	putApp(t, c, "app", "b", "1", "open")
	arn := createBackup(t, c, "app", "before-b2")
	if !strings.Contains(arn, ":table/app/backup/") || len(arn[strings.LastIndex(arn, "/")+1:]) != 23 {
		t.Fatalf("backup ARN %s", arn)
	}
	putApp(t, c, "app", "b", "2", "open")
	if _, err := c.DeleteItem(ctx, &dynamodb.DeleteItemInput{TableName: aws.String("app"), Key: map[string]types.AttributeValue{"PK": s("a"), "SK": s("1")}}); err != nil {
		t.Fatal(err)
	}
	out, err := restoreBackup(c, arn, "app2")
	if err != nil {
		t.Fatal(err)
	}
	if out.TableDescription.TableStatus != types.TableStatusCreating || aws.ToString(out.TableDescription.RestoreSummary.SourceBackupArn) != arn {
		t.Fatalf("restore answered %s %+v", out.TableDescription.TableStatus, out.TableDescription.RestoreSummary)
	}
	wantSameTable(t, c, "app2", "a#1", "b#1")
	wantSameTable(t, c, "app", "b#1", "b#2")
	d, err := c.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String("app2")})
	if err != nil || d.Table.RestoreSummary == nil || aws.ToBool(d.Table.RestoreSummary.RestoreInProgress) || len(d.Table.GlobalSecondaryIndexes) != 3 {
		t.Fatalf("restored table %+v, %v", d, err)
	}
	if d.Table.BillingModeSummary == nil || d.Table.BillingModeSummary.BillingMode != types.BillingModePayPerRequest {
		t.Fatal("billing mode not restored")
	}
}

func TestBackupBadInputChangesNothing(t *testing.T) {
	c := sortkeytest.New(t).Client()
	createSingleTable(t, c)
	putApp(t, c, "app", "a", "1", "open")
	arn := createBackup(t, c, "app", "bk1")
	missing := arn[:len(arn)-8] + "00000000"
	_, err := restoreBackup(c, missing, "app2")
	wantAPIError(t, err, "BackupNotFoundException", "Backup not found: "+missing)
	_, err = c.DescribeBackup(ctx, &dynamodb.DescribeBackupInput{BackupArn: aws.String(missing)})
	wantAPIError(t, err, "BackupNotFoundException", "Backup not found: "+missing)
	_, err = restoreBackup(c, arn, "app")
	wantAPIError(t, err, "TableAlreadyExistsException", "Table already exists: app")
	_, err = c.CreateBackup(ctx, &dynamodb.CreateBackupInput{TableName: aws.String("nope"), BackupName: aws.String("bk2")})
	wantAPIError(t, err, "TableNotFoundException", "Table not found: nope")
	_, err = c.RestoreTableFromBackup(ctx, &dynamodb.RestoreTableFromBackupInput{BackupArn: aws.String(arn), TargetTableName: aws.String("app3"),
		GlobalSecondaryIndexOverride: []types.GlobalSecondaryIndex{{IndexName: aws.String("x"),
			KeySchema:  []types.KeySchemaElement{{AttributeName: aws.String("Undefined"), KeyType: types.KeyTypeHash}},
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll}}}})
	if err == nil {
		t.Fatal("an override on an undefined attribute was accepted")
	}
	tables, _ := c.ListTables(ctx, &dynamodb.ListTablesInput{})
	if !slices.Equal(tables.TableNames, []string{"app"}) {
		t.Fatalf("tables after refused restores: %v", tables.TableNames)
	}
	if _, err := c.DeleteBackup(ctx, &dynamodb.DeleteBackupInput{BackupArn: aws.String(arn)}); err != nil {
		t.Fatal(err)
	}
	_, err = restoreBackup(c, arn, "app2")
	wantAPIError(t, err, "BackupNotFoundException", "Backup not found: "+arn)
}

func TestListBackupsFiltersAndPages(t *testing.T) {
	srv := sortkeytest.New(t)
	c := srv.Client()
	createSingleTable(t, c)
	createSimple(t, c, "other")
	var arns []string
	for _, name := range []string{"bk1", "bk2", "bk3"} {
		arns = append(arns, createBackup(t, c, "app", name))
		time.Sleep(2 * time.Millisecond) // distinct creation milliseconds order the ids
	}
	createBackup(t, c, "other", "ob1")
	list := func(in *dynamodb.ListBackupsInput) ([]string, string) {
		out, err := c.ListBackups(ctx, in)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, b := range out.BackupSummaries {
			got = append(got, aws.ToString(b.BackupArn))
		}
		return got, aws.ToString(out.LastEvaluatedBackupArn)
	}
	page, last := list(&dynamodb.ListBackupsInput{TableName: aws.String("app"), Limit: aws.Int32(2)})
	if !slices.Equal(page, arns[:2]) || last != arns[1] {
		t.Fatalf("first page %v, last %s", page, last)
	}
	page, last = list(&dynamodb.ListBackupsInput{TableName: aws.String("app"), Limit: aws.Int32(2), ExclusiveStartBackupArn: aws.String(last)})
	if !slices.Equal(page, arns[2:]) || last != "" {
		t.Fatalf("second page %v, last %s", page, last)
	}
	if all, _ := list(&dynamodb.ListBackupsInput{}); len(all) != 4 {
		t.Fatalf("all backups: %v", all)
	}
	future := time.Now().Add(time.Hour)
	if none, _ := list(&dynamodb.ListBackupsInput{TimeRangeLowerBound: &future}); len(none) != 0 {
		t.Fatalf("backups after an hour from now: %v", none)
	}
	if sys, _ := list(&dynamodb.ListBackupsInput{BackupType: types.BackupTypeFilterSystem}); len(sys) != 0 {
		t.Fatalf("system backups: %v", sys)
	}
}

func TestBackupsSurviveRestart(t *testing.T) {
	dir := t.TempDir()
	c, stop := serveDir(t, dir)
	createSingleTable(t, c)
	putApp(t, c, "app", "a", "1", "open")
	arn := createBackup(t, c, "app", "kept")
	stop()
	c, stop = serveDir(t, dir)
	defer stop()
	if _, err := restoreBackup(c, arn, "again"); err != nil {
		t.Fatal(err)
	}
	wantSameTable(t, c, "again", "a#1")
}

func enablePITR(t testing.TB, c *dynamodb.Client, table string) {
	t.Helper()
	_, err := c.UpdateContinuousBackups(ctx, &dynamodb.UpdateContinuousBackupsInput{TableName: aws.String(table),
		PointInTimeRecoverySpecification: &types.PointInTimeRecoverySpecification{PointInTimeRecoveryEnabled: aws.Bool(true)}})
	if err != nil {
		t.Fatal(err)
	}
}

func restoreAt(c *dynamodb.Client, target string, at time.Time) error {
	_, err := c.RestoreTableToPointInTime(ctx, &dynamodb.RestoreTableToPointInTimeInput{SourceTableName: aws.String("app"),
		TargetTableName: aws.String(target), RestoreDateTime: &at})
	return err
}

func TestPointInTimeRestoreGivesThatMoment(t *testing.T) {
	clock := newClock()
	c := sortkeytest.NewWithOptions(t, &sortkey.Options{InMemory: true, Now: clock.Now, TTLInterval: -1}).Client()
	createSingleTable(t, c)
	putApp(t, c, "app", "a", "1", "open")
	putApp(t, c, "app", "z", "1", "open") // before recovery was on: still in every restore
	enablePITR(t, c, "app")
	clock.Advance(time.Minute)
	putApp(t, c, "app", "b", "1", "open")
	clock.Advance(time.Minute)
	t1 := clock.Now() // a#1 z#1 b#1
	clock.Advance(time.Minute)
	putApp(t, c, "app", "c", "1", "open")
	putApp(t, c, "app", "b", "1", "closed")
	if _, err := c.DeleteItem(ctx, &dynamodb.DeleteItemInput{TableName: aws.String("app"), Key: map[string]types.AttributeValue{"PK": s("a"), "SK": s("1")}}); err != nil {
		t.Fatal(err)
	}
	clock.Advance(time.Minute)
	if err := restoreAt(c, "then", t1); err != nil {
		t.Fatal(err)
	}
	wantSameTable(t, c, "then", "a#1", "b#1", "z#1")
	got, err := c.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("then"), Key: map[string]types.AttributeValue{"PK": s("b"), "SK": s("1")}})
	if err != nil || got.Item["Status"].(*types.AttributeValueMemberS).Value != "open" {
		t.Fatalf("b#1 at t1: %v %v", got.Item, err)
	}
	if _, err := c.RestoreTableToPointInTime(ctx, &dynamodb.RestoreTableToPointInTimeInput{SourceTableName: aws.String("app"),
		TargetTableName: aws.String("now"), UseLatestRestorableTime: aws.Bool(true)}); err != nil {
		t.Fatal(err)
	}
	wantSameTable(t, c, "now", "b#1", "c#1", "z#1")
	d, err := c.DescribeContinuousBackups(ctx, &dynamodb.DescribeContinuousBackupsInput{TableName: aws.String("app")})
	p := d.ContinuousBackupsDescription.PointInTimeRecoveryDescription
	if err != nil || p.PointInTimeRecoveryStatus != types.PointInTimeRecoveryStatusEnabled || !p.LatestRestorableDateTime.Equal(clock.Now()) ||
		!p.EarliestRestorableDateTime.Equal(t1.Add(-2*time.Minute)) || aws.ToInt32(p.RecoveryPeriodInDays) != 35 {
		t.Fatalf("DescribeContinuousBackups: %+v %v", p, err)
	}
}

func TestPointInTimeRestoreRefusals(t *testing.T) {
	clock := newClock()
	c := sortkeytest.NewWithOptions(t, &sortkey.Options{InMemory: true, Now: clock.Now, TTLInterval: -1, PITRWindow: time.Hour}).Client()
	createSingleTable(t, c)
	err := restoreAt(c, "xyz", clock.Now())
	wantAPIError(t, err, "PointInTimeRecoveryUnavailableException", "Point in time recovery is not enabled for table 'app'")
	enablePITR(t, c, "app")
	start := clock.Now()
	clock.Advance(2 * time.Hour)
	err = restoreAt(c, "xyz", start)
	wantAPIErrorPrefix(t, err, "InvalidRestoreTimeException", "Restore time ")
	err = restoreAt(c, "xyz", clock.Now().Add(time.Minute))
	wantAPIErrorPrefix(t, err, "InvalidRestoreTimeException", "Restore time ")
	err = restoreAt(c, "app", clock.Now())
	wantAPIError(t, err, "TableAlreadyExistsException", "Table already exists: app")
	_, err = c.RestoreTableToPointInTime(ctx, &dynamodb.RestoreTableToPointInTimeInput{SourceTableName: aws.String("nope"), TargetTableName: aws.String("xyz"), UseLatestRestorableTime: aws.Bool(true)})
	wantAPIError(t, err, "TableNotFoundException", "Table not found: nope")
	tables, _ := c.ListTables(ctx, &dynamodb.ListTablesInput{})
	if !slices.Equal(tables.TableNames, []string{"app"}) {
		t.Fatalf("tables after refused restores: %v", tables.TableNames)
	}
}
