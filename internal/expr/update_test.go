package expr

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/sortkeydb/sortkey/internal/attr"
)

func tSet(p Path, v Operand) SetAction { return SetAction{Path: p, Value: v} }
func tArith(op byte, l, r Operand) Operand {
	return &ArithOperand{Op: op, L: l, R: r}
}
func tCall(name string, args ...Operand) Operand { return &CallOperand{Func: name, Args: args} }
func tSS(ss ...string) attr.Value                { return attr.Value{SS: ss} }
func tNS(ns ...string) attr.Value                { return attr.Value{NS: ns} }

// tItemJSON renders an item for failure messages.
func tItemJSON(it attr.Item) string {
	b, _ := json.Marshal(it)
	return string(b)
}

func tSameItem(t *testing.T, got, want attr.Item) {
	t.Helper()
	if !attr.Equal(&attr.Value{M: got}, &attr.Value{M: want}) {
		t.Errorf("item =\n  %s\nwant\n  %s", tItemJSON(got), tItemJSON(want))
	}
}

func tApply(t *testing.T, u *Update, item attr.Item) attr.Item {
	t.Helper()
	out, err := ApplyUpdate(u, item)
	if err != nil {
		t.Fatalf("ApplyUpdate: %v", err)
	}
	return out
}

// TestApplyUpdateGuide replays the Developer Guide's "Update expressions"
// walk-through on its ProductCatalog item 789, step by step.
func TestApplyUpdateGuide(t *testing.T) {
	item := attr.Item{
		"Id":              attr.Num("789"),
		"ProductCategory": attr.Str("Home Improvement"),
		"Price":           attr.Num("52"),
		"InStock":         attr.Bool(true),
		"Brand":           attr.Str("Acme"),
	}
	steps := []struct {
		name  string
		u     *Update
		check func(t *testing.T, it attr.Item)
	}{
		{"SET ProductCategory = :c, Price = :p", &Update{Set: []SetAction{
			tSet(tPath("ProductCategory"), tStr("Hardware")),
			tSet(tPath("Price"), tNum("60")),
		}}, func(t *testing.T, it attr.Item) {
			tWant(t, it, "ProductCategory", attr.Str("Hardware"))
			tWant(t, it, "Price", attr.Num("60"))
		}},
		{"SET RelatedItems = :ri, ProductReviews = :pr", &Update{Set: []SetAction{
			tSet(tPath("RelatedItems"), tVal(tList("Hammer"))),
			tSet(tPath("ProductReviews"), tVal(attr.Value{M: map[string]attr.Value{"FiveStar": tList("Best product ever!")}})),
		}}, func(t *testing.T, it attr.Item) {
			tWant(t, it, "RelatedItems", tList("Hammer"))
		}},
		{"SET RelatedItems[1] = :ri appends", &Update{Set: []SetAction{
			tSet(tPath("RelatedItems", 1), tStr("Nails")),
		}}, func(t *testing.T, it attr.Item) {
			tWant(t, it, "RelatedItems", tList("Hammer", "Nails"))
		}},
		{"SET #pr.#5star[1] = :r5, #pr.#3star = :r3", &Update{Set: []SetAction{
			tSet(tPath("ProductReviews", "FiveStar", 1), tStr("Very happy with my purchase")),
			tSet(tPath("ProductReviews", "ThreeStar"), tVal(tList("Just OK - not that great"))),
		}}, func(t *testing.T, it attr.Item) {
			tWant(t, it, "ProductReviews", attr.Value{M: map[string]attr.Value{
				"FiveStar":  tList("Best product ever!", "Very happy with my purchase"),
				"ThreeStar": tList("Just OK - not that great"),
			}})
		}},
		{"SET Price = Price - :p", &Update{Set: []SetAction{
			tSet(tPath("Price"), tArith('-', tPO("Price"), tNum("15"))),
		}}, func(t *testing.T, it attr.Item) {
			tWant(t, it, "Price", attr.Num("45"))
		}},
		{"SET #ri = list_append(#ri, :vals)", &Update{Set: []SetAction{
			tSet(tPath("RelatedItems"), tCall("list_append", tPO("RelatedItems"), tVal(tList("Screwdriver", "Hacksaw")))),
		}}, func(t *testing.T, it attr.Item) {
			tWant(t, it, "RelatedItems", tList("Hammer", "Nails", "Screwdriver", "Hacksaw"))
		}},
		{"SET #ri = list_append(:vals, #ri)", &Update{Set: []SetAction{
			tSet(tPath("RelatedItems"), tCall("list_append", tVal(tList("Chisel")), tPO("RelatedItems"))),
		}}, func(t *testing.T, it attr.Item) {
			tWant(t, it, "RelatedItems", tList("Chisel", "Hammer", "Nails", "Screwdriver", "Hacksaw"))
		}},
		{"SET Price = if_not_exists(Price, :p) keeps Price", &Update{Set: []SetAction{
			tSet(tPath("Price"), tCall("if_not_exists", tPO("Price"), tNum("100"))),
		}}, func(t *testing.T, it attr.Item) {
			tWant(t, it, "Price", attr.Num("45"))
		}},
		{"REMOVE Brand, InStock, QuantityOnHand", &Update{Remove: []Path{
			tPath("Brand"), tPath("InStock"), tPath("QuantityOnHand"),
		}}, func(t *testing.T, it attr.Item) {
			for _, name := range []string{"Brand", "InStock", "QuantityOnHand"} {
				if _, ok := it[name]; ok {
					t.Errorf("%s still present", name)
				}
			}
		}},
		{"REMOVE RelatedItems[1], RelatedItems[2]", &Update{Remove: []Path{
			tPath("RelatedItems", 1), tPath("RelatedItems", 2),
		}}, func(t *testing.T, it attr.Item) {
			tWant(t, it, "RelatedItems", tList("Chisel", "Screwdriver", "Hacksaw"))
		}},
		{"ADD QuantityOnHand :q creates it", &Update{Add: []AddAction{
			{Path: tPath("QuantityOnHand"), Value: tNum("5")},
		}}, func(t *testing.T, it attr.Item) {
			tWant(t, it, "QuantityOnHand", attr.Num("5"))
		}},
		{"ADD QuantityOnHand :q increments", &Update{Add: []AddAction{
			{Path: tPath("QuantityOnHand"), Value: tNum("5")},
		}}, func(t *testing.T, it attr.Item) {
			tWant(t, it, "QuantityOnHand", attr.Num("10"))
		}},
		{"ADD Color :c creates the set", &Update{Add: []AddAction{
			{Path: tPath("Color"), Value: tVal(tSS("Orange", "Purple"))},
		}}, func(t *testing.T, it attr.Item) {
			tWant(t, it, "Color", tSS("Orange", "Purple"))
		}},
		{"ADD Color :c adds members", &Update{Add: []AddAction{
			{Path: tPath("Color"), Value: tVal(tSS("Yellow", "Green", "Blue", "Orange"))},
		}}, func(t *testing.T, it attr.Item) {
			if got := it["Color"].SS; !slices.Equal(got, []string{"Blue", "Green", "Orange", "Purple", "Yellow"}) {
				t.Errorf("Color = %v", got)
			}
		}},
		{"DELETE Color :p", &Update{Delete: []DeleteAction{
			{Path: tPath("Color"), Value: tVal(tSS("Yellow", "Purple"))},
		}}, func(t *testing.T, it attr.Item) {
			tWant(t, it, "Color", tSS("Orange", "Green", "Blue"))
		}},
	}
	for _, s := range steps {
		before := cloneItem(item)
		next := tApply(t, s.u, item)
		tSameItem(t, item, before) // the input is never modified
		t.Run(s.name, func(t *testing.T) { s.check(t, next) })
		item = next
	}
	tSameItem(t, item, attr.Item{
		"Id":              attr.Num("789"),
		"ProductCategory": attr.Str("Hardware"),
		"Price":           attr.Num("45"),
		"RelatedItems":    tList("Chisel", "Screwdriver", "Hacksaw"),
		"ProductReviews": {M: map[string]attr.Value{
			"FiveStar":  tList("Best product ever!", "Very happy with my purchase"),
			"ThreeStar": tList("Just OK - not that great"),
		}},
		"QuantityOnHand": attr.Num("10"),
		"Color":          tSS("Orange", "Green", "Blue"),
	})
}

