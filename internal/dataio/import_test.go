package dataio_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/klauspost/compress/zstd"

	"github.com/sortkeydb/sortkey/internal/dataio"
)

func keys(t *testing.T, pk, sk string) dataio.Schema {
	s, err := dataio.KeysSchema(pk, sk)
	if err != nil {
		t.Fatal(err)
	}
	return s
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

func tables(t *testing.T, c *dynamodb.Client) []string {
	out, err := c.ListTables(context.Background(), &dynamodb.ListTablesInput{})
	if err != nil {
		t.Fatal(err)
	}
	return out.TableNames
}

func count(t *testing.T, c *dynamodb.Client, table string) int32 {
	out, err := c.Scan(context.Background(), &dynamodb.ScanInput{TableName: aws.String(table), Select: types.SelectCount})
	if err != nil {
		t.Fatal(err)
	}
	return out.Count
}

// A line that cannot be an item is counted in ErrorCount and logged, as
// ImportTable logs to CloudWatch; the others are imported and the table
// stays, as DynamoDB leaves it after an ItemValidationError.
func TestImportCountsAndLogsWrongLines(t *testing.T) {
	c := newClient(t)
	dir := t.TempDir()
	lines := []string{
		`{"Item":{"pk":{"S":"a"},"n":{"N":"1"}}}`,
		`{"Item":{"pk":{"S":"b"}`,      // truncated JSON
		`{"Item":{"pk":{"s":"c"}}}`,    // no such data type
		`{"Item":{"other":{"S":"d"}}}`, // no key: the server refuses it
		`{"Item":{"pk":{"N":"5"}}}`,    // the key's type is wrong
		``,                             // blank lines are not items
		`{"Item":{"pk":{"S":"e"},"n":{"N":"not a number"}}}`, // the server refuses it
		`{"Item":{"pk":{"S":"a"},"n":{"N":"2"}}}`,            // a duplicate: the last wins, no error
		`{"Item":{"pk":{"S":"f"}}}`,
	}
	writeFile(t, filepath.Join(dir, "part-1.json"), []byte(strings.Join(lines, "\n")))
	logPath := filepath.Join(t.TempDir(), "errors.jsonl")
	r, err := dataio.Import(context.Background(), c, dataio.ImportOptions{Table: "Wrong", Dir: dir, Schema: keys(t, "pk:S", ""), ErrorLog: logPath})
	if err != nil {
		t.Fatal(err)
	}
	if r.ProcessedItemCount != 8 || r.ErrorCount != 5 || r.ImportedItemCount != 3 || !r.Failed() {
		t.Fatalf("counts %+v", r)
	}
	if n := count(t, c, "Wrong"); n != 2 {
		t.Fatalf("the table holds %d items, want a and f", n)
	}
	got, err := c.GetItem(context.Background(), &dynamodb.GetItemInput{TableName: aws.String("Wrong"), Key: map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: "a"}}})
	if err != nil || got.Item["n"].(*types.AttributeValueMemberN).Value != "2" {
		t.Fatalf("a is %v (%v), want the last line's", got.Item, err)
	}
	checkErrorLog(t, logPath, r.ImportArn, []int64{1, 2, 3, 4, 5})
}

func checkErrorLog(t *testing.T, path, importArn string, indexes []int64) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var got []int64
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var e struct {
			ItemS3Pointer struct {
				Key       string
				ItemIndex int64
			}
			ImportArn     string
			ErrorMessages []string
		}
		if err := json.Unmarshal([]byte(line), &e); err != nil || e.ItemS3Pointer.Key != "part-1.json" || e.ImportArn != importArn || len(e.ErrorMessages) != 1 || e.ErrorMessages[0] == "" {
			t.Fatalf("log line %s (%v)", line, err)
		}
		got = append(got, e.ItemS3Pointer.ItemIndex)
	}
	slices.Sort(got)
	if !slices.Equal(got, indexes) {
		t.Fatalf("logged items %v, want %v", got, indexes)
	}
	if !strings.Contains(string(data), "Missing the key pk in the item") {
		t.Fatalf("the log does not give the server's reason:\n%s", data)
	}
}

