package protocol

import (
	"bytes"
	"fmt"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"testing"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/sortkeydb/sortkey/internal/apierr"
	"github.com/sortkeydb/sortkey/internal/attr"
)

// escapeRE matches one JSON escape. Matched leftmost first and without
// overlap from the start of a body, the matches are the escapes a JSON
// reader meets, so an escaped backslash hides the "u" after it.
var escapeRE = regexp.MustCompile(`\\(?:u[0-9a-fA-F]{4}|[\s\S]?)`)

// wellFormedText is validText written another way, as the tests' oracle:
// the escapes found by a regular expression, their code units parsed by
// strconv, and package utf16 judging each surrogate with the next escape.
func wellFormedText(body []byte) bool {
	if !utf8.Valid(body) {
		return false
	}
	locs := escapeRE.FindAllIndex(body, -1)
	for k := 0; k < len(locs); k++ {
		u := unitOf(body[locs[k][0]:locs[k][1]])
		if !utf16.IsSurrogate(u) {
			continue
		}
		if k+1 == len(locs) || locs[k+1][0] != locs[k][1] ||
			utf16.DecodeRune(u, unitOf(body[locs[k+1][0]:locs[k+1][1]])) == utf8.RuneError {
			return false
		}
		k++
	}
	return true
}

// unitOf is the code unit of a \uXXXX escape, -1 for any other escape.
func unitOf(esc []byte) rune {
	if len(esc) != 6 {
		return -1
	}
	u, _ := strconv.ParseUint(string(esc[2:]), 16, 16)
	return rune(u)
}

// checkTextRule holds Decode(body, in), for a zero in, to the rule in front
// of decoding: a body that is not well-formed text is refused with
// nothing decoded; any other gets what decoding gave, err and decoded.
func checkTextRule(t *testing.T, body []byte, in any, err error, decoded any) {
	t.Helper()
	if !wellFormedText(body) {
		err = apierr.New(apierr.Serialization, invalidUTF8Message)
		decoded = reflect.New(reflect.TypeOf(in).Elem()).Interface()
	}
	if derr := Decode(body, in); fmt.Sprint(derr) != fmt.Sprint(err) {
		t.Fatalf("%q: Decode gave %v, want %v", body, derr, err)
	}
	if !reflect.DeepEqual(in, decoded) {
		t.Fatalf("%q: Decode gave\n %#v\nwant %#v", body, in, decoded)
	}
}

