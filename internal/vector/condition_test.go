package vector

import (
	"errors"
	"strings"
	"testing"

	"github.com/sortkeydb/sortkey/internal/apierr"
	"github.com/sortkeydb/sortkey/internal/attr"
	"github.com/sortkeydb/sortkey/internal/expr"
)

// A products index: split by category, filterable by price, brand and sku.
var (
	productSchema = Schema{
		Hash:    "category",
		Filters: []string{"price", "brand", "sku"},
		Types:   map[string]string{"category": "S", "price": "N", "brand": "S", "sku": "B"},
	}
	flatSchema = Schema{Filters: []string{"brand"}, Types: map[string]string{"brand": "S"}}

	// The ExpressionAttributeNames and Values a test case picks from.
	catalogNames = map[string]string{"#c": "category", "#b": "brand", "#p": "price", "#x": "unused"}
	catalogVals  = attr.Item{
		":c": attr.Str("books"), ":d": attr.Str("games"), ":b": attr.Str("acme"),
		":p": attr.Num("10"), ":q": attr.Num("12.5"), ":k": attr.Bin([]byte{1, 2}),
		":l": {L: []attr.Value{attr.Str("books")}},
	}
)

// pick builds a request map from the space-separated keys given, or nil
// when there are none (the member is absent from the request).
func pick[V any](catalog map[string]V, keys string) map[string]V {
	if keys == "" {
		return nil
	}
	out := map[string]V{}
	for _, k := range strings.Fields(keys) {
		out[k] = catalog[k]
	}
	return out
}

// searchCase is one SearchVectors request's condition: its text (nil when
// "<absent>"), the names and values it sends, and the index's schema.
type searchCase struct {
	name   string
	text   string
	names  string
	values string
	schema *Schema
}

func (c searchCase) parse() (*Condition, error) {
	var text *string
	if c.text != "<absent>" {
		text = &c.text
	}
	s := productSchema
	if c.schema != nil {
		s = *c.schema
	}
	return ParseCondition(text, pick(catalogNames, c.names), pick(catalogVals, c.values), s)
}

