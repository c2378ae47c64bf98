package expr

import (
	"errors"
	"strings"
	"testing"

	"github.com/sortkeydb/sortkey/internal/apierr"
	"github.com/sortkeydb/sortkey/internal/attr"
)

// Helpers that build trees by hand, as the parser would.

// pth builds a path from names (string) and list indexes (int).
func tPath(elems ...any) Path {
	p := make(Path, len(elems))
	for i, e := range elems {
		switch e := e.(type) {
		case string:
			p[i] = PathElem{Name: e}
		case int:
			p[i] = PathElem{Index: e, IsIndex: true}
		}
	}
	return p
}

func tPO(elems ...any) *PathOperand     { return &PathOperand{Path: tPath(elems...)} }
func tVal(v attr.Value) *ValueOperand   { return &ValueOperand{Name: ":v", Value: v} }
func tStr(s string) *ValueOperand       { return tVal(attr.Str(s)) }
func tNum(n string) *ValueOperand       { return tVal(attr.Num(n)) }
func tCmp(op string, l, r Operand) Cond { return &CompareCond{Op: op, L: l, R: r} }
func tFn(name string, args ...Operand) Cond {
	return &FuncCond{Func: name, Args: args}
}
func tSize(o Operand) Operand { return &CallOperand{Func: "size", Args: []Operand{o}} }

func tList(ss ...string) attr.Value {
	l := make([]attr.Value, len(ss))
	for i, s := range ss {
		l[i] = attr.Str(s)
	}
	return attr.Value{L: l}
}

// productCatalog is the ProductCatalog item 123 of the Developer Guide's
// expression examples ("Using expressions in DynamoDB"), with a few
// attributes added for types the guide's item lacks.
func tProductCatalog() attr.Item {
	return attr.Item{
		"Id":              attr.Num("123"),
		"Title":           attr.Str("Bicycle 123"),
		"Description":     attr.Str("123 description"),
		"BicycleType":     attr.Str("Hybrid"),
		"Brand":           attr.Str("Brand-Company C"),
		"Price":           attr.Num("500"),
		"Color":           attr.Value{SS: []string{"Red", "Black"}},
		"ProductCategory": attr.Str("Bicycle"),
		"InStock":         attr.Bool(true),
		"QuantityOnHand":  attr.Null(),
		"RelatedItems":    attr.Value{L: []attr.Value{attr.Num("341"), attr.Num("472"), attr.Num("649")}},
		"Pictures": attr.Value{M: map[string]attr.Value{
			"FrontView": attr.Str("http://example.com/products/123_front.jpg"),
			"RearView":  attr.Str("http://example.com/products/123_rear.jpg"),
			"SideView":  attr.Str("http://example.com/products/123_left_side.jpg"),
		}},
		"ProductReviews": attr.Value{M: map[string]attr.Value{
			"FiveStar": tList("Excellent! Can't recommend it highly enough! Buy it!", "Do yourself a favor and buy this."),
			"OneStar":  tList("Terrible product! Do not buy this."),
		}},
		"Comment":        attr.Str("This product sells out quickly during the summer"),
		"Safety.Warning": attr.Str("Always wear a helmet"),
		"VideoClip":      attr.Bin([]byte{0, 1, 2, 3, 4}),
		"Sizes":          attr.Value{NS: []string{"26", "27.5", "29"}},
		"Keys":           attr.Value{BS: [][]byte{{1}, {2, 3}}},
		"Unicode":        attr.Str("é𝄞"),
		"Empty":          attr.Value{M: map[string]attr.Value{}},
	}
}

