package dataio_test

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/sortkeydb/sortkey/internal/dataio"
)

// An ION export imported as ION gives the same items, every data type
// included, and its files are named and described as DynamoDB's are.
func TestExportImportIonRoundTrip(t *testing.T) {
	c := newClient(t)
	createTable(t, c, "Source")
	putItems(t, c, "Source", 120)
	r, err := dataio.Export(context.Background(), c, dataio.ExportOptions{Table: "Source", Dir: t.TempDir(), Segments: 3, Format: "ION"})
	if err != nil {
		t.Fatal(err)
	}
	if r.Summary.OutputFormat != "ION" || r.Summary.ItemCount != 120 {
		t.Fatalf("summary %+v", r.Summary)
	}
	checkIonFiles(t, r)
	s, _ := dataio.KeysSchema("pk:S", "sk:N")
	res, err := dataio.Import(context.Background(), c, dataio.ImportOptions{Table: "Copy", Dir: r.Path, Format: "ION", Schema: s})
	if err != nil {
		t.Fatalf("import: %v", err)
	}
	if res.ImportedItemCount != 120 || res.ProcessedItemCount != 120 || res.ErrorCount != 0 {
		t.Fatalf("import counts %+v", res)
	}
	want, got := scanAll(t, c, "Source"), scanAll(t, c, "Copy")
	if !slices.Equal(want, got) {
		t.Fatalf("the copy differs:\nsource %d items, first %s\ncopy %d items, first %s", len(want), want[0], len(got), got[0])
	}
	_, err = dataio.Import(context.Background(), c, dataio.ImportOptions{Table: "Wrong", Dir: r.Path, Schema: s})
	if err == nil || !strings.Contains(err.Error(), "outputFormat is ION, not DYNAMODB_JSON") {
		t.Fatalf("an ION export read as DYNAMODB_JSON: %v", err)
	}
}

// checkIonFiles reads the export with plain gzip: manifest-summary.json
// says ION, and every data file is .ion.gz of version-marked item lines.
func checkIonFiles(t *testing.T, r *dataio.ExportResult) {
	t.Helper()
	var summary map[string]any
	if err := json.Unmarshal(readChecked(t, r.Path, "manifest-summary"), &summary); err != nil || summary["outputFormat"] != "ION" {
		t.Fatalf("summary %v (%v)", summary, err)
	}
	lines := 0
	for _, f := range r.Files {
		if !strings.HasSuffix(f.DataFileS3Key, ".ion.gz") {
			t.Fatalf("data file %s", f.DataFileS3Key)
		}
		data, err := os.ReadFile(filepath.Join(r.Path, "data", filepath.Base(f.DataFileS3Key)))
		if err != nil {
			t.Fatal(err)
		}
		gz, err := gzip.NewReader(bytes.NewReader(data))
		if err != nil {
			t.Fatal(err)
		}
		for sc := bufio.NewScanner(gz); sc.Scan(); lines++ {
			if !strings.HasPrefix(sc.Text(), "$ion_1_0 {Item:{") || !strings.HasSuffix(sc.Text(), "}}") {
				t.Fatalf("line %q", sc.Text())
			}
		}
	}
	if lines != 120 {
		t.Fatalf("%d lines", lines)
	}
}

