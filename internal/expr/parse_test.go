package expr

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/sortkeydb/sortkey/internal/apierr"
	"github.com/sortkeydb/sortkey/internal/attr"
)

// The request maps every test parses against.
var (
	parseNames = map[string]string{"#n": "name", "#ab": "a.b", "#x": "x"}
	sVal       = attr.Str("s")
	nVal       = attr.Num("1")
	parseVals  = attr.Item{":v": sVal, ":n": nVal}
)

func parseAttrs() *Attrs { return NewAttrs(parseNames, parseVals) }

// Tree builders; positions are zeroed before comparing.
func mkPath(names ...any) Path {
	var p Path
	for _, n := range names {
		if i, ok := n.(int); ok {
			p = append(p, PathElem{Index: i, IsIndex: true})
			continue
		}
		p = append(p, PathElem{Name: n.(string)})
	}
	return p
}
func mkPO(names ...any) *PathOperand           { return &PathOperand{Path: mkPath(names...)} }
func mkVO(name string) *ValueOperand           { return &ValueOperand{Name: name, Value: parseVals[name]} }
func mkCmp(op string, l, r Operand) Cond       { return &CompareCond{Op: op, L: l, R: r} }
func mkCall(f string, args ...Operand) Operand { return &CallOperand{Func: f, Args: args} }
func mkFn(f string, args ...Operand) Cond      { return &FuncCond{Func: f, Args: args} }

func TestParseCondition(t *testing.T) {
	tests := []struct {
		in   string
		want Cond
	}{
		{"a = :v", mkCmp("=", mkPO("a"), mkVO(":v"))},
		{"a = :v OR b < :n AND NOT c <> :v", &OrCond{
			L: mkCmp("=", mkPO("a"), mkVO(":v")),
			R: &AndCond{L: mkCmp("<", mkPO("b"), mkVO(":n")), R: &NotCond{X: mkCmp("<>", mkPO("c"), mkVO(":v"))}}}},
		{"(a = :v OR b = :v) AND c = :v", &AndCond{
			L: &OrCond{L: mkCmp("=", mkPO("a"), mkVO(":v")), R: mkCmp("=", mkPO("b"), mkVO(":v"))},
			R: mkCmp("=", mkPO("c"), mkVO(":v"))}},
		{"a OR b", nil},
		{"a between :n and :n or not b in (:v, :n)", &OrCond{
			L: &BetweenCond{X: mkPO("a"), Lo: mkVO(":n"), Hi: mkVO(":n")},
			R: &NotCond{X: &InCond{X: mkPO("b"), List: []Operand{mkVO(":v"), mkVO(":n")}}}}},
		{"attribute_exists(#ab) AND begins_with(a.b[2].c, :v)", &AndCond{
			L: mkFn("attribute_exists", mkPO("a.b")),
			R: mkFn("begins_with", mkPO("a", "b", 2, "c"), mkVO(":v"))}},
		{"size(a)>:n", mkCmp(">", mkCall("size", mkPO("a")), mkVO(":n"))},
		{"#n.#x[10] >= :n", mkCmp(">=", mkPO("name", "x", 10), mkVO(":n"))},
		{"a<=b", mkCmp("<=", mkPO("a"), mkPO("b"))},
		{"a_1 = :v", mkCmp("=", mkPO("a_1"), mkVO(":v"))},
		{"contains(a, :v) AND attribute_type(a, :v)", &AndCond{
			L: mkFn("contains", mkPO("a"), mkVO(":v")), R: mkFn("attribute_type", mkPO("a"), mkVO(":v"))}},
	}
	for _, tt := range tests {
		got, err := parseAttrs().ParseCondition(Condition, tt.in)
		if tt.want == nil {
			if err == nil {
				t.Errorf("%q: parsed, want an error", tt.in)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q: %v", tt.in, err)
			continue
		}
		zeroCond(got)
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%q:\n got %s\nwant %s", tt.in, FormatCond(got).Text, FormatCond(tt.want).Text)
		}
	}
}

