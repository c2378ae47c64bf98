package dataio_test

import (
	"bufio"
	"compress/gzip"
	"context"
	"crypto/md5"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/sortkeydb/sortkey/internal/dataio"
	"github.com/sortkeydb/sortkey/sortkeytest"
)

func newClient(t *testing.T) *dynamodb.Client {
	return dynamodb.NewFromConfig(sortkeytest.New(t).NetworkAWSConfig())
}

func createTable(t *testing.T, c *dynamodb.Client, name string) {
	t.Helper()
	s, err := dataio.KeysSchema("pk:S", "sk:N")
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.CreateTable(context.Background(), &dynamodb.CreateTableInput{TableName: aws.String(name),
		KeySchema: s.KeySchema, AttributeDefinitions: s.AttributeDefinitions, BillingMode: types.BillingModePayPerRequest})
	if err != nil {
		t.Fatal(err)
	}
}

// everyType is an item with every data type DynamoDB has, numbers at
// 38 digits of precision, and strings JSON must escape.
func everyType(i int) dataio.Item {
	return dataio.Item{
		"pk":    &types.AttributeValueMemberS{Value: fmt.Sprintf("user#%03d \"quoted\" \\ \n\t\u0001 é 日本", i%7)},
		"sk":    &types.AttributeValueMemberN{Value: fmt.Sprintf("%d", i)},
		"big":   &types.AttributeValueMemberN{Value: "12345678901234567890123456789012345678"},
		"tiny":  &types.AttributeValueMemberN{Value: "-0.00000000000000000000000000000000000012345678901234567890123456789012345678"},
		"huge":  &types.AttributeValueMemberN{Value: "9.9999999999999999999999999999999999999E+125"},
		"bin":   &types.AttributeValueMemberB{Value: []byte{0, 1, 2, 0xff, byte(i)}},
		"flag":  &types.AttributeValueMemberBOOL{Value: i%2 == 0},
		"none":  &types.AttributeValueMemberNULL{Value: true},
		"empty": &types.AttributeValueMemberS{Value: ""},
		"ss":    &types.AttributeValueMemberSS{Value: []string{"a", "b", "ç"}},
		"ns":    &types.AttributeValueMemberNS{Value: []string{"1", "-2.5", "1E+10"}},
		"bs":    &types.AttributeValueMemberBS{Value: [][]byte{{1}, {2, 3}}},
		"list":  &types.AttributeValueMemberL{Value: []types.AttributeValue{&types.AttributeValueMemberS{Value: "x"}, &types.AttributeValueMemberN{Value: "7"}, &types.AttributeValueMemberL{}}},
		"map": &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{
			"inner": &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{"deep": &types.AttributeValueMemberBS{Value: [][]byte{{9}}}}},
			"e":     &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{}},
		}},
	}
}

func putItems(t *testing.T, c *dynamodb.Client, table string, n int) {
	t.Helper()
	for i := range n {
		if _, err := c.PutItem(context.Background(), &dynamodb.PutItemInput{TableName: aws.String(table), Item: everyType(i)}); err != nil {
			t.Fatal(err)
		}
	}
}

