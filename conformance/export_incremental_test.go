package conformance_test

import (
	"bufio"
	"compress/gzip"
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

func deleteApp(t *testing.T, c *dynamodb.Client, pk string) {
	t.Helper()
	_, err := c.DeleteItem(ctx, &dynamodb.DeleteItemInput{TableName: aws.String("app"),
		Key: map[string]types.AttributeValue{"PK": s(pk), "SK": s("1")}})
	if err != nil {
		t.Fatal(err)
	}
}

// changedTable writes, with PITR on, changes before, in and after a
// 20-minute window and returns the window's ends and the times of the
// changes in it: c inserted, b updated twice, a deleted, e inserted and
// deleted; d is changed only after the window.
func changedTable(t *testing.T, c *dynamodb.Client, clock *testClock) (from, to time.Time, at map[string]time.Time) {
	enablePITR(t, c, "app")
	for _, pk := range []string{"a", "b", "d"} {
		putApp(t, c, "app", pk, "1", "open")
	}
	clock.Advance(time.Minute)
	from, at = clock.Now(), map[string]time.Time{}
	step := func(pk string, write func()) {
		clock.Advance(time.Minute)
		write()
		at[pk] = clock.Now()
	}
	step("c", func() { putApp(t, c, "app", "c", "1", "open") })
	step("b", func() { putApp(t, c, "app", "b", "1", "closed") })
	step("a", func() { deleteApp(t, c, "a") })
	step("e", func() { putApp(t, c, "app", "e", "1", "open"); deleteApp(t, c, "e") })
	step("b", func() { putApp(t, c, "app", "b", "1", "done") })
	to = from.Add(20 * time.Minute)
	clock.Advance(to.Sub(clock.Now()))
	putApp(t, c, "app", "c", "1", "closed") // at To: outside the window
	clock.Advance(time.Minute)
	deleteApp(t, c, "d")
	return from, to, at
}

func incrementalInput(table *string, from, to time.Time, view types.ExportViewType) *dynamodb.ExportTableToPointInTimeInput {
	return &dynamodb.ExportTableToPointInTimeInput{TableArn: table, S3Bucket: aws.String("exports"), S3Prefix: aws.String("inc"),
		ExportType: types.ExportTypeIncrementalExport, IncrementalExportSpecification: &types.IncrementalExportSpecification{
			ExportFromTime: aws.Time(from), ExportToTime: aws.Time(to), ExportViewType: view}}
}

// changeLines reads an incremental export's data files with plain gzip
// and encoding/json: each line's members re-encoded with sorted names.
func changeLines(t *testing.T, dir string, d *types.ExportDescription) []map[string]string {
	t.Helper()
	var summary map[string]any
	readJSON(t, filepath.Join(dir, filepath.FromSlash(aws.ToString(d.ExportManifest))), &summary)
	root := filepath.Dir(filepath.Join(dir, filepath.FromSlash(aws.ToString(d.ExportManifest))))
	files, _ := filepath.Glob(filepath.Join(root, "data", "*.json.gz"))
	var lines []map[string]string
	for _, path := range files {
		for _, raw := range gzipLines(t, path) {
			var line map[string]any
			if err := json.Unmarshal([]byte(raw), &line); err != nil {
				t.Fatalf("line %q: %v", raw, err)
			}
			members := map[string]string{}
			for k, v := range line {
				b, _ := json.Marshal(v)
				members[k] = string(b)
			}
			lines = append(lines, members)
		}
	}
	if int(summary["itemCount"].(float64)) != len(lines) {
		t.Fatalf("summary itemCount %v, files hold %d lines", summary["itemCount"], len(lines))
	}
	// Lines are in storage (hash) order, as DynamoDB's are in partition order.
	slices.SortFunc(lines, func(a, b map[string]string) int { return strings.Compare(a["Keys"], b["Keys"]) })
	return lines
}

func gzipLines(t *testing.T, path string) []string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	gz, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for sc := bufio.NewScanner(gz); sc.Scan(); {
		out = append(out, sc.Text())
	}
	return out
}

func changeLine(at time.Time, pk, old, new string) map[string]string {
	m := map[string]string{"Metadata": `{"WriteTimestampMicros":{"N":"` + strconv.FormatInt(at.UnixMicro(), 10) + `"}}`,
		"Keys": `{"PK":{"S":"` + pk + `"},"SK":{"S":"1"}}`}
	if old != "" {
		m["OldImage"] = old
	}
	if new != "" {
		m["NewImage"] = new
	}
	return m
}