func TestEvalCond(t *testing.T) {
	item := tProductCatalog()
	tests := []struct {
		name string
		c    Cond
		want bool
	}{
		// Comparisons.
		{"= number", tCmp("=", tPO("Price"), tNum("500")), true},
		{"= number different", tCmp("=", tPO("Price"), tNum("501")), false},
		{"= string", tCmp("=", tPO("BicycleType"), tStr("Hybrid")), true},
		{"= different types is false", tCmp("=", tPO("Price"), tStr("500")), false},
		{"<> different types is true", tCmp("<>", tPO("Price"), tStr("500")), true},
		{"<> equal", tCmp("<>", tPO("Price"), tNum("500")), false},
		{"<> missing attribute is true", tCmp("<>", tPO("Nope"), tStr("x")), true},
		{"= missing attribute is false", tCmp("=", tPO("Nope"), tStr("x")), false},
		{"< number", tCmp("<", tPO("Price"), tNum("600")), true},
		{"<= number equal", tCmp("<=", tPO("Price"), tNum("500")), true},
		{"> number", tCmp(">", tPO("Price"), tNum("500")), false},
		{">= number", tCmp(">=", tPO("Price"), tNum("499.99")), true},
		{"> numeric not textual", tCmp(">", tPO("Price"), tNum("60")), true},
		{"< string by bytes", tCmp("<", tPO("BicycleType"), tStr("hybrid")), true},
		{"< binary", tCmp("<", tPO("VideoClip"), tVal(attr.Bin([]byte{0, 2}))), true},
		{"< different types is false", tCmp("<", tPO("Price"), tStr("600")), false},
		{"< on BOOL is false", tCmp("<", tPO("InStock"), tVal(attr.Bool(true))), false},
		{">= on BOOL equal is false", tCmp(">=", tPO("InStock"), tVal(attr.Bool(true))), false},
		{"< missing is false", tCmp("<", tPO("Nope"), tNum("1")), false},
		{"= BOOL", tCmp("=", tPO("InStock"), tVal(attr.Bool(true))), true},
		{"= NULL", tCmp("=", tPO("QuantityOnHand"), tVal(attr.Null())), true},
		{"= set ignores order", tCmp("=", tPO("Color"), tVal(attr.Value{SS: []string{"Black", "Red"}})), true},
		{"= list", tCmp("=", tPO("RelatedItems"), tVal(attr.Value{L: []attr.Value{attr.Num("341"), attr.Num("472"), attr.Num("649")}})), true},
		{"= list order matters", tCmp("=", tPO("RelatedItems"), tVal(attr.Value{L: []attr.Value{attr.Num("472"), attr.Num("341"), attr.Num("649")}})), false},
		{"= path to path", tCmp("=", tPO("Title"), tPO("Title")), true},
		{"nested map path", tCmp("=", tPO("Pictures", "SideView"), tStr("http://example.com/products/123_left_side.jpg")), true},
		{"list index path", tCmp("=", tPO("RelatedItems", 1), tNum("472")), true},
		{"nested list in map", tCmp("=", tPO("ProductReviews", "OneStar", 0), tStr("Terrible product! Do not buy this.")), true},
		{"index past end", tCmp("=", tPO("RelatedItems", 3), tNum("472")), false},
		{"index into map", tCmp("=", tPO("Pictures", 0), tNum("1")), false},
		{"key into list", tCmp("=", tPO("RelatedItems", "x"), tNum("1")), false},
		{"key into scalar", tCmp("=", tPO("Price", "x"), tNum("1")), false},
		{"dotted attribute name is one name", tCmp("=", tPO("Safety.Warning"), tStr("Always wear a helmet")), true},

		// BETWEEN and IN (the guide's "(ProductCategory IN (:cat1, :cat2)) and (Price between :lo and :hi)").
		{"between", &BetweenCond{X: tPO("Price"), Lo: tNum("500"), Hi: tNum("600")}, true},
		{"between below", &BetweenCond{X: tPO("Price"), Lo: tNum("501"), Hi: tNum("600")}, false},
		{"between above", &BetweenCond{X: tPO("Price"), Lo: tNum("100"), Hi: tNum("499")}, false},
		{"between inverted", &BetweenCond{X: tPO("Price"), Lo: tNum("600"), Hi: tNum("100")}, false},
		{"between strings", &BetweenCond{X: tPO("BicycleType"), Lo: tStr("H"), Hi: tStr("I")}, true},
		{"between mixed types", &BetweenCond{X: tPO("Price"), Lo: tStr("1"), Hi: tNum("600")}, false},
		{"between missing", &BetweenCond{X: tPO("Nope"), Lo: tNum("1"), Hi: tNum("600")}, false},
		{"in", &InCond{X: tPO("ProductCategory"), List: []Operand{tStr("Sporting Goods"), tStr("Bicycle")}}, true},
		{"in none", &InCond{X: tPO("ProductCategory"), List: []Operand{tStr("Sporting Goods"), tStr("Gardening")}}, false},
		{"in missing", &InCond{X: tPO("Nope"), List: []Operand{tStr("Bicycle")}}, false},
		{"in and between", &AndCond{
			L: &InCond{X: tPO("ProductCategory"), List: []Operand{tStr("Sporting Goods"), tStr("Gardening")}},
			R: &BetweenCond{X: tPO("Price"), Lo: tNum("500"), Hi: tNum("600")},
		}, false},

		// Logic.
		{"and", &AndCond{L: tCmp("=", tPO("Id"), tNum("123")), R: tCmp("=", tPO("Price"), tNum("500"))}, true},
		{"and false", &AndCond{L: tCmp("=", tPO("Id"), tNum("123")), R: tCmp("=", tPO("Price"), tNum("1"))}, false},
		{"or", &OrCond{L: tCmp("=", tPO("Id"), tNum("1")), R: tCmp("=", tPO("Price"), tNum("500"))}, true},
		{"or false", &OrCond{L: tCmp("=", tPO("Id"), tNum("1")), R: tCmp("=", tPO("Price"), tNum("1"))}, false},
		{"not", &NotCond{X: tCmp("=", tPO("Id"), tNum("1"))}, true},
		{"not true", &NotCond{X: tCmp("=", tPO("Id"), tNum("123"))}, false},

		// Functions, from the guide's examples.
		{"attribute_exists nested", tFn("attribute_exists", tPO("Pictures", "SideView")), true},
		{"attribute_exists missing", tFn("attribute_exists", tPO("Pictures", "TopView")), false},
		{"attribute_exists list element", tFn("attribute_exists", tPO("RelatedItems", 2)), true},
		{"attribute_exists NULL value", tFn("attribute_exists", tPO("QuantityOnHand")), true},
		{"attribute_not_exists", tFn("attribute_not_exists", tPO("Manufacturer")), true},
		{"attribute_not_exists present", tFn("attribute_not_exists", tPO("Price")), false},
		{"attribute_type L", tFn("attribute_type", tPO("ProductReviews", "FiveStar"), tStr("L")), true},
		{"attribute_type wrong", tFn("attribute_type", tPO("ProductReviews", "FiveStar"), tStr("M")), false},
		{"attribute_type SS", tFn("attribute_type", tPO("Color"), tStr("SS")), true},
		{"attribute_type NULL", tFn("attribute_type", tPO("QuantityOnHand"), tStr("NULL")), true},
		{"attribute_type BOOL", tFn("attribute_type", tPO("InStock"), tStr("BOOL")), true},
		{"attribute_type N", tFn("attribute_type", tPO("Price"), tStr("N")), true},
		{"attribute_type missing", tFn("attribute_type", tPO("Nope"), tStr("S")), false},
		{"begins_with", tFn("begins_with", tPO("Pictures", "FrontView"), tStr("http://")), true},
		{"begins_with no", tFn("begins_with", tPO("Pictures", "FrontView"), tStr("https://")), false},
		{"begins_with binary", tFn("begins_with", tPO("VideoClip"), tVal(attr.Bin([]byte{0, 1}))), true},
		{"begins_with number never", tFn("begins_with", tPO("Price"), tNum("5")), false},
		{"begins_with string vs binary", tFn("begins_with", tPO("Title"), tVal(attr.Bin([]byte("Bi")))), false},
		{"contains substring", tFn("contains", tPO("Brand"), tStr("Company")), true},
		{"contains substring no", tFn("contains", tPO("Brand"), tStr("company")), false},
		{"contains set member", tFn("contains", tPO("Color"), tStr("Red")), true},
		{"contains set not member", tFn("contains", tPO("Color"), tStr("Re")), false},
		{"contains number set", tFn("contains", tPO("Sizes"), tNum("27.5")), true},
		{"contains number set wrong type", tFn("contains", tPO("Sizes"), tStr("27.5")), false},
		{"contains binary set", tFn("contains", tPO("Keys"), tVal(attr.Bin([]byte{2, 3}))), true},
		{"contains binary subsequence", tFn("contains", tPO("VideoClip"), tVal(attr.Bin([]byte{2, 3}))), true},
		{"contains list element", tFn("contains", tPO("RelatedItems"), tNum("472")), true},
		{"contains list element of other type", tFn("contains", tPO("RelatedItems"), tStr("472")), false},
		{"contains on number", tFn("contains", tPO("Price"), tNum("5")), false},
		{"contains missing", tFn("contains", tPO("Nope"), tStr("x")), false},
		{"size string", tCmp("<=", tSize(tPO("Brand")), tNum("20")), true},
		{"size string exact", tCmp("=", tSize(tPO("Brand")), tNum("15")), true},
		{"size string counts UTF-16 units", tCmp("=", tSize(tPO("Unicode")), tNum("3")), true},
		{"size binary", tCmp("=", tSize(tPO("VideoClip")), tNum("5")), true},
		{"size binary limit", tCmp(">", tSize(tPO("VideoClip")), tNum("64000")), false},
		{"size set", tCmp(">", tSize(tPO("Color")), tNum("1")), true},
		{"size list", tCmp(">", tSize(tPO("ProductReviews", "OneStar")), tNum("3")), false},
		{"size list exact", tCmp("=", tSize(tPO("RelatedItems")), tNum("3")), true},
		{"size map", tCmp("=", tSize(tPO("Pictures")), tNum("3")), true},
		{"size empty map", tCmp("=", tSize(tPO("Empty")), tNum("0")), true},
		{"size number has none", tCmp(">=", tSize(tPO("Price")), tNum("0")), false},
		{"size missing", tCmp(">=", tSize(tPO("Nope")), tNum("0")), false},
		{"size <> missing", tCmp("<>", tSize(tPO("Nope")), tNum("0")), true},
		{"size in between", &BetweenCond{X: tSize(tPO("Color")), Lo: tNum("1"), Hi: tNum("2")}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := EvalCond(tt.c, item)
			if err != nil {
				t.Fatalf("EvalCond: %v", err)
			}
			if got != tt.want {
				t.Errorf("EvalCond = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestEvalCondNoItem(t *testing.T) {
	tests := []struct {
		name string
		c    Cond
		want bool
	}{
		{"attribute_not_exists", tFn("attribute_not_exists", tPO("Id")), true},
		{"attribute_exists", tFn("attribute_exists", tPO("Id")), false},
		{"=", tCmp("=", tPO("Id"), tNum("1")), false},
		{"<", tCmp("<", tPO("Id"), tNum("1")), false},
		{"<>", tCmp("<>", tPO("Id"), tNum("1")), true},
		{"not exists", &NotCond{X: tFn("attribute_exists", tPO("Id"))}, true},
		{"begins_with", tFn("begins_with", tPO("Id"), tStr("1")), false},
		{"contains", tFn("contains", tPO("Id"), tStr("1")), false},
		{"in", &InCond{X: tPO("Id"), List: []Operand{tNum("1")}}, false},
		{"values only", tCmp("=", tNum("1"), tNum("1.0")), true},
	}
	for _, tt := range tests {
		for _, item := range []attr.Item{nil, {}} {
			got, err := EvalCond(tt.c, item)
			if err != nil {
				t.Fatalf("%s: %v", tt.name, err)
			}
			if got != tt.want {
				t.Errorf("%s on %#v = %v, want %v", tt.name, item, got, tt.want)
			}
		}
	}
}

func TestEvalCondErrors(t *testing.T) {
	item := tProductCatalog()
	tests := []struct {
		name string
		c    Cond
		msg  string
	}{
		{"attribute_type bad type", tFn("attribute_type", tPO("Price"), tStr("STRING")),
			"Invalid ConditionExpression: Invalid attribute type name found; type: STRING, valid types: { B,NULL,SS,BOOL,L,BS,N,NS,S,M }"},
		{"attribute_type bad type, missing attribute", tFn("attribute_type", tPO("Nope"), tStr("s")),
			"Invalid ConditionExpression: Invalid attribute type name found; type: s, valid types: { B,NULL,SS,BOOL,L,BS,N,NS,S,M }"},
		{"attribute_type non-string type", tFn("attribute_type", tPO("Price"), tNum("1")),
			"Invalid ConditionExpression: Incorrect operand type for operator or function; operator or function: attribute_type, operand type: N"},
		{"error under NOT", &NotCond{X: tFn("attribute_type", tPO("Price"), tStr("X"))},
			"Invalid ConditionExpression: Invalid attribute type name found; type: X, valid types: { B,NULL,SS,BOOL,L,BS,N,NS,S,M }"},
		{"unknown function", tFn("nope", tPO("Price"), tStr("X")),
			"Invalid ConditionExpression: Invalid function name; function: nope"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := EvalCond(tt.c, item)
			tAssertValidation(t, err, tt.msg)
		})
	}
}

func TestValidateCond(t *testing.T) {
	bad := &AndCond{
		L: tCmp("=", tPO("a"), tNum("1")),
		R: &OrCond{L: tCmp("=", tPO("b"), tNum("1")), R: &NotCond{X: tFn("attribute_type", tPO("c"), tStr("Q"))}},
	}
	err := ValidateCond(bad, Filter)
	tAssertValidation(t, err, "Invalid FilterExpression: Invalid attribute type name found; type: Q, valid types: { B,NULL,SS,BOOL,L,BS,N,NS,S,M }")
	err = ValidateCond(bad, Condition)
	tAssertValidation(t, err, "Invalid ConditionExpression: Invalid attribute type name found; type: Q, valid types: { B,NULL,SS,BOOL,L,BS,N,NS,S,M }")

	good := &AndCond{L: tFn("attribute_type", tPO("c"), tStr("NS")), R: tCmp("=", tPO("a"), tNum("1"))}
	if err := ValidateCond(good, Filter); err != nil {
		t.Errorf("ValidateCond(good) = %v", err)
	}
}

func TestUTF16Len(t *testing.T) {
	for s, want := range map[string]int{"": 0, "abc": 3, "é": 1, "€": 1, "𝄞": 2, "é𝄞": 3, "a\xffb": 3} {
		if got := utf16Len(s); got != want {
			t.Errorf("utf16Len(%q) = %d, want %d", s, got, want)
		}
	}
}

// assertValidation checks that err is a ValidationException with message msg.
func tAssertValidation(t *testing.T, err error, msg string) {
	t.Helper()
	var e *apierr.Error
	if !errors.As(err, &e) {
		t.Fatalf("error = %v, want *apierr.Error", err)
	}
	if e.Code != apierr.Validation {
		t.Errorf("code = %s, want ValidationException", e.Code)
	}
	if e.Message != msg {
		t.Errorf("message =\n  %q\nwant\n  %q", e.Message, msg)
	}
	if strings.TrimSpace(e.Message) == "" {
		t.Error("empty message")
	}
}