func TestParseConditionErrors(t *testing.T) {
	const (
		comparator = "Invalid comparator used in SearchConditionExpression"
		valueType  = "One or more parameter values were invalid: Condition parameter type does not match schema type"
		invalid    = "Invalid SearchConditionExpression: "
	)
	tests := []struct {
		searchCase
		want string
	}{
		{searchCase{name: "absent with a HASH key", text: "<absent>"},
			"SearchConditionExpression must be provided when SearchSchema has a HASH key"},
		{searchCase{name: "empty", text: ""}, invalid + "The expression can not be empty;"},
		{searchCase{name: "blank", text: "  \n"}, invalid + "The expression can not be empty;"},
		{searchCase{name: "OR", text: "category = :c OR category = :d", values: ":c :d"}, comparator},
		{searchCase{name: "NOT", text: "NOT category = :c", values: ":c"}, comparator},
		{searchCase{name: "less than", text: "category = :c AND price < :p", values: ":c :p"}, comparator},
		{searchCase{name: "not equal", text: "category = :c AND price <> :p", values: ":c :p"}, comparator},
		{searchCase{name: "BETWEEN", text: "category = :c AND price BETWEEN :p AND :q", values: ":c :p :q"}, comparator},
		{searchCase{name: "IN", text: "category = :c AND brand IN (:b)", values: ":c :b"}, comparator},
		{searchCase{name: "begins_with", text: "category = :c AND begins_with(brand, :b)", values: ":c :b"}, comparator},
		{searchCase{name: "attribute_exists", text: "category = :c AND attribute_exists(brand)", values: ":c"}, comparator},
		{searchCase{name: "size operand", text: "category = :c AND size(brand) = :p", values: ":c :p"}, comparator},
		{searchCase{name: "OR inside parentheses", text: "category = :c AND (brand = :b OR price = :p)", values: ":c :b :p"}, comparator},
		{searchCase{name: "comparator before schema", text: "color = :b AND price > :p", values: ":b :p"}, comparator},
		{searchCase{name: "two attributes", text: "category = brand"}, invalid + "A condition must compare an attribute with an expression attribute value"},
		{searchCase{name: "two values", text: ":c = :d", values: ":c :d"}, invalid + "A condition must compare an attribute with an expression attribute value"},
		{searchCase{name: "map path", text: "category = :c AND brand.x = :b", values: ":c :b"},
			invalid + "SearchConditionExpression cannot have conditions on nested attributes"},
		{searchCase{name: "list path", text: "category[0] = :c", values: ":c"},
			invalid + "SearchConditionExpression cannot have conditions on nested attributes"},
		{searchCase{name: "not in schema", text: "category = :c AND color = :b", values: ":c :b"},
			invalid + "Attribute is not part of the SearchSchema of the vector index; attribute name: color"},
		{searchCase{name: "not in schema, by alias", text: "#x = :b", names: "#x", values: ":b", schema: &flatSchema},
			invalid + "Attribute is not part of the SearchSchema of the vector index; attribute name: unused"},
		{searchCase{name: "HASH missing", text: "brand = :b", values: ":b"},
			"SearchConditionExpression must contain an equality condition on the SearchSchema HASH key attribute: category"},
		{searchCase{name: "HASH twice", text: "category = :c AND #c = :c", names: "#c", values: ":c"},
			"SearchConditionExpression must only contain one condition on the SearchSchema HASH key attribute: category"},
		{searchCase{name: "HASH twice, different values", text: "category = :c AND category = :d", values: ":c :d"},
			"SearchConditionExpression must only contain one condition on the SearchSchema HASH key attribute: category"},
		{searchCase{name: "HASH number for string", text: "category = :p", values: ":p"}, valueType},
		{searchCase{name: "HASH list for string", text: "category = :l", values: ":l"}, valueType},
		{searchCase{name: "filter string for number", text: "category = :c AND price = :b", values: ":c :b"}, valueType},
		{searchCase{name: "filter string for binary", text: "category = :c AND sku = :b", values: ":c :b"}, valueType},
		{searchCase{name: "names unused", text: "category = :c", names: "#c #x", values: ":c"},
			"Value provided in ExpressionAttributeNames unused in expressions: keys: {#c, #x}"},
		{searchCase{name: "values unused", text: "category = :c", values: ":c :d :p"},
			"Value provided in ExpressionAttributeValues unused in expressions: keys: {:d, :p}"},
		{searchCase{name: "values with no expression", text: "<absent>", values: ":b", schema: &flatSchema},
			"Value provided in ExpressionAttributeValues unused in expressions: keys: {:b}"},
		{searchCase{name: "name undefined", text: "#nope = :c", values: ":c"},
			invalid + "An expression attribute name used in the document path is not defined; attribute name: #nope"},
		{searchCase{name: "value undefined", text: "category = :nope"},
			invalid + "An expression attribute value used in expression is not defined; attribute value: :nope"},
		{searchCase{name: "syntax", text: "category = ", values: ":c"}, invalid + `Syntax error; token: "<EOF>", near: "= "`},
		{searchCase{name: "reserved word", text: "category = :c AND size = :b", values: ":c :b"},
			invalid + "Attribute name is a reserved keyword; reserved keyword: size"},
		{searchCase{name: "redundant parentheses", text: "((category = :c))", values: ":c"},
			invalid + "The expression has redundant parentheses;"},
		{searchCase{name: "empty names map", text: "category = :c", names: " ", values: ":c"},
			"ExpressionAttributeNames must not be empty"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := tt.parse()
			var e *apierr.Error
			if !errors.As(err, &e) || e.Code != apierr.Validation {
				t.Fatalf("got (%v, %v), want ValidationException %q", c, err, tt.want)
			}
			if e.Message != tt.want {
				t.Errorf("message\n got %q\nwant %q", e.Message, tt.want)
			}
		})
	}
}