func tWant(t *testing.T, it attr.Item, name string, want attr.Value) {
	t.Helper()
	got, ok := it[name]
	if !ok {
		t.Errorf("%s missing from %s", name, tItemJSON(it))
		return
	}
	if !attr.Equal(&got, &want) {
		g, _ := json.Marshal(got)
		w, _ := json.Marshal(want)
		t.Errorf("%s = %s, want %s", name, g, w)
	}
}

func TestApplyUpdate(t *testing.T) {
	base := func() attr.Item {
		return attr.Item{
			"pk":   attr.Str("k"),
			"n":    attr.Num("10"),
			"s":    attr.Str("str"),
			"l":    tList("a", "b", "c", "d", "e"),
			"m":    {M: map[string]attr.Value{"x": attr.Num("1"), "inner": {M: map[string]attr.Value{"y": attr.Str("deep")}}}},
			"ss":   tSS("a", "b"),
			"ns":   tNS("1", "2.5"),
			"bs":   {BS: [][]byte{{1}, {2}}},
			"lm":   {L: []attr.Value{{M: map[string]attr.Value{"k": attr.Num("0")}}}},
			"flag": attr.Bool(false),
		}
	}
	tests := []struct {
		name string
		u    *Update
		want func(it attr.Item)
	}{
		{"SET swaps using old values", &Update{Set: []SetAction{
			tSet(tPath("n"), tPO("s")), tSet(tPath("s"), tPO("n")),
		}}, func(it attr.Item) { it["n"], it["s"] = attr.Str("str"), attr.Num("10") }},
		{"SET new top-level attribute", &Update{Set: []SetAction{tSet(tPath("new"), tNum("1"))}},
			func(it attr.Item) { it["new"] = attr.Num("1") }},
		{"SET + two paths", &Update{Set: []SetAction{tSet(tPath("sum"), tArith('+', tPO("n"), tPO("m", "x")))}},
			func(it attr.Item) { it["sum"] = attr.Num("11") }},
		{"SET - to negative", &Update{Set: []SetAction{tSet(tPath("n"), tArith('-', tNum("3"), tPO("n")))}},
			func(it attr.Item) { it["n"] = attr.Num("-7") }},
		{"SET + decimals exact", &Update{Set: []SetAction{tSet(tPath("n"), tArith('+', tNum("0.1"), tNum("0.2")))}},
			func(it attr.Item) { it["n"] = attr.Num("0.3") }},
		{"SET + to zero", &Update{Set: []SetAction{tSet(tPath("n"), tArith('+', tPO("n"), tNum("-10")))}},
			func(it attr.Item) { it["n"] = attr.Num("0") }},
		{"SET + 38 digits", &Update{Set: []SetAction{tSet(tPath("n"),
			tArith('+', tNum("99999999999999999999999999999999999998"), tNum("1")))}},
			func(it attr.Item) { it["n"] = attr.Num("99999999999999999999999999999999999999") }},
		{"SET if_not_exists missing", &Update{Set: []SetAction{tSet(tPath("c"), tCall("if_not_exists", tPO("c"), tNum("0")))}},
			func(it attr.Item) { it["c"] = attr.Num("0") }},
		{"SET if_not_exists + :one (counter)", &Update{Set: []SetAction{
			tSet(tPath("c"), tArith('+', tCall("if_not_exists", tPO("c"), tNum("0")), tNum("1")))}},
			func(it attr.Item) { it["c"] = attr.Num("1") }},
		{"SET list_append(if_not_exists(l2, []), :v)", &Update{Set: []SetAction{
			tSet(tPath("l2"), tCall("list_append", tCall("if_not_exists", tPO("l2"), tVal(attr.Value{L: []attr.Value{}})), tVal(tList("z"))))}},
			func(it attr.Item) { it["l2"] = tList("z") }},
		{"SET list element replaces", &Update{Set: []SetAction{tSet(tPath("l", 0), tStr("A"))}},
			func(it attr.Item) { it["l"] = tList("A", "b", "c", "d", "e") }},
		{"SET past the end appends in index order", &Update{Set: []SetAction{
			tSet(tPath("l", 9), tStr("nine")), tSet(tPath("l", 7), tStr("seven"))}},
			func(it attr.Item) { it["l"] = tList("a", "b", "c", "d", "e", "seven", "nine") }},
		{"SET nested map key", &Update{Set: []SetAction{tSet(tPath("m", "inner", "z"), tNum("2"))}},
			func(it attr.Item) { it["m"].M["inner"].M["z"] = attr.Num("2") }},
		{"SET map inside list", &Update{Set: []SetAction{tSet(tPath("lm", 0, "k"), tNum("5"))}},
			func(it attr.Item) {
				it["lm"] = attr.Value{L: []attr.Value{{M: map[string]attr.Value{"k": attr.Num("5")}}}}
			}},
		{"REMOVE missing attribute is a no-op", &Update{Remove: []Path{tPath("nope")}}, func(attr.Item) {}},
		{"REMOVE missing map key is a no-op", &Update{Remove: []Path{tPath("m", "nope")}}, func(attr.Item) {}},
		{"REMOVE index past end is a no-op", &Update{Remove: []Path{tPath("l", 5)}}, func(attr.Item) {}},
		{"REMOVE nested key", &Update{Remove: []Path{tPath("m", "inner", "y")}},
			func(it attr.Item) { delete(it["m"].M["inner"].M, "y") }},
		{"REMOVE list elements by original index, any order", &Update{Remove: []Path{
			tPath("l", 0), tPath("l", 4), tPath("l", 2)}},
			func(it attr.Item) { it["l"] = tList("b", "d") }},
		{"REMOVE all list elements leaves an empty list", &Update{Remove: []Path{
			tPath("l", 0), tPath("l", 1), tPath("l", 2), tPath("l", 3), tPath("l", 4)}},
			func(it attr.Item) { it["l"] = attr.Value{L: []attr.Value{}} }},
		{"REMOVE element and key inside a later element", &Update{Remove: []Path{
			tPath("lm", 0, "k"), tPath("l", 1)}},
			func(it attr.Item) {
				it["lm"] = attr.Value{L: []attr.Value{{M: map[string]attr.Value{}}}}
				it["l"] = tList("a", "c", "d", "e")
			}},
		{"ADD to number", &Update{Add: []AddAction{{Path: tPath("n"), Value: tNum("-2.5")}}},
			func(it attr.Item) { it["n"] = attr.Num("7.5") }},
		{"ADD nested number", &Update{Add: []AddAction{{Path: tPath("m", "x"), Value: tNum("1")}}},
			func(it attr.Item) { it["m"].M["x"] = attr.Num("2") }},
		{"ADD new nested number", &Update{Add: []AddAction{{Path: tPath("m", "new"), Value: tNum("3")}}},
			func(it attr.Item) { it["m"].M["new"] = attr.Num("3") }},
		{"ADD number set by value", &Update{Add: []AddAction{{Path: tPath("ns"), Value: tVal(tNS("2.5", "3"))}}},
			func(it attr.Item) { it["ns"] = tNS("1", "2.5", "3") }},
		{"ADD binary set", &Update{Add: []AddAction{{Path: tPath("bs"), Value: tVal(attr.Value{BS: [][]byte{{2}, {3}}})}}},
			func(it attr.Item) { it["bs"] = attr.Value{BS: [][]byte{{1}, {2}, {3}}} }},
		{"DELETE some members", &Update{Delete: []DeleteAction{{Path: tPath("ss"), Value: tVal(tSS("a", "zz"))}}},
			func(it attr.Item) { it["ss"] = tSS("b") }},
		{"DELETE all members removes the attribute", &Update{Delete: []DeleteAction{{Path: tPath("ss"), Value: tVal(tSS("a", "b"))}}},
			func(it attr.Item) { delete(it, "ss") }},
		{"DELETE number members numerically", &Update{Delete: []DeleteAction{{Path: tPath("ns"), Value: tVal(tNS("2.50"))}}},
			func(it attr.Item) { it["ns"] = tNS("1") }},
		{"DELETE binary members", &Update{Delete: []DeleteAction{{Path: tPath("bs"), Value: tVal(attr.Value{BS: [][]byte{{1}}})}}},
			func(it attr.Item) { it["bs"] = attr.Value{BS: [][]byte{{2}}} }},
		{"DELETE from missing attribute is a no-op", &Update{Delete: []DeleteAction{{Path: tPath("nope"), Value: tVal(tSS("a"))}}},
			func(attr.Item) {}},
		{"all four clauses", &Update{
			Set:    []SetAction{tSet(tPath("s"), tStr("new"))},
			Remove: []Path{tPath("flag")},
			Add:    []AddAction{{Path: tPath("n"), Value: tNum("1")}},
			Delete: []DeleteAction{{Path: tPath("ss"), Value: tVal(tSS("a"))}},
		}, func(it attr.Item) {
			it["s"], it["n"], it["ss"] = attr.Str("new"), attr.Num("11"), tSS("b")
			delete(it, "flag")
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			item := base()
			got := tApply(t, tt.u, item)
			tSameItem(t, item, base())
			want := base()
			tt.want(want)
			tSameItem(t, got, want)
		})
	}
}