func TestParsePositions(t *testing.T) {
	got, err := parseAttrs().ParseCondition(Condition, "a = :v AND size(b) < :n")
	if err != nil {
		t.Fatal(err)
	}
	and := got.(*AndCond)
	l, r := and.L.(*CompareCond), and.R.(*CompareCond)
	pos := []int{l.L.(*PathOperand).Pos, l.R.(*ValueOperand).Pos, r.L.(*CallOperand).Pos, r.R.(*ValueOperand).Pos}
	if want := []int{0, 4, 11, 21}; !reflect.DeepEqual(pos, want) {
		t.Errorf("positions %v, want %v", pos, want)
	}
}

type errCase struct {
	kind Kind
	in   string
	want string
}

func TestParseErrors(t *testing.T) {
	in101 := "a IN (" + strings.Repeat(":v, ", 100) + ":v)"
	long := "a" + strings.Repeat(".b", 32) + " = :v"
	tests := []errCase{
		{Condition, "", "Invalid ConditionExpression: The expression can not be empty;"},
		{Filter, "  \n", "Invalid FilterExpression: The expression can not be empty;"},
		{KeyCondition, "", "Invalid KeyConditionExpression: The expression can not be empty;"},
		{Condition, "a =", `Invalid ConditionExpression: Syntax error; token: "<EOF>", near: "="`},
		{Condition, "a = :v b", `Invalid ConditionExpression: Syntax error; token: "b", near: ":v b"`},
		{Filter, "a ! b", `Invalid FilterExpression: Syntax error; token: "!", near: "a ! b"`},
		{Condition, "a = : v", `Invalid ConditionExpression: Syntax error; token: ":", near: "= : v"`},
		{Condition, "a[x] = :v", `Invalid ConditionExpression: Syntax error; token: "x", near: "[x]"`},
		{Condition, "a[-1] = :v", `Invalid ConditionExpression: Syntax error; token: "-", near: "[-1"`},
		{Condition, "a[99999999999] = :v", "Invalid ConditionExpression: List index is not within the allowable range; index: [99999999999]"}, // facts 28.3
		{Condition, "a IN ()", `Invalid ConditionExpression: Syntax error; token: ")", near: "()"`},
		{Condition, "and = :v", `Invalid ConditionExpression: Syntax error; token: "and", near: "and ="`},
		{Condition, "name = :v", "Invalid ConditionExpression: Attribute name is a reserved keyword; reserved keyword: name"},
		{Condition, "a.Size = :v", "Invalid ConditionExpression: Attribute name is a reserved keyword; reserved keyword: Size"},
		{Condition, "#zz = :v", "Invalid ConditionExpression: An expression attribute name used in the document path is not defined; attribute name: #zz"},
		{Condition, "a = :zz", "Invalid ConditionExpression: An expression attribute value used in expression is not defined; attribute value: :zz"},
		{Condition, "a = :zz AND b", `Invalid ConditionExpression: Syntax error; token: "<EOF>", near: "b"`},
		{Condition, "foo(a)", "Invalid ConditionExpression: Invalid function name; function: foo"},
		{Condition, "Size(a) = :n", "Invalid ConditionExpression: Invalid function name; function: Size"},
		{Condition, "begins_with(a)", "Invalid ConditionExpression: Incorrect number of operands for operator or function; operator or function: begins_with, number of operands: 1"},
		{Condition, "size(a)", "Invalid ConditionExpression: The function is not allowed to be used this way in an expression; function: size"},
		{Condition, "attribute_exists(a) = :v", "Invalid ConditionExpression: The function is not allowed to be used this way in an expression; function: attribute_exists"},
		{Condition, "a = if_not_exists(a, :v)", "Invalid ConditionExpression: The function is not allowed to be used this way in an expression; function: if_not_exists"},
		{Condition, "attribute_exists(:v)", "Invalid ConditionExpression: Operator or function requires a document path; operator or function: attribute_exists"},
		{Filter, in101, "Invalid FilterExpression: The IN operator is provided with too many operands; number of operands: 101"},
		{Condition, long, "Invalid ConditionExpression: The document path has too many nesting levels; nesting levels: 33"},
		{Condition, strings.Repeat("a", 4097), "Invalid ConditionExpression: Expression size has exceeded the maximum allowed size; expression size: 4097"},
		{KeyCondition, "a = :v AND b IN (:v)", "Invalid operator used in KeyConditionExpression: IN"},
		{KeyCondition, "a = :v OR b = :v", "Invalid operator used in KeyConditionExpression: OR"},
		{KeyCondition, "a = :v AND attribute_exists(b)", "Invalid operator used in KeyConditionExpression: attribute_exists"},
		{UpdateKind, "INVALID SYNTAX HERE", `Invalid UpdateExpression: Syntax error; token: "INVALID", near: "INVALID SYNTAX"`},
		{UpdateKind, "ADD hits : incr", `Invalid UpdateExpression: Syntax error; token: ":", near: "hits : incr"`},
		{UpdateKind, "SET a = :v REMOVE", `Invalid UpdateExpression: Syntax error; token: "<EOF>", near: "REMOVE"`},
		{UpdateKind, "SET a = :v + :v + :v", `Invalid UpdateExpression: Syntax error; token: "+", near: ":v + :v"`},
		{UpdateKind, "SET a = (:v + :v) - :v", `Invalid UpdateExpression: Syntax error; token: "-", near: ") - :v"`},
		{UpdateKind, "SET a = :v + (:v - :v)", `Invalid UpdateExpression: Syntax error; token: "-", near: ":v - :v"`},
		{UpdateKind, "SET a = (:v", `Invalid UpdateExpression: Syntax error; token: "<EOF>", near: ":v"`},
		{UpdateKind, "SET a = ()", `Invalid UpdateExpression: Syntax error; token: ")", near: "()"`},
		{UpdateKind, "ADD a b", `Invalid UpdateExpression: Syntax error; token: "b", near: "a b"`},
		{UpdateKind, "SET name = :v", "Invalid UpdateExpression: Attribute name is a reserved keyword; reserved keyword: name"},
		{UpdateKind, "SET a = :v set b = :v", `Invalid UpdateExpression: The "SET" section can only be used once in an update expression;`},
		{UpdateKind, "REMOVE a REMOVE b", `Invalid UpdateExpression: The "REMOVE" section can only be used once in an update expression;`},
		{UpdateKind, "SET a = :v, a.b = :v", "Invalid UpdateExpression: Two document paths overlap with each other; must remove or rewrite one of these paths; path one: [a], path two: [a, b]"},
		{UpdateKind, "SET a.b = :v REMOVE a[1]", "Invalid UpdateExpression: Two document paths conflict with each other; must remove or rewrite one of these paths; path one: [a, b], path two: [a, [1]]"},
		{UpdateKind, "SET a = size(b)", "Invalid UpdateExpression: The function is not allowed in an update expression; function: size"},
		{UpdateKind, "SET a = attribute_exists(b)", "Invalid UpdateExpression: The function is not allowed in an update expression; function: attribute_exists"},
		{UpdateKind, "SET a = if_not_exists(:v, :v)", "Invalid UpdateExpression: Operator or function requires a document path; operator or function: if_not_exists"},
		{UpdateKind, "SET a = list_append(:v)", "Invalid UpdateExpression: Incorrect number of operands for operator or function; operator or function: list_append, number of operands: 1"},
		{UpdateKind, "SET a = :zz", "Invalid UpdateExpression: An expression attribute value used in expression is not defined; attribute value: :zz"},
		{UpdateKind, "SET #zz = :v", "Invalid UpdateExpression: An expression attribute name used in the document path is not defined; attribute name: #zz"},
		{UpdateKind, "", "Invalid UpdateExpression: The expression can not be empty;"},
		{ProjectionKind, "a, a.b", "Invalid ProjectionExpression: Two document paths overlap with each other; must remove or rewrite one of these paths; path one: [a], path two: [a, b]"},
		{ProjectionKind, "a, b, a", "Invalid ProjectionExpression: Two document paths overlap with each other; must remove or rewrite one of these paths; path one: [a], path two: [a]"},
		{ProjectionKind, "size(a)", `Invalid ProjectionExpression: Syntax error; token: "(", near: "size(a"`},
		{ProjectionKind, "name", "Invalid ProjectionExpression: Attribute name is a reserved keyword; reserved keyword: name"},
		{ProjectionKind, "a,", `Invalid ProjectionExpression: Syntax error; token: "<EOF>", near: ","`},
	}
	for _, tt := range tests {
		checkErr(t, tt, parseKind(parseAttrs(), tt.kind, tt.in))
	}
}

