package conformance_test

import (
	"slices"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
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