func TestParseConditionAccepts(t *testing.T) {
	tests := []struct {
		searchCase
		hash string // the key of the value HashValue must be, "" for none
	}{
		{searchCase{name: "HASH only", text: "category = :c", values: ":c"}, ":c"},
		{searchCase{name: "value first", text: ":c = category", values: ":c"}, ":c"},
		{searchCase{name: "aliases", text: "#c = :c AND #b = :b", names: "#c #b", values: ":c :b"}, ":c"},
		{searchCase{name: "HASH last", text: "brand = :b AND price = :p AND category = :d", values: ":b :p :d"}, ":d"},
		{searchCase{name: "parentheses", text: "(category = :c) AND (brand = :b AND sku = :k)", values: ":c :b :k"}, ":c"},
		{searchCase{name: "keywords in any case", text: "category = :c and price = :p", values: ":c :p"}, ":c"},
		{searchCase{name: "same filter twice", text: "category = :c AND price = :p AND price = :q", values: ":c :p :q"}, ":c"},
		{searchCase{name: "no HASH key", text: "brand = :b", values: ":b", schema: &flatSchema}, ""},
		{searchCase{name: "no HASH key, absent", text: "<absent>", schema: &flatSchema}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := tt.parse()
			if err != nil {
				t.Fatal(err)
			}
			got, want := c.HashValue(), catalogVals[tt.hash]
			if (got == nil) != (tt.hash == "") || got != nil && !attr.Equal(got, &want) {
				t.Errorf("HashValue = %v, want %s", got, tt.hash)
			}
		})
	}
}

func TestConditionMatch(t *testing.T) {
	item := func(kv ...any) attr.Item {
		it := attr.Item{}
		for i := 0; i < len(kv); i += 2 {
			it[kv[i].(string)] = kv[i+1].(attr.Value)
		}
		return it
	}
	books, ten := attr.Str("books"), attr.Num("10")
	tests := []struct {
		name string
		text string
		vals string
		item attr.Item
		want bool
	}{
		{"all equal", "category = :c AND price = :p", ":c :p", item("category", books, "price", ten), true},
		{"other attributes ignored", "category = :c", ":c", item("category", books, "brand", attr.Str("x"), "pk", attr.Str("1")), true},
		{"numbers equal as numbers", "category = :c AND price = :p", ":c :p", item("category", books, "price", attr.Num("10.00")), true},
		{"binary", "category = :c AND sku = :k", ":c :k", item("category", books, "sku", attr.Bin([]byte{1, 2})), true},
		{"filter differs", "category = :c AND price = :p", ":c :p", item("category", books, "price", attr.Num("11")), false},
		{"filter missing", "category = :c AND price = :p", ":c :p", item("category", books), false},
		{"HASH differs by case", "category = :c", ":c", item("category", attr.Str("Books")), false},
		{"HASH missing", "category = :c", ":c", item("price", ten), false},
		{"same type name, other type", "category = :c AND price = :p", ":c :p", item("category", books, "price", attr.Str("10")), false},
		{"contradiction matches nothing", "category = :c AND price = :p AND price = :q", ":c :p :q",
			item("category", books, "price", ten), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := ParseCondition(&tt.text, nil, pick(catalogVals, tt.vals), productSchema)
			if err != nil {
				t.Fatal(err)
			}
			if got := c.Match(tt.item); got != tt.want {
				t.Errorf("Match(%v) = %v, want %v", tt.item, got, tt.want)
			}
		})
	}
}

func TestNilConditionMatchesEverything(t *testing.T) {
	var c *Condition
	if !c.Match(nil) || !c.Match(attr.Item{"brand": attr.Str("x")}) {
		t.Error("a nil condition refused an entry")
	}
	if c.HashValue() != nil {
		t.Error("a nil condition pins a HASH value")
	}
}