// nestedOr is a<b followed by levels times "or (a<b" and levels ")":
// 2*levels+1 operators, parentheses nested levels deep.
func nestedOr(levels int) string {
	return "a<b " + strings.Repeat("or (a<b ", levels) + strings.Repeat(")", levels)
}

// TestParseNovemberFacts checks the syntax and operand rules of facts 23
// and 28 that are decided when the expression is parsed.
func TestParseNovemberFacts(t *testing.T) {
	tests := []errCase{
		{Condition, "attribute_type(a, b)", "Invalid ConditionExpression: Operator or function requires a value placeholder; operator or function: attribute_type"}, // facts 23.2
		{Filter, "attribute_type(s, i)", "Invalid FilterExpression: Operator or function requires a value placeholder; operator or function: attribute_type"},       // facts 23.3
		{Condition, "contains(a, a)", "Invalid ConditionExpression: The first operand must be distinct from the second operand; operator or function: contains"},    // facts 23.4
		{Condition, "contains(#x, x)", "Invalid ConditionExpression: The first operand must be distinct from the second operand; operator or function: contains"},   // facts 23.4
		{Condition, "((a <> :v))", "Invalid ConditionExpression: The expression has redundant parentheses;"},                                                        // facts 23.5
		{Filter, "a = :v AND ((b = :v))", "Invalid FilterExpression: The expression has redundant parentheses;"},                                                    // facts 23.5
		{Condition, nestedOr(150), "Invalid ConditionExpression: The expression contains too many operators; operator count: 301"},                                  // facts 23.6
		{Condition, nestedOr(454), "Invalid ConditionExpression: The expression contains too many operators; operator count: 301"},                                  // facts 23.6
		{UpdateKind, "SET _123 = :v", `Invalid UpdateExpression: Syntax error; token: "_", near: "SET _123"`},                                                       // facts 28.1
		{UpdateKind, "SET 123a = :v", `Invalid UpdateExpression: Syntax error; token: "123", near: "SET 123a"`},                                                     // facts 28.1
		{UpdateKind, "SET hi-there = :v", `Invalid UpdateExpression: Syntax error; token: "-", near: "hi-there"`},                                                   // facts 28.1
		{UpdateKind, "SET :v = :v", `Invalid UpdateExpression: Syntax error; token: ":v", near: "SET :v ="`},                                                        // facts 28.1
		{UpdateKind, "SET a = _f(b)", `Invalid UpdateExpression: Syntax error; token: "_", near: "= _f"`},                                                           // facts 28.2
		{ProjectionKind, "a[99999999999999]", "Invalid ProjectionExpression: List index is not within the allowable range; index: [99999999999999]"},                // facts 28.3
	}
	for _, tt := range tests {
		checkErr(t, tt, parseKind(parseAttrs(), tt.kind, tt.in))
	}
	for _, ok := range []string{"attribute_type(:v, :v)", "(a <> :v)", "((a <> :v) and a <> :v)", nestedOr(149), strings.Repeat("NOT ", 40) + "a = :v", "contains(a, #x)"} {
		if _, err := parseAttrs().ParseCondition(Condition, ok); err != nil {
			t.Errorf("%q: %v", ok, err) // facts 23.1, 23.5, 23.6
		}
	}
}