var textCases = []struct {
	body string
	ok   bool
}{
	{`{"a":"x"}`, true}, {"{\"a\":\"é😀\"}", true}, {`{"a":"\ud83d\ude00"}`, true}, {`{"a":"\uD83D\uDE00"}`, true},
	{`{"a":"\udbff\udfff\u0000\uffff\ud7ff\ue000"}`, true}, {`{"a":"\\ud800"}`, true}, {`{"a":"\\\ud83d\ude00\\"}`, true},
	{`{"a":"\"\ud800"}`, false}, {`{"a":"\u00e9\u12"}`, true}, {`\`, true}, {`{"a":"\ud800\u12"}`, false},
	{"{\"a\":\"\xff\"}", false}, {"{\"a\":\"\xfe\"}", false}, {"{\"a\":\"\xc3\"}", false}, {"{\"a\":\"\xed\xa0\x80\"}", false},
	{"{\"a\":\"\xc0\xaf\"}", false}, {"{\"a\":\"\xf4\x90\x80\x80\"}", false}, {"{\"a\xff\":1}", false}, {"\xef\xbb\xbf{}", true},
	{`{"a":"\ud800"}`, false}, {`{"a":"\udc00"}`, false}, {`{"a":"\ud800\u0041"}`, false}, {`{"a":"\ud800x"}`, false},
	{`{"a":"\ud800\ud800"}`, false}, {`{"a":"\ude00\ud83d"}`, false}, {`{"a":"\ud83d\ude00\ude00"}`, false},
	{`{"a":"\ud800\\udc00"}`, false}, {`{"a":"\ud800`, false}, {`{"a":"x\udfff"}`, false}, {`\ud800`, false},
}

func TestValidText(t *testing.T) {
	for _, c := range textCases {
		if got := validText([]byte(c.body)); got != c.ok {
			t.Errorf("validText(%q) = %v, want %v", c.body, got, c.ok)
		}
		if got := wellFormedText([]byte(c.body)); got != c.ok {
			t.Errorf("oracle(%q) = %v, want %v", c.body, got, c.ok)
		}
	}
}

func FuzzValidText(f *testing.F) {
	for _, c := range textCases {
		f.Add([]byte(c.body))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		if validText(body) != wellFormedText(body) {
			t.Fatalf("%q: validText %v, oracle %v", body, validText(body), !validText(body))
		}
	})
}

// badStrings are string contents Decode refuses.
var badStrings = []string{"\xff", "\xfe", `\ud800`, `\udc00`, `\ud800\u0041`, "\xed\xa0\x80", "\xc3", `\ude00\ud83d`, `x\udfff`}

// The decoders still agree with encoding/json on text Decode refuses, so
// that nothing but the rule in front of them changed.
func TestDecodersAgreeOnBadText(t *testing.T) {
	for _, ft := range fastTypes {
		for _, bad := range badStrings {
			for _, body := range []string{`{"TableName":"` + bad + `"}`, `{"TableName":"T","Key":{"k":{"S":"` + bad + `"}}}`,
				`{"TableName":"T","Key":{"` + bad + `":{"SS":["` + bad + `"]}}}`, `{"ExpressionAttributeNames":{"#a":"` + bad + `"}}`} {
				checkSame(t, []byte(body), ft.new)
			}
		}
	}
}

// rawString is s as JSON string contents with its bytes as they are, bad
// ones included: only what JSON cannot hold raw is escaped.
func rawString(s []byte) string {
	var b []byte
	for _, c := range s {
		switch {
		case c == '"' || c == '\\':
			b = append(b, '\\', c)
		case c < ' ':
			b = fmt.Appendf(b, `\u%04x`, c)
		default:
			b = append(b, c)
		}
	}
	return string(b)
}

// unitsString reads s as big-endian UTF-16 code units, any of them, lone
// surrogates included, and writes each as a \u escape; a last odd byte
// is dropped.
func unitsString(s []byte) (contents string, units []uint16) {
	var b []byte
	for i := 0; i+1 < len(s); i += 2 {
		u := uint16(s[i])<<8 | uint16(s[i+1])
		units = append(units, u)
		b = fmt.Appendf(b, `\u%04x`, u)
	}
	return string(b), units
}

// decodedKey decodes a PutItem body whose key pk holds contents: by the
// scanner, and by encoding/json (a member name in another case makes the
// scanner leave the body to it), which must agree. It returns the key's
// string, or ok false if the body was refused.
func decodedKey(t *testing.T, contents string) (key string, ok bool) {
	t.Helper()
	var fast, slow PutItemInput
	ferr := Decode([]byte(`{"TableName":"T","Item":{"pk":{"S":"`+contents+`"}}}`), &fast)
	serr := Decode([]byte(`{"tablename":"T","item":{"pk":{"S":"`+contents+`"}}}`), &slow)
	if fmt.Sprint(ferr) != fmt.Sprint(serr) || !reflect.DeepEqual(fast, slow) {
		t.Fatalf("%q: the paths differ: %v %v / %v %v", contents, fast, ferr, slow, serr)
	}
	if ferr != nil {
		return "", false
	}
	key = *fast.Item["pk"].S
	if !utf8.ValidString(key) {
		t.Fatalf("%q decoded to invalid UTF-8 %q", contents, key)
	}
	return key, true
}

// decodedForms decodes s spelled both ways, checking each against what it
// spells: raw bytes are accepted exactly when they are valid UTF-8, and
// code units exactly when they are valid UTF-16, each then as that text.
// It returns the decoded keys, "" and false for a refused spelling.
func decodedForms(t *testing.T, s []byte) (keys [2]string, ok [2]bool) {
	t.Helper()
	keys[0], ok[0] = decodedKey(t, rawString(s))
	if ok[0] != utf8.Valid(s) || ok[0] && keys[0] != string(s) {
		t.Fatalf("raw %q: decoded %q, %v", s, keys[0], ok[0])
	}
	contents, units := unitsString(s)
	keys[1], ok[1] = decodedKey(t, contents)
	if want := string(utf16.Decode(units)); ok[1] != validUTF16(units) || ok[1] && keys[1] != want {
		t.Fatalf("units %q: decoded %q, %v", contents, keys[1], ok[1])
	}
	return keys, ok
}

// validUTF16 reports whether every surrogate in units is half of a pair.
func validUTF16(units []uint16) bool {
	for i := 0; i < len(units); i++ {
		r := rune(units[i])
		switch {
		case !utf16.IsSurrogate(r):
		case i+1 < len(units) && utf16.DecodeRune(r, rune(units[i+1])) != utf8.RuneError:
			i++
		default:
			return false
		}
	}
	return true
}

// FuzzDecodeKeepsStringsDistinct: two different strings a client sends,
// both accepted, are never one stored key, as they were when bad bytes
// and lone surrogates both became U+FFFD. Each string is sent as raw
// bytes (so bad bytes reach the decoders) and as UTF-16 code units (so
// lone surrogates do).
func FuzzDecodeKeepsStringsDistinct(f *testing.F) {
	f.Add([]byte("utf\xff"), []byte("utf\xfe"))
	f.Add([]byte("utf\xff"), []byte("utf\xef\xbf\xbd"))
	f.Add([]byte("\x00u\x00t\x00f\xd8\x00"), []byte("\x00u\x00t\x00f\xdc\x00")) // utf\ud800, utf\udc00
	f.Add([]byte("\xd8\x3d\xde\x00"), []byte("\xd8\x3d\xde\x01"))               // 😀, 😁
	f.Add([]byte("\xd8\x00\x00A"), []byte("\xff\xfd\x00A"))
	f.Add([]byte(`utf\ud800`), []byte("utf\xed\xa0\x80"))
	f.Fuzz(func(t *testing.T, a, b []byte) {
		ka, oka := decodedForms(t, a)
		kb, okb := decodedForms(t, b)
		_, ua := unitsString(a)
		_, ub := unitsString(b)
		differ := [2]bool{!bytes.Equal(a, b), !slices.Equal(ua, ub)}
		for i := range ka {
			if differ[i] && oka[i] && okb[i] && (ka[i] == kb[i] || bytes.Equal(storageKey(ka[i]), storageKey(kb[i]))) {
				t.Fatalf("%q and %q are both stored as %q", a, b, ka[i])
			}
		}
	})
}

// storageKey is the key codec's encoding of an S key, which the item's
// storage key is built from.
func storageKey(s string) []byte { return attr.AppendKey(nil, &attr.Value{S: &s}) }