// The text written for items against the documented mapping; the first
// is the documentation's own example item.
func TestIonGolden(t *testing.T) {
	n := func(s string) types.AttributeValue { return &types.AttributeValueMemberN{Value: s} }
	str := func(s string) types.AttributeValue { return &types.AttributeValueMemberS{Value: s} }
	book := dataio.Item{
		"Authors": &types.AttributeValueMemberSS{Value: []string{"Author1", "Author2"}}, "Dimensions": str("8.5 x 11.0 x 1.5"),
		"ISBN": str("333-3333333333"), "Id": n("103"), "InPublication": &types.AttributeValueMemberBOOL{Value: false},
		"PageCount": n("600"), "Price": n("20"), "ProductCategory": str("Book"), "Title": str("Book 103 Title"),
	}
	other := dataio.Item{
		"pk": str("a'b\"c\n\x01é"), "null": &types.AttributeValueMemberNULL{Value: true}, "e": str(""),
		"$x": &types.AttributeValueMemberNS{Value: []string{"1.5", "-0.001", "1E+3", "12345678901234567890123456789012345678"}},
		"b":  &types.AttributeValueMemberB{Value: []byte{0, 1, 2}}, "bs": &types.AttributeValueMemberBS{Value: [][]byte{{1}, {}}},
		"l": &types.AttributeValueMemberL{Value: []types.AttributeValue{str("x"), n("0"), &types.AttributeValueMemberBOOL{Value: true}}},
		"m": &types.AttributeValueMemberM{Value: dataio.Item{"a b": &types.AttributeValueMemberM{Value: dataio.Item{}}}},
	}
	for _, c := range []struct {
		item dataio.Item
		want string
	}{
		{book, `$ion_1_0 {Item:{Authors:$dynamodb_SS::["Author1","Author2"],Dimensions:"8.5 x 11.0 x 1.5",ISBN:"333-3333333333",Id:103.,InPublication:false,PageCount:6d2,Price:2d1,ProductCategory:"Book",Title:"Book 103 Title"}}`},
		{other, `$ion_1_0 {Item:{'$x':$dynamodb_NS::[15d-1,-1d-3,1d3,12345678901234567890123456789012345678.],b:{{AAEC}},bs:$dynamodb_BS::[{{AQ==}},{{}}],e:"",l:["x",0.,true],m:{'a b':{}},'null':null,pk:"a'b\"c\n\x01é"}}`},
	} {
		got := string(dataio.AppendIonLine(nil, c.item))
		if got != c.want+"\n" {
			t.Errorf("got  %s\nwant %s", got, c.want)
		}
	}
	back, err := dataio.DecodeIonLine([]byte(`$ion_1_0 {Item:{Authors:$dynamodb_SS::["Author1","Author2"],Dimensions:"8.5 x 11.0 x 1.5",ISBN:"333-3333333333",Id:103.,InPublication:false,PageCount:6d2,Price:2d1,ProductCategory:"Book",Title:"Book 103 Title"}}`))
	if err != nil || !reflect.DeepEqual(back, book) {
		t.Fatalf("the documented example reads as %v (%v)", back, err)
	}
}

// Ion text beyond what export writes reads as the same values.
func TestDecodeIonSyntax(t *testing.T) {
	text := "/* c */ $ion_1_0 // c\n{ 'Item' : {\n  \"pk\": '''long ''' /* c */ '''string\\x21''',\n" +
		"  n: 1_000.50d-2, h: -0x1F, f: 25e-1, ix: 7, big: 12345678901234567890123456789012345678.12345e-40,\n" +
		"  b: {{ AA\n E= }}, sym: hello, u: \"\\u00e9\\U0001F600\\uD83D\\uDE00\",\n" +
		"  bs: $dynamodb_BS::[ {{}} , ], nil: null.null, }, }"
	item, err := dataio.DecodeIonLine([]byte(text))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"pk": `{"S":"long string!"}`, "n": `{"N":"10.005"}`, "h": `{"N":"-31"}`, "f": `{"N":"2.5"}`,
		"ix": `{"N":"7"}`, "big": `{"N":"0.001234567890123456789012345678901234567812345"}`,
		"b": `{"B":"AAE="}`, "sym": `{"S":"hello"}`, "u": `{"S":"é😀😀"}`, "bs": `{"BS":[""]}`, "nil": `{"NULL":true}`}
	for name, w := range want {
		got := string(dataio.AppendItemLine(nil, dataio.Item{"x": item[name]}))
		if got != `{"Item":{"x":`+w+"}}\n" {
			t.Errorf("%s: %s, want %s", name, got, w)
		}
	}
	if len(item) != len(want) {
		t.Errorf("item %v", item)
	}
}

