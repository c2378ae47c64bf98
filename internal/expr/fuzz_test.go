package expr

import (
	"reflect"
	"testing"
)

// Seeds shared by the fuzz targets.
var fuzzSeeds = []string{
	"a = :v", "a = :v OR b < :n AND NOT c <> :v", "(a = :v OR b = :v) AND c = :v",
	"a BETWEEN :n AND :n", "a IN (:v, :n)", "attribute_exists(#ab) AND begins_with(a.b[2].c, :v)",
	"size(a) > :n", "NOT NOT (a = b)", "#n.#x[10] >= :n",
	"SET a = :v, b = a + :n REMOVE c[0], d.e ADD f :n DELETE g :v",
	"SET a = list_append(if_not_exists(a, :v), :v)", "a, b.c[1], #ab", "a[", "((a", ":", "#",
	"SET c = ((c) + (:n))", "SET #n = (if_not_exists(#n, :n) - :n)", "a BETWEEN :v AND :n",
}

// FuzzParseCondition checks that any condition that parses prints to text
// that parses back to the same tree.
func FuzzParseCondition(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(uint8(0), s)
	}
	f.Fuzz(func(t *testing.T, k uint8, s string) {
		kind := Kind(k % 3)
		c, err := parseAttrs().ParseCondition(kind, s)
		if err != nil {
			return
		}
		pr := FormatCond(c)
		if len(pr.Text) > maxExprSize {
			return
		}
		c2, err := NewAttrs(pr.Names, pr.Values).ParseCondition(kind, pr.Text)
		if err != nil {
			t.Fatalf("%q printed as %q: %v", s, pr.Text, err)
		}
		zeroCond(c)
		zeroCond(c2)
		if !reflect.DeepEqual(c, c2) {
			t.Fatalf("%q printed as %q parses to a different tree", s, pr.Text)
		}
	})
}

// FuzzParseUpdate is FuzzParseCondition for update expressions.
func FuzzParseUpdate(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		u, err := parseAttrs().ParseUpdate(s)
		if err != nil {
			return
		}
		pr := FormatUpdate(u)
		if len(pr.Text) > maxExprSize {
			return
		}
		u2, err := NewAttrs(pr.Names, pr.Values).ParseUpdate(pr.Text)
		if err != nil {
			t.Fatalf("%q printed as %q: %v", s, pr.Text, err)
		}
		zeroUpdate(u)
		zeroUpdate(u2)
		if !reflect.DeepEqual(u, u2) {
			t.Fatalf("%q printed as %q parses to a different tree", s, pr.Text)
		}
	})
}

// FuzzParseProjection is FuzzParseCondition for projection expressions.
func FuzzParseProjection(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, err := parseAttrs().ParseProjection(s)
		if err != nil {
			return
		}
		pr := FormatProjection(p)
		if len(pr.Text) > maxExprSize {
			return
		}
		p2, err := NewAttrs(pr.Names, pr.Values).ParseProjection(pr.Text)
		if err != nil {
			t.Fatalf("%q printed as %q: %v", s, pr.Text, err)
		}
		if !reflect.DeepEqual(p, p2) {
			t.Fatalf("%q printed as %q parses to a different tree", s, pr.Text)
		}
	})
}

// zeroCond, zeroUpdate and zeroOperand clear the positions in a tree, so
// trees parsed from different texts compare equal.
func zeroCond(c Cond) {
	switch c := c.(type) {
	case *CompareCond:
		zeroOperand(c.L)
		zeroOperand(c.R)
	case *BetweenCond:
		zeroOperands(c.X, c.Lo, c.Hi)
	case *InCond:
		zeroOperand(c.X)
		zeroOperands(c.List...)
	case *AndCond:
		zeroCond(c.L)
		zeroCond(c.R)
	case *OrCond:
		zeroCond(c.L)
		zeroCond(c.R)
	case *NotCond:
		zeroCond(c.X)
	case *FuncCond:
		c.Pos = 0
		zeroOperands(c.Args...)
	}
}

func zeroOperands(list ...Operand) {
	for _, o := range list {
		zeroOperand(o)
	}
}

func zeroOperand(o Operand) {
	switch o := o.(type) {
	case *PathOperand:
		o.Pos = 0
	case *ValueOperand:
		o.Pos = 0
	case *CallOperand:
		o.Pos = 0
		zeroOperands(o.Args...)
	case *ArithOperand:
		o.Pos = 0
		zeroOperands(o.L, o.R)
	}
}

func zeroUpdate(u *Update) {
	for _, a := range u.Set {
		zeroOperand(a.Value)
	}
	for _, a := range u.Add {
		a.Value.Pos = 0
	}
	for _, a := range u.Delete {
		a.Value.Pos = 0
	}
}