// An export whose manifest is gone is refused before a table is made.
func TestImportMissingManifestMakesNothing(t *testing.T) {
	c := newClient(t)
	createTable(t, c, "Source")
	putItems(t, c, "Source", 5)
	r := exportTable(t, c, "Source")
	if err := os.Remove(filepath.Join(r.Path, "manifest-summary.json")); err != nil {
		t.Fatal(err)
	}
	_, err := dataio.Import(context.Background(), c, dataio.ImportOptions{Table: "Copy", Dir: r.Path, Schema: keys(t, "pk:S", "sk:N")})
	if err == nil || !strings.Contains(err.Error(), "has no manifest-summary.json") {
		t.Fatalf("import without a manifest: %v", err)
	}
	if got := tables(t, c); !slices.Equal(got, []string{"Source"}) {
		t.Fatalf("tables %v", got)
	}
}

// A truncated data file of an export fails its md5Checksum: refused
// before a table is made. One in a bare folder is found mid-stream: the
// table the import made is deleted.
func TestImportTruncatedGzipMakesNothing(t *testing.T) {
	c := newClient(t)
	createTable(t, c, "Source")
	putItems(t, c, "Source", 40)
	r := exportTable(t, c, "Source")
	data := filepath.Join(r.Path, filepath.FromSlash(strings.TrimPrefix(r.Files[1].DataFileS3Key, "AWSDynamoDB/"+r.ExportID+"/")))
	whole, err := os.ReadFile(data)
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, data, whole[:len(whole)/2])
	_, err = dataio.Import(context.Background(), c, dataio.ImportOptions{Table: "Copy", Dir: filepath.Dir(filepath.Dir(r.Path)), Schema: keys(t, "pk:S", "sk:N")})
	if err == nil || !strings.Contains(err.Error(), "does not match its checksum") {
		t.Fatalf("truncated export: %v", err)
	}
	bare := t.TempDir()
	writeFile(t, filepath.Join(bare, "items.json.gz"), whole[:len(whole)/2])
	_, err = dataio.Import(context.Background(), c, dataio.ImportOptions{Table: "Copy", Dir: bare, Compression: "GZIP", Schema: keys(t, "pk:S", "sk:N")})
	if err == nil || !strings.Contains(err.Error(), "unexpected EOF") || !strings.Contains(err.Error(), "the table Copy this import created was deleted") {
		t.Fatalf("truncated gzip: %v", err)
	}
	if got := tables(t, c); !slices.Equal(got, []string{"Source"}) {
		t.Fatalf("tables %v", got)
	}
}

// ImportTable always creates a new table: an existing one is refused and
// left as it was.
func TestImportRefusesExistingTable(t *testing.T) {
	c := newClient(t)
	createTable(t, c, "Taken")
	putItems(t, c, "Taken", 3)
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "a.json"), []byte(`{"Item":{"pk":{"S":"x"},"sk":{"N":"1"}}}`))
	_, err := dataio.Import(context.Background(), c, dataio.ImportOptions{Table: "Taken", Dir: dir, Schema: keys(t, "pk:S", "sk:N")})
	var inUse *types.ResourceInUseException
	if !errors.As(err, &inUse) || count(t, c, "Taken") != 3 {
		t.Fatalf("import into an existing table: %v", err)
	}
}