// Values that are not items are counted and logged one by one; the rest
// of the file is imported. A line broken mid-value costs only itself.
// (The file is named .json: file names do not matter to ImportTable.)
func TestImportIonBadInput(t *testing.T) {
	c := newClient(t)
	dir := t.TempDir()
	lines := []string{
		`$ion_1_0 {Item:{pk:"a",n:1.}}`,
		`$ion_1_0 {Item:{pk:"b",n:`,                           // truncated
		`$ion_1_0 {Item:{pk:"c",s:$dynamodb_XS::["x"]}}`,      // no such annotation
		`$ion_1_0 [1, 2]`,                                     // not a struct
		`$ion_1_0 {Item:{pk:"d",ss:$dynamodb_SS::[1.]}}`,      // a number in a string set
		"{Item:{pk:'''pretty''',\n  n: 2d0,\n  b: {{AQ==}}}}", // one item over three lines
		`$ion_1_0 {Item:{pk:5.}}`,                             // the server refuses the key's type
		`{Item:{other:"x"}}`,                                  // no key
		`{Item:{pk:"e",t:2007-01-01T}}`,                       // a timestamp
		`{item:{pk:"h"}}`,                                     // no Item
		`{Item:{pk:"f"}} {Item:{pk:"g"}}`,                     // two items on a line
	}
	writeFile(t, filepath.Join(dir, "part-1.json"), []byte(strings.Join(lines, "\n")))
	logPath := filepath.Join(t.TempDir(), "errors.jsonl")
	r, err := dataio.Import(context.Background(), c, dataio.ImportOptions{Table: "Wrong", Dir: dir, Format: "ION", Schema: keys(t, "pk:S", ""), ErrorLog: logPath})
	if err != nil {
		t.Fatal(err)
	}
	if r.ProcessedItemCount != 12 || r.ErrorCount != 8 || r.ImportedItemCount != 4 {
		t.Fatalf("counts %+v", r)
	}
	checkErrorLog(t, logPath, r.ImportArn, []int64{1, 2, 3, 4, 6, 7, 8, 9})
	got, err := c.GetItem(context.Background(), &dynamodb.GetItemInput{TableName: aws.String("Wrong"), Key: dataio.Item{"pk": &types.AttributeValueMemberS{Value: "pretty"}}})
	if err != nil || got.Item["n"].(*types.AttributeValueMemberN).Value != "2" || len(got.Item["b"].(*types.AttributeValueMemberB).Value) != 1 {
		t.Fatalf("the pretty item is %v (%v)", got.Item, err)
	}
}

// A truncated gzip of ION is the file's error: no table is left.
func TestImportIonTruncatedGzipMakesNothing(t *testing.T) {
	c := newClient(t)
	dir := t.TempDir()
	var b bytes.Buffer
	gz := gzip.NewWriter(&b)
	for i := range 200 {
		gz.Write(dataio.AppendIonLine(nil, everyType(i)))
	}
	gz.Close()
	writeFile(t, filepath.Join(dir, "data.ion.gz"), b.Bytes()[:b.Len()/2])
	_, err := dataio.Import(context.Background(), c, dataio.ImportOptions{Table: "Cut", Dir: dir, Format: "ION", Compression: "GZIP", Schema: keys(t, "pk:S", "sk:N")})
	if err == nil || !strings.Contains(err.Error(), "unexpected EOF") {
		t.Fatalf("truncated gzip: %v", err)
	}
	if names := tables(t, c); len(names) != 0 {
		t.Fatalf("tables left: %v", names)
	}
}

// Each malformed record alone is refused with a reason.
func TestDecodeIonRefuses(t *testing.T) {
	for _, text := range []string{
		``, `{Item:{}} {Item:{}}`, `{Item:{a:"x`, `{Item:{a:(1 2)}}`, `{Item:{a:null.string}}`, `{Item:{a:nan}}`,
		`{Item:{a:+inf}}`, `{Item:{a:{{"clob"}}}}`, `{Item:{a:$10}}`, `{Item:{$10:1}}`, `{Item:{a:x::1}}`,
		`{Item:{a:$dynamodb_SS::"x"}}`, `{Item:{a:1, a:2}}`, `{Item:{a:"\q"}}`, `{Item:{a:"\uD800"}}`, `{Item:{a:{{A}}}}`,
		`{Item:{a:1}, Other:1}`, `{Item:[]}`, `{Item:{a:"x" b:1}}`, `/* open`, `{Item:{a:1e}}`, `{Item:{a:"` + "\n" + `"}}`,
		`$ion_symbol_table::{symbols:["a"]} {Item:{}}`, `{Item:{a:2007-01-01}}`, "{Item:{a:\"\xff\"}}",
	} {
		if item, err := dataio.DecodeIonLine([]byte(text)); err == nil || err.Error() == "" {
			t.Errorf("%q was read as %v", text, item)
		}
	}
}