// parseKind parses s as an expression of kind k, returning only the error.
func parseKind(a *Attrs, k Kind, s string) error {
	var err error
	switch k {
	case UpdateKind:
		_, err = a.ParseUpdate(s)
	case ProjectionKind:
		_, err = a.ParseProjection(s)
	default:
		_, err = a.ParseCondition(k, s)
	}
	return err
}

func checkErr(t *testing.T, tt errCase, err error) {
	t.Helper()
	var ae *apierr.Error
	switch {
	case err == nil:
		t.Errorf("%q: no error, want %q", tt.in, tt.want)
	case !errors.As(err, &ae) || ae.Code != apierr.Validation:
		t.Errorf("%q: error %v is not a ValidationException", tt.in, err)
	case ae.Message != tt.want:
		t.Errorf("%q:\n got %s\nwant %s", tt.in, ae.Message, tt.want)
	}
}

func TestParseUpdate(t *testing.T) {
	got, err := parseAttrs().ParseUpdate("SET a = :v, b = a + :n, c=c-:n REMOVE d[0], e.f ADD g :n DELETE h :v")
	if err != nil {
		t.Fatal(err)
	}
	want := &Update{
		Set: []SetAction{
			{Path: mkPath("a"), Value: mkVO(":v")},
			{Path: mkPath("b"), Value: &ArithOperand{Op: '+', L: mkPO("a"), R: mkVO(":n")}},
			{Path: mkPath("c"), Value: &ArithOperand{Op: '-', L: mkPO("c"), R: mkVO(":n")}},
		},
		Remove: []Path{mkPath("d", 0), mkPath("e", "f")},
		Add:    []AddAction{{Path: mkPath("g"), Value: mkVO(":n")}},
		Delete: []DeleteAction{{Path: mkPath("h"), Value: mkVO(":v")}},
	}
	zeroUpdate(got)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got  %s\nwant %s", FormatUpdate(got).Text, FormatUpdate(want).Text)
	}
}

