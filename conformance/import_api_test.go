package conformance_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/sortkeydb/sortkey"
	"github.com/sortkeydb/sortkey/sortkeytest"
)

// importServer is a server whose bucket "imports" is a temporary folder.
func importServer(t *testing.T) (*sortkeytest.Server, string) {
	t.Helper()
	dir := t.TempDir()
	srv := sortkeytest.NewWithOptions(t, &sortkey.Options{InMemory: true, S3Dirs: map[string]string{"imports": dir}, ImportLogDir: t.TempDir()})
	return srv, dir
}

func writeFile(t *testing.T, path string, data []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

func gzipped(t *testing.T, s string) []byte {
	var b bytes.Buffer
	w := gzip.NewWriter(&b)
	w.Write([]byte(s))
	w.Close()
	return b.Bytes()
}

func importInput(table, prefix string, format types.InputFormat) *dynamodb.ImportTableInput {
	return &dynamodb.ImportTableInput{
		InputFormat:    format,
		S3BucketSource: &types.S3BucketSource{S3Bucket: aws.String("imports"), S3KeyPrefix: aws.String(prefix)},
		TableCreationParameters: &types.TableCreationParameters{
			TableName:            aws.String(table),
			BillingMode:          types.BillingModePayPerRequest,
			AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS}},
			KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash}},
		},
	}
}

// awaitImport polls DescribeImport until the import is over.
func awaitImport(t *testing.T, c *dynamodb.Client, arn *string) *types.ImportTableDescription {
	t.Helper()
	for range 2000 {
		out, err := c.DescribeImport(context.Background(), &dynamodb.DescribeImportInput{ImportArn: arn})
		if err != nil {
			t.Fatal(err)
		}
		if out.ImportTableDescription.ImportStatus != types.ImportStatusInProgress {
			return out.ImportTableDescription
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatal("the import did not end")
	return nil
}

func TestImportTableGzipJSON(t *testing.T) {
	srv, dir := importServer(t)
	c := srv.Client()
	lines := `{"Item":{"pk":{"S":"a"},"n":{"N":"1"}}}` + "\n" + `{"Item":{"pk":{"S":"b"},"l":{"L":[{"BOOL":true}]}}}` + "\n"
	writeFile(t, filepath.Join(dir, "exp", "data", "one.json.gz"), gzipped(t, lines))
	in := importInput("Imported", "exp/data/", types.InputFormatDynamodbJson)
	in.InputCompressionType = types.InputCompressionTypeGzip
	out, err := c.ImportTable(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	// testdata/imports/client-token.txt checks ImportTable's answer (its
	// TableArn, and the ImportArn under it).
	d := awaitImport(t, c, out.ImportTableDescription.ImportArn)
	if d.ImportStatus != types.ImportStatusCompleted || d.ImportedItemCount != 2 || d.ProcessedItemCount != 2 || d.ErrorCount != 0 {
		t.Fatalf("import ended %s: imported %d processed %d errors %d", d.ImportStatus, d.ImportedItemCount, d.ProcessedItemCount, d.ErrorCount)
	}
	if aws.ToInt64(d.ProcessedSizeBytes) != int64(len(lines)) || d.EndTime == nil {
		t.Fatalf("ProcessedSizeBytes %d, want %d; EndTime %v", aws.ToInt64(d.ProcessedSizeBytes), len(lines), d.EndTime)
	}
	got, err := c.GetItem(context.Background(), &dynamodb.GetItemInput{TableName: aws.String("Imported"), Key: map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: "b"}}})
	if err != nil || got.Item["l"] == nil {
		t.Fatalf("item b: %v %v", got, err)
	}
	desc, _ := c.DescribeTable(context.Background(), &dynamodb.DescribeTableInput{TableName: aws.String("Imported")})
	if desc.Table.TableStatus != types.TableStatusActive {
		t.Fatalf("table is %s after the import", desc.Table.TableStatus)
	}
}

// An Ion export's data files import through ImportTable as DynamoDB
// reads them: sets by their annotations, numbers as decimals.
func TestImportTableIon(t *testing.T) {
	srv, dir := importServer(t)
	c := srv.Client()
	lines := `$ion_1_0 {Item:{pk:"a",n:12345678901234567890123456789012345678.,ss:$dynamodb_SS::["x","y"]}}` + "\n" +
		`$ion_1_0 {Item:{pk:"b",b:{{AAEC}}}}` + "\n" + `{Item:{n:1}}` + "\n"
	writeFile(t, filepath.Join(dir, "ion", "data", "one.ion.gz"), gzipped(t, lines))
	in := importInput("FromIon", "ion/data/", types.InputFormatIon)
	in.InputCompressionType = types.InputCompressionTypeGzip
	out, err := c.ImportTable(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	d := awaitImport(t, c, out.ImportTableDescription.ImportArn)
	if d.ImportedItemCount != 2 || d.ProcessedItemCount != 3 || d.ErrorCount != 1 {
		t.Fatalf("import ended %s: imported %d processed %d errors %d", d.ImportStatus, d.ImportedItemCount, d.ProcessedItemCount, d.ErrorCount)
	}
	got, err := c.GetItem(context.Background(), &dynamodb.GetItemInput{TableName: aws.String("FromIon"), Key: map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: "a"}}})
	if err != nil {
		t.Fatal(err)
	}
	n, _ := got.Item["n"].(*types.AttributeValueMemberN)
	ss, _ := got.Item["ss"].(*types.AttributeValueMemberSS)
	if n == nil || n.Value != "12345678901234567890123456789012345678" || ss == nil || len(ss.Value) != 2 {
		t.Fatalf("item a: %#v", got.Item)
	}
}