func wantLines(t *testing.T, got, want []map[string]string) {
	t.Helper()
	gb, _ := json.Marshal(got)
	wb, _ := json.Marshal(want)
	if string(gb) != string(wb) {
		t.Fatalf("lines:\n%s\nwant\n%s", gb, wb)
	}
}

func TestIncrementalExportNewAndOldImages(t *testing.T) {
	c, clock, dir := exportServer(t)
	from, to, at := changedTable(t, c, clock)
	table := appArn(t, c)
	d := export(t, c, incrementalInput(table, from, to, ""))
	spec := d.IncrementalExportSpecification
	if d.ExportType != types.ExportTypeIncrementalExport || spec == nil || !spec.ExportFromTime.Equal(from) ||
		!spec.ExportToTime.Equal(to) || spec.ExportViewType != types.ExportViewTypeNewAndOldImages || aws.ToInt64(d.ItemCount) != 3 {
		t.Fatalf("description: %+v %+v", d, spec)
	}
	var summary map[string]any
	readJSON(t, filepath.Join(dir, filepath.FromSlash(aws.ToString(d.ExportManifest))), &summary)
	want := map[string]any{"exportType": "INCREMENTAL_EXPORT", "outputView": "NEW_AND_OLD_IMAGES", "outputFormat": "DYNAMODB_JSON",
		"exportFromTime": from.UTC().Format("2006-01-02T15:04:05.000Z"), "exportToTime": to.UTC().Format("2006-01-02T15:04:05.000Z")}
	for k, v := range want {
		if summary[k] != v {
			t.Errorf("manifest-summary %s = %v, want %v", k, summary[k], v)
		}
	}
	if _, ok := summary["exportTime"]; ok {
		t.Errorf("an incremental export's summary has exportTime: %v", summary)
	}
	wantLines(t, changeLines(t, dir, d), []map[string]string{
		changeLine(at["a"], "a", appItem("a", "open"), ""),
		changeLine(at["b"], "b", appItem("b", "open"), appItem("b", "done")),
		changeLine(at["c"], "c", "", appItem("c", "open")),
	})
}

func TestIncrementalExportNewImage(t *testing.T) {
	c, clock, dir := exportServer(t)
	from, to, at := changedTable(t, c, clock)
	d := export(t, c, incrementalInput(appArn(t, c), from, to, types.ExportViewTypeNewImage))
	if d.IncrementalExportSpecification.ExportViewType != types.ExportViewTypeNewImage {
		t.Fatalf("description: %+v", d.IncrementalExportSpecification)
	}
	wantLines(t, changeLines(t, dir, d), []map[string]string{
		changeLine(at["a"], "a", "", ""),
		changeLine(at["b"], "b", "", appItem("b", "done")),
		changeLine(at["c"], "c", "", appItem("c", "open")),
	})
}

func TestIncrementalExportIon(t *testing.T) {
	c, clock, dir := exportServer(t)
	from, to, at := changedTable(t, c, clock)
	in := incrementalInput(appArn(t, c), from, to, "")
	in.ExportFormat = types.ExportFormatIon
	d := export(t, c, in)
	root := filepath.Dir(filepath.Join(dir, filepath.FromSlash(aws.ToString(d.ExportManifest))))
	files, _ := filepath.Glob(filepath.Join(root, "data", "*.ion.gz"))
	if len(files) != 1 {
		t.Fatalf("data files: %v", files)
	}
	lines := gzipLines(t, files[0])
	// Ion writes the number as a decimal: digits, then d and the exponent.
	micros := strconv.FormatInt(at["b"].UnixMicro(), 10)
	digits := strings.TrimRight(micros, "0")
	stamp := digits + "d" + strconv.Itoa(len(micros)-len(digits))
	want := `$ion_1_0 {Metadata:{WriteTimestampMicros:` + stamp + `},Keys:{PK:"b",SK:"1"},` +
		`OldImage:{Created:1.,PK:"b",PendingId:"b",SK:"1",Status:"open",Title:"b1"},` +
		`NewImage:{Created:1.,PK:"b",PendingId:"b",SK:"1",Status:"done",Title:"b1"}}`
	if len(lines) != 3 || !slices.Contains(lines, want) {
		t.Fatalf("ion lines:\n%s\nwant among them\n%s", strings.Join(lines, "\n"), want)
	}
}