// TestParseUpdateParentheses checks that parentheses around a SET value
// or its operands leave the tree they would have without them.
func TestParseUpdateParentheses(t *testing.T) {
	for _, tc := range []struct{ with, without string }{
		{"SET a = (a - :n)", "SET a = a - :n"},
		{"SET a = ((a) + (:n))", "SET a = a + :n"},
		{"SET a = (:v)", "SET a = :v"},
		{"SET a = (((a))) + :n", "SET a = a + :n"},
		{"SET #n = (if_not_exists(#n, :n) + :n)", "SET #n = if_not_exists(#n, :n) + :n"},
	} {
		got, err := parseAttrs().ParseUpdate(tc.with)
		if err != nil {
			t.Fatalf("%s: %v", tc.with, err)
		}
		want, _ := parseAttrs().ParseUpdate(tc.without)
		zeroUpdate(got)
		zeroUpdate(want)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s parsed as %s", tc.with, FormatUpdate(got).Text)
		}
	}
}

func TestParseUpdateFunctions(t *testing.T) {
	got, err := parseAttrs().ParseUpdate("delete s :v set #n = list_append(if_not_exists(#n, :v), :v)")
	if err != nil {
		t.Fatal(err)
	}
	want := &Update{
		Set:    []SetAction{{Path: mkPath("name"), Value: mkCall("list_append", mkCall("if_not_exists", mkPO("name"), mkVO(":v")), mkVO(":v"))}},
		Delete: []DeleteAction{{Path: mkPath("s"), Value: mkVO(":v")}},
	}
	zeroUpdate(got)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got  %s\nwant %s", FormatUpdate(got).Text, FormatUpdate(want).Text)
	}
}

func TestParseProjection(t *testing.T) {
	got, err := parseAttrs().ParseProjection("a, b.c[1] , #ab,#n[0]")
	if err != nil {
		t.Fatal(err)
	}
	want := Projection{mkPath("a"), mkPath("b", "c", 1), mkPath("a.b"), mkPath("name", 0)}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}

func TestAttrs(t *testing.T) {
	tests := []struct {
		names  map[string]string
		values attr.Item
		want   string
	}{
		{map[string]string{}, nil, "ExpressionAttributeNames must not be empty"},
		{nil, attr.Item{}, "ExpressionAttributeValues must not be empty"},
		{map[string]string{"#a-b": "x"}, nil, `ExpressionAttributeNames contains invalid key: Syntax error; key: "#a-b"`},
		{nil, attr.Item{"v": sVal}, `ExpressionAttributeValues contains invalid key: Syntax error; key: "v"`},
	}
	for _, tt := range tests {
		a := NewAttrs(tt.names, tt.values)
		checkErr(t, errCase{in: tt.want, want: tt.want}, parseKind(a, Condition, "a = b"))
		checkErr(t, errCase{in: tt.want, want: tt.want}, a.CheckUnused())
	}
}

