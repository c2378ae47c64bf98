package conformance_test

import (
	"bufio"
	"compress/gzip"
	"crypto/md5"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
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

// exportServer is a server on a test clock whose bucket "exports" is a
// temporary folder, with table "app" (PITR off).
func exportServer(t *testing.T) (*dynamodb.Client, *testClock, string) {
	t.Helper()
	clock, dir := newClock(), t.TempDir()
	srv := sortkeytest.NewWithOptions(t, &sortkey.Options{InMemory: true, Now: clock.Now, TTLInterval: -1,
		S3Dirs: map[string]string{"exports": dir}, ImportLogDir: t.TempDir()})
	c := srv.Client()
	createSingleTable(t, c)
	return c, clock, dir
}

func appArn(t *testing.T, c *dynamodb.Client) *string {
	t.Helper()
	d, err := c.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String("app")})
	if err != nil {
		t.Fatal(err)
	}
	return d.Table.TableArn
}

// awaitExport polls DescribeExport until the export is over.
func awaitExport(t *testing.T, c *dynamodb.Client, arn *string) *types.ExportDescription {
	t.Helper()
	for range 2000 {
		out, err := c.DescribeExport(ctx, &dynamodb.DescribeExportInput{ExportArn: arn})
		if err != nil {
			t.Fatal(err)
		}
		if out.ExportDescription.ExportStatus != types.ExportStatusInProgress {
			return out.ExportDescription
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatal("the export did not end")
	return nil
}

func export(t *testing.T, c *dynamodb.Client, in *dynamodb.ExportTableToPointInTimeInput) *types.ExportDescription {
	t.Helper()
	out, err := c.ExportTableToPointInTime(ctx, in)
	if err != nil {
		t.Fatal(err)
	}
	if out.ExportDescription.ExportStatus != types.ExportStatusInProgress {
		t.Fatalf("a new export is %s", out.ExportDescription.ExportStatus)
	}
	d := awaitExport(t, c, out.ExportDescription.ExportArn)
	if d.ExportStatus != types.ExportStatusCompleted {
		t.Fatalf("export ended %s: %s %s", d.ExportStatus, aws.ToString(d.FailureCode), aws.ToString(d.FailureMessage))
	}
	return d
}

// readJSON reads a file with plain encoding/json.
func readJSON(t *testing.T, path string, v any) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return b
}

// exportedItems reads an export folder with plain gzip and encoding/json,
// checking the manifests' checksums and counts, and returns each item
// re-encoded with sorted names.
func exportedItems(t *testing.T, root string, summary map[string]any) []string {
	t.Helper()
	files, err := os.ReadFile(filepath.Join(root, "manifest-files.json"))
	if err != nil {
		t.Fatal(err)
	}
	wantChecksum(t, filepath.Join(root, "manifest-files.checksum"), files)
	var items []string
	for _, line := range strings.Split(strings.TrimSpace(string(files)), "\n") {
		var f struct {
			ItemCount     int    `json:"itemCount"`
			MD5Checksum   string `json:"md5Checksum"`
			DataFileS3Key string `json:"dataFileS3Key"`
		}
		if err := json.Unmarshal([]byte(line), &f); err != nil {
			t.Fatalf("manifest-files line %q: %v", line, err)
		}
		rel := strings.TrimPrefix(f.DataFileS3Key, "AWSDynamoDB/"+filepath.Base(root)+"/")
		got := dataFileItems(t, filepath.Join(root, rel), f.MD5Checksum)
		if len(got) != f.ItemCount {
			t.Fatalf("%s holds %d items, the manifest says %d", rel, len(got), f.ItemCount)
		}
		items = append(items, got...)
	}
	if int(summary["itemCount"].(float64)) != len(items) {
		t.Fatalf("summary itemCount %v, files hold %d", summary["itemCount"], len(items))
	}
	slices.Sort(items)
	return items
}

func dataFileItems(t *testing.T, path, md5b64 string) []string {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if sum := md5.Sum(raw); base64.StdEncoding.EncodeToString(sum[:]) != md5b64 {
		t.Fatalf("%s does not match its md5Checksum", path)
	}
	f, _ := os.Open(path)
	defer f.Close()
	gz, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	var items []string
	for sc := bufio.NewScanner(gz); sc.Scan(); {
		var line map[string]map[string]any
		if err := json.Unmarshal(sc.Bytes(), &line); err != nil || len(line) != 1 || line["Item"] == nil {
			t.Fatalf("line %q is not {\"Item\":{...}}: %v", sc.Text(), err)
		}
		b, _ := json.Marshal(line["Item"])
		items = append(items, string(b))
	}
	return items
}

func wantChecksum(t *testing.T, path string, data []byte) {
	t.Helper()
	b, err := os.ReadFile(path)
	sum := md5.Sum(data)
	if err != nil || string(b) != hex.EncodeToString(sum[:]) {
		t.Fatalf("%s: %q, %v; want the hex MD5 of its manifest", path, b, err)
	}
}

func appItem(pk, status string) string {
	return `{"Created":{"N":"1"},"PK":{"S":"` + pk + `"},"PendingId":{"S":"` + pk + `"},"SK":{"S":"1"},"Status":{"S":"` + status + `"},"Title":{"S":"` + pk + `1"}}`
}

func TestExportTableToPointInTimeGivesThatMoment(t *testing.T) {
	c, clock, dir := exportServer(t)
	putApp(t, c, "app", "a", "1", "open")
	enablePITR(t, c, "app")
	clock.Advance(time.Minute)
	putApp(t, c, "app", "b", "1", "open")
	clock.Advance(time.Minute)
	at := clock.Now() // a#1 b#1, both open
	clock.Advance(time.Minute)
	putApp(t, c, "app", "c", "1", "open")
	putApp(t, c, "app", "b", "1", "closed")
	if _, err := c.DeleteItem(ctx, &dynamodb.DeleteItemInput{TableName: aws.String("app"), Key: map[string]types.AttributeValue{"PK": s("a"), "SK": s("1")}}); err != nil {
		t.Fatal(err)
	}
	clock.Advance(time.Minute)
	table := appArn(t, c)
	d := export(t, c, &dynamodb.ExportTableToPointInTimeInput{TableArn: table, S3Bucket: aws.String("exports"),
		S3Prefix: aws.String("snap"), ExportTime: &at, S3SseAlgorithm: types.S3SseAlgorithmAes256})
	// testdata/exports/describe.txt checks the rest of the description;
	// a transcript prints ExportTime as <time> and the id as a label, and
	// cannot print ExportManifest, whose id is not in an ARN.
	id := strings.TrimPrefix(aws.ToString(d.ExportArn), aws.ToString(table)+"/export/")
	if !d.ExportTime.Equal(at) || len(id) != 23 || aws.ToString(d.ExportManifest) != "snap/AWSDynamoDB/"+id+"/manifest-summary.json" {
		t.Fatalf("description: %+v", d)
	}
	root := filepath.Join(dir, "snap", "AWSDynamoDB", id)
	if _, err := os.Stat(filepath.Join(root, "_started")); err != nil {
		t.Fatal(err)
	}
	var summary map[string]any
	raw := readJSON(t, filepath.Join(dir, filepath.FromSlash(aws.ToString(d.ExportManifest))), &summary)
	wantChecksum(t, filepath.Join(root, "manifest-summary.checksum"), raw)
	want := map[string]any{"version": "2020-06-30", "exportArn": aws.ToString(d.ExportArn), "tableArn": aws.ToString(table),
		"tableId": aws.ToString(d.TableId), "exportTime": at.UTC().Format("2006-01-02T15:04:05.000Z"), "s3Bucket": "exports",
		"s3Prefix": "snap", "s3SseAlgorithm": "AES256", "manifestFilesS3Key": "AWSDynamoDB/" + id + "/manifest-files.json",
		"outputFormat": "DYNAMODB_JSON", "billedSizeBytes": float64(aws.ToInt64(d.BilledSizeBytes))}
	for k, v := range want {
		if summary[k] != v {
			t.Errorf("manifest-summary %s = %v, want %v", k, summary[k], v)
		}
	}
	got := exportedItems(t, root, summary)
	if w := []string{appItem("a", "open"), appItem("b", "open")}; !slices.Equal(got, w) {
		t.Fatalf("exported items:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(w, "\n"))
	}
	wantImportedAsExported(t, c, "snap/AWSDynamoDB/"+id+"/data/", got)
}

// wantImportedAsExported imports an export's data files with ImportTable
// and expects the new table to hold exactly the exported items.
func wantImportedAsExported(t *testing.T, c *dynamodb.Client, prefix string, exported []string) {
	t.Helper()
	def := func(n string) types.AttributeDefinition {
		return types.AttributeDefinition{AttributeName: aws.String(n), AttributeType: types.ScalarAttributeTypeS}
	}
	out, err := c.ImportTable(ctx, &dynamodb.ImportTableInput{InputFormat: types.InputFormatDynamodbJson, InputCompressionType: types.InputCompressionTypeGzip,
		S3BucketSource: &types.S3BucketSource{S3Bucket: aws.String("exports"), S3KeyPrefix: aws.String(prefix)},
		TableCreationParameters: &types.TableCreationParameters{TableName: aws.String("copy"), BillingMode: types.BillingModePayPerRequest,
			AttributeDefinitions: []types.AttributeDefinition{def("PK"), def("SK")},
			KeySchema: []types.KeySchemaElement{{AttributeName: aws.String("PK"), KeyType: types.KeyTypeHash},
				{AttributeName: aws.String("SK"), KeyType: types.KeyTypeRange}}}})
	if err != nil {
		t.Fatal(err)
	}
	if d := awaitImport(t, c, out.ImportTableDescription.ImportArn); d.ImportStatus != types.ImportStatusCompleted {
		t.Fatalf("import ended %s: %s", d.ImportStatus, aws.ToString(d.FailureMessage))
	}
	scan, err := c.Scan(ctx, &dynamodb.ScanInput{TableName: aws.String("copy")})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, item := range scan.Items {
		got = append(got, canonicalItem(t, item))
	}
	slices.Sort(got)
	if !slices.Equal(got, exported) {
		t.Fatalf("imported:\n%s\nexported:\n%s", strings.Join(got, "\n"), strings.Join(exported, "\n"))
	}
}

// canonicalItem is an item of strings and numbers as sorted DynamoDB JSON.
func canonicalItem(t *testing.T, item map[string]types.AttributeValue) string {
	m := map[string]map[string]string{}
	for k, v := range item {
		switch v := v.(type) {
		case *types.AttributeValueMemberS:
			m[k] = map[string]string{"S": v.Value}
		case *types.AttributeValueMemberN:
			m[k] = map[string]string{"N": v.Value}
		default:
			t.Fatalf("unexpected type of %s: %T", k, v)
		}
	}
	b, _ := json.Marshal(m)
	return string(b)
}

// An ION export writes .ion.gz files of $ion_1_0 lines.
func TestExportTableToPointInTimeIon(t *testing.T) {
	c, _, dir := exportServer(t)
	putApp(t, c, "app", "a", "1", "open")
	enablePITR(t, c, "app")
	d := export(t, c, &dynamodb.ExportTableToPointInTimeInput{TableArn: appArn(t, c), S3Bucket: aws.String("exports"), ExportFormat: types.ExportFormatIon})
	files, _ := filepath.Glob(filepath.Join(dir, "AWSDynamoDB", "*", "data", "*.ion.gz"))
	if len(files) != 1 || d.ExportFormat != types.ExportFormatIon {
		t.Fatalf("ion data files %v, format %s", files, d.ExportFormat)
	}
	f, _ := os.Open(files[0])
	defer f.Close()
	gz, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(gz)
	if !sc.Scan() || !strings.HasPrefix(sc.Text(), `$ion_1_0 {Item:{`) || !strings.Contains(sc.Text(), `PK:"a"`) {
		t.Fatalf("ion line %q", sc.Text())
	}
}

// An export that cannot be written ends FAILED, with no manifest and
// nothing left in the bucket's folder as if it were done.
func TestExportTableToPointInTimeFailureLeavesNoExport(t *testing.T) {
	c, _, dir := exportServer(t)
	putApp(t, c, "app", "a", "1", "open")
	enablePITR(t, c, "app")
	writeFile(t, filepath.Join(dir, "blocked"), []byte("a file where the prefix's folder would go"))
	// The message names the export's S3 key, never the server's folder.
	d := failedExport(t, c, &dynamodb.ExportTableToPointInTimeInput{TableArn: appArn(t, c),
		S3Bucket: aws.String("exports"), S3Prefix: aws.String("blocked/x")}, dir, "s3://exports/blocked/x/AWSDynamoDB/")
	if d.ExportManifest != nil || d.ItemCount != nil {
		t.Fatalf("a failed export: %+v", d)
	}
	if m, _ := filepath.Glob(filepath.Join(dir, "*", "*", "AWSDynamoDB", "*")); len(m) != 0 {
		t.Fatalf("a failed export left %v", m)
	}
	list, err := c.ListExports(ctx, &dynamodb.ListExportsInput{})
	if err != nil || len(list.ExportSummaries) != 1 || list.ExportSummaries[0].ExportStatus != types.ExportStatusFailed {
		t.Fatalf("ListExports: %+v %v", list, err)
	}
}

// BenchmarkExportTableToPointInTime exports a PITR table of 10,000
// 200-byte items, a tenth of them changed after the export time, through
// the API: the time is the request and the wait for COMPLETED.
func BenchmarkExportTableToPointInTime(b *testing.B) {
	dir := b.TempDir()
	srv := sortkeytest.NewWithOptions(b, &sortkey.Options{InMemory: true, S3Dirs: map[string]string{"exports": dir}})
	c := srv.Client()
	createSimple(b, c, "bench")
	pad := strings.Repeat("x", 180)
	put := func(i int, v string) {
		item := map[string]types.AttributeValue{"pk": s(strconv.Itoa(i)), "v": s(v + pad)}
		if _, err := c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("bench"), Item: item}); err != nil {
			b.Fatal(err)
		}
	}
	_, err := c.UpdateContinuousBackups(ctx, &dynamodb.UpdateContinuousBackupsInput{TableName: aws.String("bench"),
		PointInTimeRecoverySpecification: &types.PointInTimeRecoverySpecification{PointInTimeRecoveryEnabled: aws.Bool(true)}})
	if err != nil {
		b.Fatal(err)
	}
	for i := range 10000 {
		put(i, "old")
	}
	time.Sleep(2 * time.Millisecond) // ExportTime goes on the wire in milliseconds
	at := time.Now()
	for i := range 1000 {
		put(i, "new")
	}
	d, _ := c.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String("bench")})
	b.ResetTimer()
	for range b.N {
		out, err := c.ExportTableToPointInTime(ctx, &dynamodb.ExportTableToPointInTimeInput{TableArn: d.Table.TableArn,
			S3Bucket: aws.String("exports"), ExportTime: &at})
		if err != nil {
			b.Fatal(err)
		}
		if e := awaitExportB(b, c, out.ExportDescription.ExportArn); aws.ToInt64(e.ItemCount) != 10000 {
			b.Fatalf("exported %d items", aws.ToInt64(e.ItemCount))
		}
	}
	b.ReportMetric(float64(10000*b.N)/b.Elapsed().Seconds(), "items/s")
}