func TestApplyUpdateNilItem(t *testing.T) {
	u := &Update{
		Set: []SetAction{tSet(tPath("a"), tCall("if_not_exists", tPO("a"), tNum("1")))},
		Add: []AddAction{{Path: tPath("n"), Value: tNum("5")}, {Path: tPath("s"), Value: tVal(tSS("x"))}},
	}
	got := tApply(t, u, nil)
	tSameItem(t, got, attr.Item{"a": attr.Num("1"), "n": attr.Num("5"), "s": tSS("x")})
}

func TestApplyUpdateErrors(t *testing.T) {
	item := attr.Item{
		"n":   attr.Num("10"),
		"s":   attr.Str("str"),
		"l":   tList("a"),
		"m":   {M: map[string]attr.Value{"x": attr.Num("1")}},
		"ss":  tSS("a"),
		"ns":  tNS("1"),
		"big": attr.Num("9.9999999999999999999999999999999999999E+125"),
	}
	const (
		docPath  = "The document path provided in the update expression is invalid for update"
		missing  = "The provided expression refers to an attribute that does not exist in the item"
		dataType = "An operand in the update expression has an incorrect data type"
	)
	tests := []struct {
		name string
		u    *Update
		msg  string
	}{
		{"SET under missing parent", &Update{Set: []SetAction{tSet(tPath("nope", "a"), tNum("1"))}}, docPath},
		{"SET under missing nested parent", &Update{Set: []SetAction{tSet(tPath("m", "nope", "a"), tNum("1"))}}, docPath},
		{"SET key into a list", &Update{Set: []SetAction{tSet(tPath("l", "a"), tNum("1"))}}, docPath},
		{"SET index into a map", &Update{Set: []SetAction{tSet(tPath("m", 0), tNum("1"))}}, docPath},
		{"SET index into a scalar", &Update{Set: []SetAction{tSet(tPath("s", 0), tNum("1"))}}, docPath},
		{"SET index into missing", &Update{Set: []SetAction{tSet(tPath("nope", 0), tNum("1"))}}, docPath},
		{"SET through index past end", &Update{Set: []SetAction{tSet(tPath("l", 3, "a"), tNum("1"))}}, docPath},
		{"SET from missing path", &Update{Set: []SetAction{tSet(tPath("a"), tPO("nope"))}}, missing},
		{"SET + missing path", &Update{Set: []SetAction{tSet(tPath("n"), tArith('+', tPO("nope"), tNum("1")))}}, missing},
		{"SET list_append missing", &Update{Set: []SetAction{tSet(tPath("l"), tCall("list_append", tPO("nope"), tVal(tList("x"))))}}, missing},
		{"SET + string attribute", &Update{Set: []SetAction{tSet(tPath("n"), tArith('+', tPO("s"), tNum("1")))}}, dataType},
		{"SET - set attribute", &Update{Set: []SetAction{tSet(tPath("n"), tArith('-', tPO("n"), tPO("ns")))}}, dataType},
		{"SET list_append of a string attribute", &Update{Set: []SetAction{tSet(tPath("l"), tCall("list_append", tPO("l"), tPO("s")))}}, dataType},
		{"SET + overflow", &Update{Set: []SetAction{tSet(tPath("n"), tArith('+', tPO("big"), tPO("big")))}},
			"Number overflow. Attempting to store a number with magnitude larger than supported range"},
		{"SET - underflow", &Update{Set: []SetAction{tSet(tPath("n"), tArith('-', tNum("1.0000000000000000000000000000000000001E-130"), tNum("1E-130")))}},
			"Number underflow. Attempting to store a number with magnitude smaller than supported range"},
		// facts 26.3: a result with more than 38 digits is an overflow.
		{"SET + more than 38 digits", &Update{Set: []SetAction{tSet(tPath("n"), tArith('+', tNum("1E+20"), tNum("1E-20")))}},
			"Number overflow. Attempting to store a number with magnitude larger than supported range"},
		{"SET 1e50 - 1", &Update{Set: []SetAction{tSet(tPath("n"), tArith('-', tNum("1e50"), tNum("1")))}},
			"Number overflow. Attempting to store a number with magnitude larger than supported range"},
		{"SET + :string", &Update{Set: []SetAction{tSet(tPath("n"), tArith('+', tPO("n"), tStr("1")))}},
			"Invalid UpdateExpression: Incorrect operand type for operator or function; operator or function: +, operand type: S"},
		{"SET list_append :map", &Update{Set: []SetAction{tSet(tPath("l"), tCall("list_append", tPO("l"), tVal(attr.Value{M: map[string]attr.Value{}})))}},
			"Invalid UpdateExpression: Incorrect operand type for operator or function; operator or function: list_append, operand type: M"},
		{"SET list_append :string", &Update{Set: []SetAction{tSet(tPath("l"), tCall("list_append", tStr("x"), tPO("l")))}},
			"Invalid UpdateExpression: Incorrect operand type for operator or function; operator or function: list_append, operand type: S"},
		{"REMOVE under missing parent", &Update{Remove: []Path{tPath("nope", "a")}}, docPath},
		{"REMOVE index of a map", &Update{Remove: []Path{tPath("m", 0)}}, docPath},
		{"REMOVE key of a scalar", &Update{Remove: []Path{tPath("s", "a")}}, docPath},
		{"ADD :string", &Update{Add: []AddAction{{Path: tPath("n"), Value: tStr("1")}}},
			"Invalid UpdateExpression: Incorrect operand type for operator or function; operator: ADD, operand type: STRING, typeSet: ALLOWED_FOR_ADD_OPERAND"},
		{"ADD :list", &Update{Add: []AddAction{{Path: tPath("l"), Value: tVal(tList("x"))}}},
			"Invalid UpdateExpression: Incorrect operand type for operator or function; operator: ADD, operand type: LIST, typeSet: ALLOWED_FOR_ADD_OPERAND"},
		{"ADD :map", &Update{Add: []AddAction{{Path: tPath("m"), Value: tVal(attr.Value{M: map[string]attr.Value{}})}}},
			"Invalid UpdateExpression: Incorrect operand type for operator or function; operator: ADD, operand type: MAP, typeSet: ALLOWED_FOR_ADD_OPERAND"},
		{"ADD number to string attribute", &Update{Add: []AddAction{{Path: tPath("s"), Value: tNum("1")}}}, dataType},
		{"ADD string set to number set", &Update{Add: []AddAction{{Path: tPath("ns"), Value: tVal(tSS("x"))}}}, dataType},
		{"ADD number to a set", &Update{Add: []AddAction{{Path: tPath("ns"), Value: tNum("1")}}}, dataType},
		{"ADD under missing parent", &Update{Add: []AddAction{{Path: tPath("nope", "a"), Value: tNum("1")}}}, docPath},
		{"ADD overflow", &Update{Add: []AddAction{{Path: tPath("big"), Value: tNum("1E+125")}}},
			"Number overflow. Attempting to store a number with magnitude larger than supported range"},
		{"DELETE :string", &Update{Delete: []DeleteAction{{Path: tPath("ss"), Value: tStr("a")}}},
			"Invalid UpdateExpression: Incorrect operand type for operator or function; operator: DELETE, operand type: STRING, typeSet: ALLOWED_FOR_DELETE_OPERAND"},
		{"DELETE :number", &Update{Delete: []DeleteAction{{Path: tPath("ns"), Value: tNum("1")}}},
			"Invalid UpdateExpression: Incorrect operand type for operator or function; operator: DELETE, operand type: NUMBER, typeSet: ALLOWED_FOR_DELETE_OPERAND"},
		{"DELETE from a list", &Update{Delete: []DeleteAction{{Path: tPath("l"), Value: tVal(tSS("a"))}}}, dataType},
		{"DELETE wrong set type", &Update{Delete: []DeleteAction{{Path: tPath("ss"), Value: tVal(tNS("1"))}}}, dataType},
		{"DELETE under missing parent", &Update{Delete: []DeleteAction{{Path: tPath("nope", "a"), Value: tVal(tSS("a"))}}}, docPath},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := cloneItem(item)
			_, err := ApplyUpdate(tt.u, item)
			tAssertValidation(t, err, tt.msg)
			tSameItem(t, item, before)
		})
	}
}