// TestParseTreeSharesNames is the two-step use: a name the projection uses
// is not reported unused, and a name nothing uses still is.
func TestParseTreeSharesNames(t *testing.T) {
	names := map[string]string{"#c": "category", "#t": "title", "#x": "x"}
	a := expr.NewAttrs(names, attr.Item{":c": attr.Str("books")})
	text := "#c = :c"
	tree, err := ParseTree(a, &text)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.ParseProjection("#t"); err != nil {
		t.Fatal(err)
	}
	want := "Value provided in ExpressionAttributeNames unused in expressions: keys: {#x}"
	if err := a.CheckUnused(); err == nil || err.(*apierr.Error).Message != want {
		t.Fatalf("CheckUnused = %v, want %q", err, want)
	}
	c, err := CheckTree(tree, productSchema)
	if err != nil || !c.Match(attr.Item{"category": attr.Str("books")}) {
		t.Fatalf("CheckTree = (%v, %v), want a condition matching category books", c, err)
	}
}

// FuzzParseCondition parses random conditions with random names and values
// against both schemas: it must never panic, every refusal must be a
// ValidationException, and an accepted condition must match the entry made
// of its own values unless it holds one attribute to two different values.
func FuzzParseCondition(f *testing.F) {
	seeds := []string{
		"category = :v", ":v = #n", "category = :v AND brand = :w", "(#n = :v) AND (price = :w)",
		"category = :v OR brand = :w", "NOT #n = :v", "price BETWEEN :v AND :w", "brand IN (:v, :w)",
		"begins_with(brand, :v)", "size(brand) = :v", "brand.x = :v", "brand[1] = :v", "a = b",
		"", " ", "((category = :v))", "category = :v AND category = :w", "#n = :v AND price = :v",
	}
	for i, s := range seeds {
		f.Add(s, "#n", "category", ":v", "S", "books", ":w", "N", "10", i%2 == 0)
	}
	f.Fuzz(func(t *testing.T, text, nk, nv, vk1, vt1, vx1, vk2, vt2, vx2 string, hash bool) {
		s := flatSchema
		if hash {
			s = productSchema
		}
		names := map[string]string{nk: nv}
		values := attr.Item{vk1: fuzzValue(vt1, vx1), vk2: fuzzValue(vt2, vx2)}
		c, err := ParseCondition(&text, names, values, s)
		if err != nil {
			var e *apierr.Error
			if !errors.As(err, &e) || e.Code != apierr.Validation {
				t.Fatalf("%q: error %v is not a ValidationException", text, err)
			}
			return
		}
		checkAccepted(t, text, c, hash)
	})
}

// fuzzValue makes a value of the kind named by tag ("S", "N", "B", or
// anything else for a value of no valid type).
func fuzzValue(tag, text string) attr.Value {
	switch tag {
	case "S":
		return attr.Str(text)
	case "N":
		return attr.Num(text)
	case "B":
		return attr.Bin([]byte(text))
	}
	return attr.Value{}
}

// checkAccepted checks an accepted condition's HASH value, and that it
// matches the entry made of its own terms when they agree with each other.
// A value not equal to itself (a malformed number, which the request's
// validation refuses before a condition is parsed) matches nothing.
func checkAccepted(t *testing.T, text string, c *Condition, hash bool) {
	if hash != (c.HashValue() != nil) {
		t.Fatalf("%q: HashValue %v with HASH key %v", text, c.HashValue(), hash)
	}
	entry := attr.Item{}
	for _, tm := range c.terms {
		old, seen := entry[tm.name]
		if !attr.Equal(&tm.val, &tm.val) || seen && !attr.Equal(&old, &tm.val) {
			return
		}
		entry[tm.name] = tm.val
	}
	if !c.Match(entry) {
		t.Fatalf("%q does not match its own values %v", text, entry)
	}
}