func awaitExportB(b *testing.B, c *dynamodb.Client, arn *string) *types.ExportDescription {
	for {
		out, err := c.DescribeExport(ctx, &dynamodb.DescribeExportInput{ExportArn: arn})
		if err != nil {
			b.Fatal(err)
		}
		if out.ExportDescription.ExportStatus != types.ExportStatusInProgress {
			return out.ExportDescription
		}
		time.Sleep(time.Millisecond)
	}
}

// failedExport starts an export and expects it to end FAILED with a
// message naming wantKey (s3://bucket/key) and no local path under dir.
func failedExport(t *testing.T, c *dynamodb.Client, in *dynamodb.ExportTableToPointInTimeInput, dir, wantKey string) *types.ExportDescription {
	t.Helper()
	out, err := c.ExportTableToPointInTime(ctx, in)
	if err != nil {
		t.Fatal(err)
	}
	d := awaitExport(t, c, out.ExportDescription.ExportArn)
	msg := aws.ToString(d.FailureMessage)
	if d.ExportStatus != types.ExportStatusFailed || aws.ToString(d.FailureCode) == "" || !strings.Contains(msg, wantKey) ||
		strings.Contains(msg, dir) {
		t.Fatalf("export to %s ended %s: %s %q", wantKey, d.ExportStatus, aws.ToString(d.FailureCode), msg)
	}
	return d
}