// CSV: the header line names the columns, keys of the table and its
// indexes take their schema's type, everything else is a string; an
// explicit header makes the first line data. Compressed with ZSTD.
func TestImportCSV(t *testing.T) {
	c := newClient(t)
	schema := keys(t, "id:S", "n:N")
	schema.AttributeDefinitions = append(schema.AttributeDefinitions, types.AttributeDefinition{AttributeName: aws.String("score"), AttributeType: types.ScalarAttributeTypeN})
	schema.GlobalIndexes = []types.GlobalSecondaryIndex{{IndexName: aws.String("ByScore"),
		KeySchema:  []types.KeySchemaElement{{AttributeName: aws.String("id"), KeyType: types.KeyTypeHash}, {AttributeName: aws.String("score"), KeyType: types.KeyTypeRange}},
		Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll}}}
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "a.csv.zst"), zstdBytes(t, "id;n;score;note\nu1;1;10;\"semi;colon\"\nu2;2;x;\nu3;three;1;z\nu4;4;4\n"))
	r, err := dataio.Import(context.Background(), c, dataio.ImportOptions{Table: "Csv1", Dir: dir, Format: "CSV", Compression: "ZSTD", CSVDelimiter: ";", Schema: schema, ErrorLog: filepath.Join(t.TempDir(), "e")})
	if err != nil {
		t.Fatal(err)
	}
	// u2's score is not a number and u3's sort key neither; u4 lacks a column.
	if r.ProcessedItemCount != 4 || r.ImportedItemCount != 1 || r.ErrorCount != 3 {
		t.Fatalf("counts %+v", r)
	}
	got, err := c.GetItem(context.Background(), &dynamodb.GetItemInput{TableName: aws.String("Csv1"), Key: map[string]types.AttributeValue{
		"id": &types.AttributeValueMemberS{Value: "u1"}, "n": &types.AttributeValueMemberN{Value: "1"}}})
	want := map[string]types.AttributeValue{"id": &types.AttributeValueMemberS{Value: "u1"}, "n": &types.AttributeValueMemberN{Value: "1"},
		"score": &types.AttributeValueMemberN{Value: "10"}, "note": &types.AttributeValueMemberS{Value: "semi;colon"}}
	if err != nil || !reflect.DeepEqual(got.Item, want) {
		t.Fatalf("u1 is %#v (%v)", got.Item, err)
	}
	header := t.TempDir()
	writeFile(t, filepath.Join(header, "b.csv"), []byte("u9,9,hello\n"))
	r, err = dataio.Import(context.Background(), c, dataio.ImportOptions{Table: "Csv2", Dir: header, Format: "CSV", CSVHeader: []string{"id", "n", "s"}, Schema: keys(t, "id:S", "n:N")})
	if err != nil || r.ImportedItemCount != 1 || r.ErrorCount != 0 {
		t.Fatalf("explicit header: %+v (%v)", r, err)
	}
}

func zstdBytes(t *testing.T, s string) []byte {
	var b bytes.Buffer
	w, err := zstd.NewWriter(&b)
	if err != nil {
		t.Fatal(err)
	}
	w.Write([]byte(s))
	w.Close()
	return b.Bytes()
}

func TestImportGzipFolderAndBadOptions(t *testing.T) {
	c := newClient(t)
	dir := t.TempDir()
	var b bytes.Buffer
	gz := gzip.NewWriter(&b)
	for i := range 60 {
		gz.Write(dataio.AppendItemLine(nil, everyType(i)))
	}
	gz.Close()
	writeFile(t, filepath.Join(dir, "x", "y.gz"), b.Bytes())
	writeFile(t, filepath.Join(dir, ".hidden"), []byte("not data"))
	r, err := dataio.Import(context.Background(), c, dataio.ImportOptions{Table: "Gzipped", Dir: dir, Compression: "GZIP", Schema: keys(t, "pk:S", "sk:N")})
	if err != nil || r.ImportedItemCount != 60 || r.Files != 1 {
		t.Fatalf("%+v (%v)", r, err)
	}
	for _, o := range []dataio.ImportOptions{
		{Table: "Other", Dir: dir, Format: "XML", Schema: keys(t, "pk:S", "")},
		{Table: "Other", Dir: dir, Compression: "LZ4", Schema: keys(t, "pk:S", "")},
		{Table: "Other", Dir: dir, CSVDelimiter: ";", Schema: keys(t, "pk:S", "")},
		{Table: "Other", Dir: dir},
		{Table: "Other", Dir: t.TempDir(), Schema: keys(t, "pk:S", "")},
	} {
		if _, err := dataio.Import(context.Background(), c, o); err == nil {
			t.Errorf("%+v was accepted", o)
		}
	}
	if _, err := dataio.KeysSchema("pk:BOOL", ""); err == nil {
		t.Error("a BOOL key was accepted")
	}
	if got := tables(t, c); !slices.Equal(got, []string{"Gzipped"}) {
		t.Fatalf("tables %v", got)
	}
}