// TestValidateUpdateNoItem: a :value of the wrong type fails even when
// there is no item at all.
func TestValidateUpdateNoItem(t *testing.T) {
	u := &Update{Add: []AddAction{{Path: tPath("a"), Value: tVal(attr.Bool(true))}}}
	_, err := ApplyUpdate(u, nil)
	tAssertValidation(t, err, "Invalid UpdateExpression: Incorrect operand type for operator or function; operator: ADD, operand type: BOOLEAN, typeSet: ALLOWED_FOR_ADD_OPERAND")
	tAssertValidation(t, ValidateUpdate(u), "Invalid UpdateExpression: Incorrect operand type for operator or function; operator: ADD, operand type: BOOLEAN, typeSet: ALLOWED_FOR_ADD_OPERAND")
	if err := ValidateUpdate(&Update{Set: []SetAction{tSet(tPath("a"), tArith('+', tPO("a"), tNum("1")))}}); err != nil {
		t.Errorf("ValidateUpdate(valid) = %v", err)
	}
}

// TestApplyUpdateLeavesTheOldItem: updates that change values in place
// (nested SET, list REMOVE, ADD and DELETE on sets) never show in the old
// item, and what the result copied from the item or from the update's
// values can be changed without changing them.
func TestApplyUpdateLeavesTheOldItem(t *testing.T) {
	item := attr.Item{
		"m":  {M: map[string]attr.Value{"l": tList("a", "b")}},
		"l":  tList("x", "y"),
		"ss": tSS("a", "b"),
		"ns": tNS("1"),
		"s":  attr.Str("x"),
	}
	before := cloneItem(item)
	val := tList("v")
	u := &Update{
		Set: []SetAction{
			tSet(tPath("m", "l", 0), tStr("new")), tSet(tPath("m", "k"), tNum("1")),
			tSet(tPath("copy"), tVal(val)), tSet(tPath("m2"), tPO("m")),
		},
		Remove: []Path{tPath("l", 0)},
		Add:    []AddAction{{Path: tPath("ns"), Value: tVal(tNS("2"))}},
		Delete: []DeleteAction{{Path: tPath("ss"), Value: tVal(tSS("a"))}},
	}
	out := tApply(t, u, item)
	tSameItem(t, item, before)

	out["copy"].L[0] = attr.Str("changed")
	out["m2"].M["l"].L[0] = attr.Str("changed")
	tSameItem(t, item, before)
	if *val.L[0].S != "v" {
		t.Errorf("update value changed: %v", *val.L[0].S)
	}
}