func TestImportTableCSVWithBadLines(t *testing.T) {
	srv, dir := importServer(t)
	c := srv.Client()
	writeFile(t, filepath.Join(dir, "csv", "part-1.csv"), []byte("pk,city\nx,Paris\ny\n,Rome\n"))
	out, err := c.ImportTable(context.Background(), importInput("Cities", "csv/part", types.InputFormatCsv))
	if err != nil {
		t.Fatal(err)
	}
	d := awaitImport(t, c, out.ImportTableDescription.ImportArn)
	// y has too few columns; the last line has no key.
	if d.ImportStatus != types.ImportStatusFailed || aws.ToString(d.FailureCode) != "ItemValidationError" || d.ImportedItemCount != 1 || d.ErrorCount != 2 || d.ProcessedItemCount != 3 {
		t.Fatalf("import ended %s %s: imported %d errors %d processed %d", d.ImportStatus, aws.ToString(d.FailureCode), d.ImportedItemCount, d.ErrorCount, d.ProcessedItemCount)
	}
	scan, err := c.Scan(context.Background(), &dynamodb.ScanInput{TableName: aws.String("Cities")})
	if err != nil || scan.Count != 1 {
		t.Fatalf("the table keeps the valid item: %v %v", scan, err)
	}
}

func TestImportTableTruncatedSourceDeletesTable(t *testing.T) {
	srv, dir := importServer(t)
	c := srv.Client()
	whole := gzipped(t, strings.Repeat(`{"Item":{"pk":{"S":"a"}}}`+"\n", 100))
	writeFile(t, filepath.Join(dir, "bad", "x.gz"), whole[:len(whole)/2])
	in := importInput("Broken", "bad/", types.InputFormatDynamodbJson)
	in.InputCompressionType = types.InputCompressionTypeGzip
	out, err := c.ImportTable(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	d := awaitImport(t, c, out.ImportTableDescription.ImportArn)
	if d.ImportStatus != types.ImportStatusFailed || !strings.Contains(aws.ToString(d.FailureMessage), "bad/x.gz") {
		t.Fatalf("import ended %s: %s", d.ImportStatus, aws.ToString(d.FailureMessage))
	}
	_, err = c.DescribeTable(context.Background(), &dynamodb.DescribeTableInput{TableName: aws.String("Broken")})
	var nf *types.ResourceNotFoundException
	if !errors.As(err, &nf) {
		t.Fatalf("the failed import's table is still there: %v", err)
	}
}

// ListImports lists a completed import COMPLETED: the rest of what was
// TestImportTableClientTokenAndList (the ClientToken, ListImports of a
// failed import, DescribeImport of an unknown ARN) is
// testdata/imports/client-token.txt, whose import has no source files: a
// transcript cannot write them.
func TestListImportsCompleted(t *testing.T) {
	srv, dir := importServer(t)
	c := srv.Client()
	writeFile(t, filepath.Join(dir, "d", "a.json"), []byte(`{"Item":{"pk":{"S":"a"}}}`))
	out, err := c.ImportTable(context.Background(), importInput("Once", "d/", types.InputFormatDynamodbJson))
	if err != nil {
		t.Fatal(err)
	}
	awaitImport(t, c, out.ImportTableDescription.ImportArn)
	list, err := c.ListImports(context.Background(), &dynamodb.ListImportsInput{TableArn: out.ImportTableDescription.TableArn})
	if err != nil || len(list.ImportSummaryList) != 1 || list.ImportSummaryList[0].ImportStatus != types.ImportStatusCompleted {
		t.Fatalf("ListImports: %+v %v", list, err)
	}
}

// BenchmarkImportTable measures an ImportTable of 10,000 items through
// the engine's direct writer, from request to COMPLETED.
func BenchmarkImportTable(b *testing.B) {
	dir := b.TempDir()
	var lines strings.Builder
	for i := range 10000 {
		lines.WriteString(`{"Item":{"pk":{"S":"k` + strings.Repeat("x", i%7) + string(rune('a'+i%26)) + `-` + itoa(i) + `"},"v":{"S":"` + strings.Repeat("v", 150) + `"}}}` + "\n")
	}
	os.WriteFile(filepath.Join(dir, "items.json"), []byte(lines.String()), 0o644)
	srv := sortkeytest.NewWithOptions(b, &sortkey.Options{InMemory: true, S3Dirs: map[string]string{"imports": dir}, ImportLogDir: b.TempDir()})
	c := srv.Client()
	b.ResetTimer()
	for i := range b.N {
		in := importInput("Bench"+itoa(i), "items", types.InputFormatDynamodbJson)
		out, err := c.ImportTable(context.Background(), in)
		if err != nil {
			b.Fatal(err)
		}
		for {
			d, _ := c.DescribeImport(context.Background(), &dynamodb.DescribeImportInput{ImportArn: out.ImportTableDescription.ImportArn})
			if d.ImportTableDescription.ImportStatus != types.ImportStatusInProgress {
				break
			}
			time.Sleep(time.Millisecond)
		}
	}
	b.ReportMetric(float64(10000*b.N)/b.Elapsed().Seconds(), "items/s")
}

func itoa(i int) string { return strconv.Itoa(i) }

// An import reads nothing through a symbolic link out of its bucket's
// folder: its source cannot be read, named by its key, not by a path.
func TestImportTableStaysInItsBucket(t *testing.T) {
	srv, dir := importServer(t)
	c := srv.Client()
	elsewhere := t.TempDir()
	writeFile(t, filepath.Join(elsewhere, "sub", "items.json"), []byte(`{"Item":{"pk":{"S":"a"}}}`+"\n"))
	if err := os.Symlink(elsewhere, filepath.Join(dir, "linkdir")); err != nil {
		t.Fatal(err)
	}
	out, err := c.ImportTable(context.Background(), importInput("Linked", "linkdir/sub/", types.InputFormatDynamodbJson))
	if err != nil {
		t.Fatal(err)
	}
	d := awaitImport(t, c, out.ImportTableDescription.ImportArn)
	msg := aws.ToString(d.FailureMessage)
	if d.ImportStatus != types.ImportStatusFailed || d.ImportedItemCount != 0 || !strings.Contains(msg, "linkdir/sub") ||
		strings.Contains(msg, dir) || strings.Contains(msg, elsewhere) {
		t.Fatalf("import through a link ended %s, %d items: %q", d.ImportStatus, d.ImportedItemCount, msg)
	}
}
