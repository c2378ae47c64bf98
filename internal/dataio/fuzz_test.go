package dataio_test

import (
	"bytes"
	"reflect"
	"strings"
	"testing"

	"github.com/sortkeydb/sortkey/internal/dataio"
)

// FuzzImportLine: any line either is refused with an error or decodes to
// an item that encodes and decodes back to itself, never a panic.
func FuzzImportLine(f *testing.F) {
	for _, seed := range []string{
		`{"Item":{"pk":{"S":"a"},"n":{"N":"1"}}}`,
		`{"Item":{"b":{"B":"AAE="},"bs":{"BS":["AQ==",""]},"ss":{"SS":["x"]},"ns":{"NS":["1","2"]}}}`,
		`{"Item":{"l":{"L":[{"NULL":true},{"BOOL":false},{"M":{"x":{"L":[]}}}]}}}`,
		`{"Item":{"s":{"S":"\u0000\"\\é"}}}`,
		`{"Item":{"x":{"S":"a","N":"1"}}}`, `{"Item":null}`, `{"Item":{"x":{"NULL":false}}}`, `[]`, `{"item":{}}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		item, err := dataio.DecodeLine(line)
		if err != nil {
			return
		}
		enc := dataio.AppendItemLine(nil, item)
		again, err := dataio.DecodeLine(enc)
		if err != nil {
			t.Fatalf("%q decoded, but its encoding %q does not: %v", line, enc, err)
		}
		if !reflect.DeepEqual(item, again) || !bytes.Equal(enc, dataio.AppendItemLine(nil, again)) {
			t.Fatalf("%q: round trip changed the item:\n%s\n%s", line, enc, dataio.AppendItemLine(nil, again))
		}
	})
}

// FuzzImportIon: any Ion text either is refused with an error or reads
// as an item that ION export writes and reads back to itself.
func FuzzImportIon(f *testing.F) {
	for _, seed := range []string{
		`$ion_1_0 {Item:{pk:"a",n:103.,p:6d2,f:false,x:null}}`,
		`{Item:{'$x':$dynamodb_NS::[15d-1,-1d-3],b:{{AAEC}},bs:$dynamodb_BS::[{{AQ==}},{{}}],ss:$dynamodb_SS::["x"]}}`,
		"/* c */ {'Item': {\"l\": [1_0, -0x1F, 2.5e3, '''a''' '''b''', sym, {m: {}}], // c\n s: \"\\u00e9\\x00\"}}",
		`{Item:{a:2007-01-01T}}`, `{Item:{a:$dynamodb_XS::[]}}`, `[1]`, `{Item:{a:"x`, `{Item:{a:{{"c"}}}}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, text []byte) {
		item, err := dataio.DecodeIonLine(text)
		if err != nil {
			return
		}
		enc := dataio.AppendIonLine(nil, item)
		again, err := dataio.DecodeIonLine(enc)
		if err != nil {
			t.Fatalf("%q decoded, but its encoding %q does not: %v", text, enc, err)
		}
		if !reflect.DeepEqual(item, again) || !bytes.Equal(enc, dataio.AppendIonLine(nil, again)) {
			t.Fatalf("%q: round trip changed the item:\n%s\n%s", text, enc, dataio.AppendIonLine(nil, again))
		}
	})
}

// FuzzParseFixture: any tables.json is either refused with an error or
// gives tables each with a name, keys and a data file inside the folder.
func FuzzParseFixture(f *testing.F) {
	for _, seed := range []string{
		`{"version":1,"tables":[{"create":{"TableName":"a","KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}]},"file":"table-0000.json.gz","itemCount":1}]}`,
		`{"version":1,"tables":[]}`, `{"version":2}`, `{"version":1,"tables":[{"file":"../x"}]}`, `[]`, ``,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		fx, err := dataio.ParseFixture(data)
		if err != nil {
			return
		}
		for _, tb := range fx.Tables {
			if tb.Create == nil || tb.Create.TableName == nil || len(tb.Create.KeySchema) == 0 || strings.ContainsAny(tb.File, `/`) || tb.File == "" || tb.File == ".." || tb.File == "." {
				t.Fatalf("accepted %+v", tb)
			}
		}
	})
}