func TestUpdatedPaths(t *testing.T) {
	u := &Update{
		Set:    []SetAction{tSet(tPath("a"), tNum("1")), tSet(tPath("b", 0), tNum("1"))},
		Remove: []Path{tPath("c", "d")},
		Add:    []AddAction{{Path: tPath("e"), Value: tNum("1")}},
		Delete: []DeleteAction{{Path: tPath("f"), Value: tVal(tSS("x"))}},
	}
	got := UpdatedPaths(u)
	want := []Path{tPath("a"), tPath("b", 0), tPath("c", "d"), tPath("e"), tPath("f")}
	if len(got) != len(want) {
		t.Fatalf("UpdatedPaths = %v, want %v", got, want)
	}
	for i := range want {
		if comparePaths(got[i], want[i]) != 0 {
			t.Errorf("UpdatedPaths[%d] = %v, want %v", i, got[i], want[i])
		}
	}
	if UpdatedPaths(nil) != nil {
		t.Error("UpdatedPaths(nil) != nil")
	}
}

func TestApplyUpdateNil(t *testing.T) {
	item := attr.Item{"a": attr.Num("1")}
	got := tApply(t, nil, item)
	tSameItem(t, got, item)
	got["a"] = attr.Num("2")
	if *item["a"].N != "1" {
		t.Error("nil update returned the input item")
	}
}