func TestIncrementalExportRefusals(t *testing.T) {
	c, clock, dir := exportServer(t)
	table := appArn(t, c)
	enablePITR(t, c, "app")
	clock.Advance(2 * time.Hour)
	now := clock.Now()
	refuse := func(in *dynamodb.ExportTableToPointInTimeInput, code, prefix string) {
		t.Helper()
		_, err := c.ExportTableToPointInTime(ctx, in)
		wantAPIErrorPrefix(t, err, code, prefix)
	}
	short := "Invalid Request: the duration between ExportFromTime and ExportToTime must be between 15 minutes and 24 hours"
	refuse(incrementalInput(table, now.Add(-time.Hour), now.Add(-time.Hour+14*time.Minute), ""), "ValidationException", short)
	refuse(incrementalInput(table, now.Add(-26*time.Hour), now.Add(-time.Hour), ""), "ValidationException", short)
	refuse(incrementalInput(table, now.Add(-time.Hour), now.Add(-2*time.Hour), ""), "ValidationException", short)
	refuse(incrementalInput(table, now.Add(-3*time.Hour), now.Add(-2*time.Hour), ""), "InvalidExportTimeException", "Export time ")
	refuse(incrementalInput(table, now.Add(-30*time.Minute), now.Add(time.Minute), ""), "InvalidExportTimeException", "Export time ")
	noFrom := incrementalInput(table, now, now, "")
	noFrom.IncrementalExportSpecification.ExportFromTime = nil
	refuse(noFrom, "ValidationException", "Invalid Request: ExportFromTime must be provided in IncrementalExportSpecification")
	noSpec := incrementalInput(table, now, now, "")
	noSpec.IncrementalExportSpecification = nil
	refuse(noSpec, "ValidationException", "Invalid Request: ExportFromTime must be provided in IncrementalExportSpecification")
	full := incrementalInput(table, now.Add(-time.Hour), now, "")
	full.ExportType = types.ExportTypeFullExport
	refuse(full, "ValidationException", "Invalid Request: IncrementalExportSpecification can only be given")
	withTime := incrementalInput(table, now.Add(-time.Hour), now, "")
	withTime.ExportTime = aws.Time(now)
	refuse(withTime, "ValidationException", "Invalid Request: ExportTime can only be given")
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Fatalf("refused exports wrote %d entries into the bucket's folder", len(entries))
	}
	if list, err := c.ListExports(ctx, &dynamodb.ListExportsInput{}); err != nil || len(list.ExportSummaries) != 0 {
		t.Fatalf("ListExports after refusals: %+v %v", list, err)
	}
}

// BenchmarkIncrementalExport exports a window holding 10,000 changes to
// 5,000 of a table's 10,000 items (each updated twice).
func BenchmarkIncrementalExport(b *testing.B) {
	clock := newClock()
	srv := sortkeytest.NewWithOptions(b, &sortkey.Options{InMemory: true, Now: clock.Now, TTLInterval: -1,
		S3Dirs: map[string]string{"exports": b.TempDir()}})
	c := srv.Client()
	createSimple(b, c, "bench")
	pad := strings.Repeat("x", 180)
	put := func(i int, v string) {
		item := map[string]types.AttributeValue{"pk": s(strconv.Itoa(i)), "v": s(v + pad)}
		if _, err := c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("bench"), Item: item}); err != nil {
			b.Fatal(err)
		}
	}
	enablePITR(b, c, "bench")
	for i := range 10000 {
		put(i, "old")
	}
	clock.Advance(time.Minute)
	from := clock.Now()
	for _, v := range []string{"mid", "new"} {
		for i := range 5000 {
			put(i, v)
		}
	}
	clock.Advance(20 * time.Minute)
	d, _ := c.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String("bench")})
	b.ResetTimer()
	for range b.N {
		in := incrementalInput(d.Table.TableArn, from, from.Add(20*time.Minute), "")
		in.S3Prefix = nil
		out, err := c.ExportTableToPointInTime(ctx, in)
		if err != nil {
			b.Fatal(err)
		}
		if e := awaitExportB(b, c, out.ExportDescription.ExportArn); aws.ToInt64(e.ItemCount) != 5000 {
			b.Fatalf("exported %d items", aws.ToInt64(e.ItemCount))
		}
	}
	b.ReportMetric(float64(5000*b.N)/b.Elapsed().Seconds(), "items/s")
}