func TestCheckUnused(t *testing.T) {
	a := NewAttrs(map[string]string{"#a": "a", "#b": "b", "#c": "c"}, attr.Item{":x": sVal, ":y": sVal})
	if _, err := a.ParseCondition(Condition, "#a = :x"); err != nil {
		t.Fatal(err)
	}
	const wantNames = "Value provided in ExpressionAttributeNames unused in expressions: keys: {#b, #c}"
	checkErr(t, errCase{in: "names", want: wantNames}, a.CheckUnused())
	if _, err := a.ParseProjection("#b, #c"); err != nil {
		t.Fatal(err)
	}
	const wantValues = "Value provided in ExpressionAttributeValues unused in expressions: keys: {:y}"
	checkErr(t, errCase{in: "values", want: wantValues}, a.CheckUnused())
	if _, err := a.ParseUpdate("SET a = :y"); err != nil {
		t.Fatal(err)
	}
	if err := a.CheckUnused(); err != nil {
		t.Error(err)
	}
}

// TestCheckUnusedMany uses more placeholders than Attrs keeps in a list,
// some of them twice, and leaves one out.
func TestCheckUnusedMany(t *testing.T) {
	vals := attr.Item{}
	var used []string
	for i := range 20 {
		ph := ":v" + string(rune('a'+i))
		vals[ph] = sVal
		if i != 7 {
			used = append(used, "a = "+ph, "b = "+ph)
		}
	}
	a := NewAttrs(nil, vals)
	if _, err := a.ParseCondition(Condition, strings.Join(used, " OR ")); err != nil {
		t.Fatal(err)
	}
	const want = "Value provided in ExpressionAttributeValues unused in expressions: keys: {:vh}"
	checkErr(t, errCase{in: "values", want: want}, a.CheckUnused())
}

func TestScan(t *testing.T) {
	toks := scan("a.b[12]<>:v_1 AND #x>=é")
	var got []string
	for _, tk := range toks {
		got = append(got, tk.text)
	}
	want := []string{"a", ".", "b", "[", "12", "]", "<>", ":v_1", "AND", "#x", ">=", "é", ""}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
	if toks[8].kind != tokAnd || toks[8].pos != 14 || toks[11].kind != tokIllegal {
		t.Errorf("tokens %+v", toks)
	}
}

func TestReserved(t *testing.T) {
	if len(reserved) != 573 {
		t.Errorf("%d reserved words, want 573", len(reserved))
	}
	for _, w := range []string{"name", "NAME", "Status", "localtimestamp", "ttl"} {
		if !isReserved(w) {
			t.Errorf("%q not reserved", w)
		}
	}
	for _, w := range []string{"remove", "pk", "sk", "names2"} {
		if isReserved(w) {
			t.Errorf("%q reserved", w)
		}
	}
}

func TestPrint(t *testing.T) {
	tests := []struct{ in, want string }{
		{"a = :v OR b < :n AND NOT c <> :v", "a = :v OR b < :n AND NOT c <> :v"},
		{"(a = :v OR b = :v) AND (c = :v)", "(a = :v OR b = :v) AND c = :v"},
		{"a = :v OR (b = :v OR c = :v)", "a = :v OR (b = :v OR c = :v)"},
		{"NOT (a = :v AND b = :v)", "NOT (a = :v AND b = :v)"},
		{"#n.#ab[1] IN (:v,:n)", "#n0.#n1[1] IN (:v, :n)"},
		{"size(a) BETWEEN :n AND :n", "size(a) BETWEEN :n AND :n"},
	}
	for _, tt := range tests {
		c, err := parseAttrs().ParseCondition(Condition, tt.in)
		if err != nil {
			t.Fatal(err)
		}
		if got := FormatCond(c).Text; got != tt.want {
			t.Errorf("%q printed %q, want %q", tt.in, got, tt.want)
		}
	}
	if got := mkPath("a", 1, "b.c").String(); got != "a[1].b.c" {
		t.Errorf("Path.String = %q", got)
	}
}

func BenchmarkParseCondition(b *testing.B) {
	const s = "attribute_not_exists(pk) OR (#st = :v AND version < :n AND begins_with(sk, :v))"
	names := map[string]string{"#st": "status"}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := NewAttrs(names, parseVals).ParseCondition(Condition, s); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkParseUpdate(b *testing.B) {
	const s = "SET #st = :v, updatedAt = :v, version = if_not_exists(version, :n) + :n, tags = list_append(tags, :v) REMOVE ttl_at ADD hits :n"
	names := map[string]string{"#st": "status"}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := NewAttrs(names, parseVals).ParseUpdate(s); err != nil {
			b.Fatal(err)
		}
	}
}