// A prefix through a symbolic link out of the bucket's folder fails the
// export, full or incremental, and nothing is written where it points;
// so does an AWSDynamoDB folder that is such a link.
func TestExportTableToPointInTimeStaysInItsBucket(t *testing.T) {
	c, clock, dir := exportServer(t)
	from, to, _ := changedTable(t, c, clock)
	elsewhere := t.TempDir()
	for _, link := range []string{"linkdir", "inner/AWSDynamoDB"} {
		os.MkdirAll(filepath.Dir(filepath.Join(dir, link)), 0o755)
		if err := os.Symlink(elsewhere, filepath.Join(dir, link)); err != nil {
			t.Fatal(err)
		}
	}
	table := appArn(t, c)
	full := func(prefix string) *dynamodb.ExportTableToPointInTimeInput {
		return &dynamodb.ExportTableToPointInTimeInput{TableArn: table, S3Bucket: aws.String("exports"), S3Prefix: aws.String(prefix)}
	}
	incremental := incrementalInput(table, from, to, "")
	incremental.S3Prefix = aws.String("linkdir/inc")
	failedExport(t, c, full("linkdir"), dir, "s3://exports/linkdir/AWSDynamoDB/")
	failedExport(t, c, full("inner"), dir, "s3://exports/inner/AWSDynamoDB/")
	failedExport(t, c, incremental, dir, "s3://exports/linkdir/inc/AWSDynamoDB/")
	if entries, _ := os.ReadDir(elsewhere); len(entries) != 0 {
		t.Fatalf("exports wrote %d entries through a link out of their bucket", len(entries))
	}
}