// scanAll is a table's items, each as a canonical line with its sets
// sorted: sets have no order, so two tables agree whatever order a server
// returns set members in.
func scanAll(t *testing.T, c *dynamodb.Client, table string) []string {
	t.Helper()
	var lines []string
	p := dynamodb.NewScanPaginator(c, &dynamodb.ScanInput{TableName: aws.String(table)})
	for p.HasMorePages() {
		page, err := p.NextPage(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		for _, item := range page.Items {
			sortSets(item)
			lines = append(lines, string(dataio.AppendItemLine(nil, item)))
		}
	}
	slices.Sort(lines)
	return lines
}

func sortSets(m map[string]types.AttributeValue) {
	for _, v := range m {
		switch v := v.(type) {
		case *types.AttributeValueMemberSS:
			slices.Sort(v.Value)
		case *types.AttributeValueMemberNS:
			slices.Sort(v.Value)
		case *types.AttributeValueMemberBS:
			slices.SortFunc(v.Value, func(a, b []byte) int { return strings.Compare(string(a), string(b)) })
		case *types.AttributeValueMemberM:
			sortSets(v.Value)
		}
	}
}

func exportTable(t *testing.T, c *dynamodb.Client, table string) *dataio.ExportResult {
	t.Helper()
	r, err := dataio.Export(context.Background(), c, dataio.ExportOptions{Table: table, Dir: t.TempDir(), Segments: 3})
	if err != nil {
		t.Fatalf("export: %v", err)
	}
	return r
}

func TestExportImportRoundTrip(t *testing.T) {
	c := newClient(t)
	createTable(t, c, "Source")
	putItems(t, c, "Source", 120)
	r := exportTable(t, c, "Source")
	if r.Summary.ItemCount != 120 || len(r.Files) != 3 {
		t.Fatalf("export: %d items in %d files", r.Summary.ItemCount, len(r.Files))
	}
	s, _ := dataio.KeysSchema("pk:S", "sk:N")
	res, err := dataio.Import(context.Background(), c, dataio.ImportOptions{Table: "Copy", Dir: r.Path, Schema: s})
	if err != nil {
		t.Fatalf("import: %v", err)
	}
	if res.ImportedItemCount != 120 || res.ProcessedItemCount != 120 || res.ErrorCount != 0 || res.Failed() {
		t.Fatalf("import counts %+v", res)
	}
	want, got := scanAll(t, c, "Source"), scanAll(t, c, "Copy")
	if !slices.Equal(want, got) {
		t.Fatalf("the copy differs:\nsource %d items, first %s\ncopy %d items, first %s", len(want), want[0], len(got), got[0])
	}
}

// The export is read back with gzip and encoding/json alone, and checked
// against the layout and fields DynamoDB's documentation gives.
func TestExportLayoutReadsWithPlainGzipAndJSON(t *testing.T) {
	c := newClient(t)
	createTable(t, c, "Layout")
	putItems(t, c, "Layout", 10)
	before := time.Now().Add(-time.Second)
	r := exportTable(t, c, "Layout")

	roots, err := os.ReadDir(filepath.Join(filepath.Dir(filepath.Dir(r.Path))))
	if err != nil || len(roots) != 1 || roots[0].Name() != "AWSDynamoDB" {
		t.Fatalf("the prefix folder holds %v (%v), want AWSDynamoDB only", roots, err)
	}
	id := filepath.Base(r.Path)
	if !regexp.MustCompile(`^\d{14}-[0-9a-f]{8}$`).MatchString(id) {
		t.Fatalf("ExportId %q", id)
	}
	names := dirNames(t, r.Path)
	if want := []string{"_started", "data", "manifest-files.checksum", "manifest-files.json", "manifest-summary.checksum", "manifest-summary.json"}; !slices.Equal(names, want) {
		t.Fatalf("export folder holds %v, want %v", names, want)
	}
	if st, _ := os.Stat(filepath.Join(r.Path, "_started")); st.Size() != 0 {
		t.Fatal("_started is not empty")
	}
	summary := readChecked(t, r.Path, "manifest-summary")
	var s map[string]any
	if err := json.Unmarshal(summary, &s); err != nil {
		t.Fatal(err)
	}
	checkSummary(t, s, id, before)
	files := readChecked(t, r.Path, "manifest-files")
	var total float64
	lines := strings.Split(strings.TrimSuffix(string(files), "\n"), "\n")
	for _, line := range lines {
		total += checkFileEntry(t, r.Path, id, line)
	}
	if len(lines) != 3 || total != 10 || len(dirNames(t, filepath.Join(r.Path, "data"))) != 3 {
		t.Fatalf("%d manifest lines, %v items", len(lines), total)
	}
}

func dirNames(t *testing.T, dir string) []string {
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

// readChecked reads NAME.json and checks NAME.checksum is its MD5.
func readChecked(t *testing.T, dir, name string) []byte {
	data, err := os.ReadFile(filepath.Join(dir, name+".json"))
	if err != nil {
		t.Fatal(err)
	}
	sum, err := os.ReadFile(filepath.Join(dir, name+".checksum"))
	if md5sum := md5.Sum(data); err != nil || string(sum) != hex.EncodeToString(md5sum[:]) {
		t.Fatalf("%s.checksum is %q (%v), want the hex MD5 of %s.json", name, sum, err, name)
	}
	return data
}

func checkSummary(t *testing.T, s map[string]any, id string, before time.Time) {
	t.Helper()
	var keys []string
	for k := range s {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	want := []string{"billedSizeBytes", "endTime", "exportArn", "exportTime", "itemCount", "manifestFilesS3Key", "outputFormat",
		"s3Bucket", "s3Prefix", "s3SseAlgorithm", "s3SseKmsKeyId", "startTime", "tableArn", "tableId", "version"}
	if !slices.Equal(keys, want) {
		t.Fatalf("summary fields %v, want %v", keys, want)
	}
	tableArn, _ := s["tableArn"].(string)
	if s["version"] != "2020-06-30" || s["outputFormat"] != "DYNAMODB_JSON" || s["itemCount"] != 10.0 ||
		!strings.HasSuffix(tableArn, ":table/Layout") || s["exportArn"] != tableArn+"/export/"+id ||
		s["manifestFilesS3Key"] != "AWSDynamoDB/"+id+"/manifest-files.json" || s["tableId"] == "" {
		t.Fatalf("summary %v", s)
	}
	for _, field := range []string{"startTime", "endTime", "exportTime"} {
		v, _ := s[field].(string)
		at, err := time.Parse("2006-01-02T15:04:05.000Z", v)
		if err != nil || at.Before(before) || at.After(time.Now()) {
			t.Errorf("%s %q (%v)", field, v, err)
		}
	}
}

// checkFileEntry checks one manifest-files.json line and its data file,
// and returns its item count.
func checkFileEntry(t *testing.T, dir, id, line string) float64 {
	t.Helper()
	var e map[string]any
	if err := json.Unmarshal([]byte(line), &e); err != nil || len(e) != 4 {
		t.Fatalf("manifest line %q (%v)", line, err)
	}
	key, _ := e["dataFileS3Key"].(string)
	if !regexp.MustCompile(`^AWSDynamoDB/` + id + `/data/[a-z2-7]+\.json\.gz$`).MatchString(key) {
		t.Fatalf("dataFileS3Key %q", key)
	}
	data, err := os.ReadFile(filepath.Join(dir, strings.TrimPrefix(key, "AWSDynamoDB/"+id+"/")))
	if err != nil {
		t.Fatal(err)
	}
	sum := md5.Sum(data)
	if e["md5Checksum"] != base64.StdEncoding.EncodeToString(sum[:]) || e["etag"] != hex.EncodeToString(sum[:]) {
		t.Fatalf("md5Checksum %v, etag %v for %s", e["md5Checksum"], e["etag"], key)
	}
	if n := countItemLines(t, data); float64(n) != e["itemCount"] {
		t.Fatalf("%s holds %d items, the manifest says %v", key, n, e["itemCount"])
	}
	return e["itemCount"].(float64)
}

func countItemLines(t *testing.T, data []byte) int {
	t.Helper()
	gz, err := gzip.NewReader(strings.NewReader(string(data)))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	sc := bufio.NewScanner(gz)
	for sc.Scan() {
		var line map[string]map[string]map[string]json.RawMessage
		if err := json.Unmarshal(sc.Bytes(), &line); err != nil || len(line) != 1 || line["Item"] == nil {
			t.Fatalf("line %q (%v)", sc.Text(), err)
		}
		if string(line["Item"]["big"]["N"]) != `"12345678901234567890123456789012345678"` || string(line["Item"]["none"]["NULL"]) != "true" {
			t.Fatalf("item %s", sc.Text())
		}
		n++
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return n
}

// An export of an empty table still writes a data file per segment, as
// DynamoDB writes a file per partition, empty or not.
func TestExportEmptyTable(t *testing.T) {
	c := newClient(t)
	createTable(t, c, "Empty")
	r := exportTable(t, c, "Empty")
	if r.Summary.ItemCount != 0 || len(r.Files) != 3 || r.Files[0].ItemCount != 0 {
		t.Fatalf("%+v", r)
	}
}

func TestExportRefusesUnknownFormatAndMissingTable(t *testing.T) {
	c := newClient(t)
	dir := t.TempDir()
	_, err := dataio.Export(context.Background(), c, dataio.ExportOptions{Table: "T", Dir: dir, Format: "XML"})
	if err == nil || !strings.Contains(err.Error(), `unknown format "XML"`) {
		t.Fatalf("XML: %v", err)
	}
	_, err = dataio.Export(context.Background(), c, dataio.ExportOptions{Table: "Missing", Dir: dir})
	if err == nil || !strings.Contains(err.Error(), "ResourceNotFoundException") {
		t.Fatalf("missing table: %v", err)
	}
	if names := dirNames(t, dir); len(names) != 0 {
		t.Fatalf("a failed export left %v", names)
	}
}
