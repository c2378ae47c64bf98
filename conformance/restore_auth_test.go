package conformance_test

import (
	"slices"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/sortkeydb/sortkey"
	"github.com/sortkeydb/sortkey/sortkeytest"
)

const (
	restorerArn = "arn:aws:iam::123456789012:user/restorer"
	tableArns   = "arn:aws:dynamodb:us-east-1:123456789012:table/"
)

// restorerPolicy lets the restorer restore Src (from its backups and to a
// point in time), read and write tables named Open*, and do all of that
// but BatchWriteItem on tables named Half*. Other is out of its reach.
const restorerPolicy = `{"Version": "2012-10-17", "Statement": [
  {"Effect": "Allow", "Action": "dynamodb:RestoreTableFromBackup", "Resource": "arn:aws:dynamodb:*:*:table/Src/backup/*"},
  {"Effect": "Allow", "Action": "dynamodb:RestoreTableToPointInTime", "Resource": "arn:aws:dynamodb:*:*:table/Src"},
  {"Effect": "Allow", "Action": ["dynamodb:PutItem", "dynamodb:UpdateItem", "dynamodb:DeleteItem", "dynamodb:GetItem",
     "dynamodb:Query", "dynamodb:Scan", "dynamodb:BatchWriteItem"], "Resource": "arn:aws:dynamodb:*:*:table/Open*"},
  {"Effect": "Allow", "Action": ["dynamodb:PutItem", "dynamodb:UpdateItem", "dynamodb:DeleteItem", "dynamodb:GetItem",
     "dynamodb:Query", "dynamodb:Scan"], "Resource": "arn:aws:dynamodb:*:*:table/Half*"}]}`

const restoreAuthFile = `{"account": "123456789012", "principals": [
 {"arn": "arn:aws:iam::123456789012:user/admin", "accessKeyId": "AKIDADMIN", "secretAccessKey": "admin-secret",
  "policies": [{"Version": "2012-10-17", "Statement": [{"Effect": "Allow", "Action": "dynamodb:*", "Resource": "*"}]}]},
 {"arn": "arn:aws:iam::123456789012:user/restorer", "accessKeyId": "AKIDRESTORER", "secretAccessKey": "restorer-secret",
  "policies": [` + restorerPolicy + `]}]}`

// newRestoreServer has the tables Src and Other, each with one item and
// point-in-time recovery on, and returns the admin's client.
func newRestoreServer(t *testing.T) (*sortkeytest.Server, *dynamodb.Client) {
	t.Helper()
	srv := sortkeytest.NewWithOptions(t, &sortkey.Options{Auth: []byte(restoreAuthFile)})
	admin := srv.ClientAs(t, adminArn)
	for _, name := range []string{"Src", "Other"} {
		if _, err := admin.CreateTable(ctx, simpleTable(name)); err != nil {
			t.Fatal(err)
		}
		if _, err := admin.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(name), Item: map[string]types.AttributeValue{"pk": s("a")}}); err != nil {
			t.Fatal(err)
		}
		enablePITR(t, admin, name)
	}
	return srv, admin
}

// wantRestored checks the tables are exactly Src, Other and the one
// restored, which holds Src's item.
func wantRestored(t *testing.T, admin *dynamodb.Client, restored string) {
	t.Helper()
	if got, want := listTables(t, admin), []string{restored, "Other", "Src"}; !slices.Equal(got, want) {
		t.Fatalf("tables %v, want %v", got, want)
	}
	out, err := admin.Scan(ctx, &dynamodb.ScanInput{TableName: aws.String(restored)})
	if err != nil || out.Count != 1 {
		t.Fatalf("restored %s: %v %v", restored, out, err)
	}
}

func TestRestoreFromBackupIsAuthorisedOnSourceAndTarget(t *testing.T) {
	srv, admin := newRestoreServer(t)
	restorer := srv.ClientAs(t, restorerArn, once)
	src, other := createBackup(t, admin, "Src", "src"), createBackup(t, admin, "Other", "other")
	_, err := restoreBackup(restorer, src, "Zed3")
	wantAPIError(t, err, "AccessDeniedException", deniedText(restorerArn, "PutItem", tableArns+"Zed3"))
	_, err = restoreBackup(restorer, src, "HalfOpen")
	wantAPIError(t, err, "AccessDeniedException", deniedText(restorerArn, "BatchWriteItem", tableArns+"HalfOpen"))
	_, err = restoreBackup(restorer, other, "OpenOther")
	wantAPIError(t, err, "AccessDeniedException", deniedText(restorerArn, "RestoreTableFromBackup", other))
	if _, err := restoreBackup(restorer, src, "OpenCopy"); err != nil {
		t.Fatal(err)
	}
	wantRestored(t, admin, "OpenCopy")
}

func restoreLatest(c *dynamodb.Client, source, target string) error {
	_, err := c.RestoreTableToPointInTime(ctx, &dynamodb.RestoreTableToPointInTimeInput{SourceTableName: aws.String(source),
		TargetTableName: aws.String(target), UseLatestRestorableTime: aws.Bool(true)})
	return err
}

func TestRestoreToPointInTimeIsAuthorisedOnSourceAndTarget(t *testing.T) {
	srv, admin := newRestoreServer(t)
	restorer := srv.ClientAs(t, restorerArn, once)
	err := restoreLatest(restorer, "Src", "ZedNotAllowed")
	wantAPIError(t, err, "AccessDeniedException", deniedText(restorerArn, "PutItem", tableArns+"ZedNotAllowed"))
	err = restoreLatest(restorer, "Src", "HalfOpen")
	wantAPIError(t, err, "AccessDeniedException", deniedText(restorerArn, "BatchWriteItem", tableArns+"HalfOpen"))
	err = restoreLatest(restorer, "Other", "OpenOther")
	wantAPIError(t, err, "AccessDeniedException", deniedText(restorerArn, "RestoreTableToPointInTime", tableArns+"Other"))
	if err := restoreLatest(restorer, "Src", "OpenCopy"); err != nil {
		t.Fatal(err)
	}
	wantRestored(t, admin, "OpenCopy")
}
