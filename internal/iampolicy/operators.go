package iampolicy

import "strings"

// family is how an operator compares a context value with a policy value.
type family uint8

const (
	famString family = iota
	famStringIgnoreCase
	famStringLike
	famNumeric
	famDate
	famBool
	famBinary
	famIP
	famARN
	famNull
)

// cmp is the ordering test of numeric and date operators.
type cmp uint8

const (
	cmpEq cmp = iota
	cmpLt
	cmpLe
	cmpGt
	cmpGe
)

// opInfo describes a base operator. negated operators are the Not forms:
// true when no policy value matches (NOR), and true for an absent key.
type opInfo struct {
	fam     family
	cmp     cmp
	negated bool
}

// operators is keyed by the lowercased operator name: IAM matches operator
// names case-insensitively.
var operators = map[string]opInfo{
	"stringequals":              {fam: famString},
	"stringnotequals":           {fam: famString, negated: true},
	"stringequalsignorecase":    {fam: famStringIgnoreCase},
	"stringnotequalsignorecase": {fam: famStringIgnoreCase, negated: true},
	"stringlike":                {fam: famStringLike},
	"stringnotlike":             {fam: famStringLike, negated: true},
	"numericequals":             {fam: famNumeric},
	"numericnotequals":          {fam: famNumeric, negated: true},
	"numericlessthan":           {fam: famNumeric, cmp: cmpLt},
	"numericlessthanequals":     {fam: famNumeric, cmp: cmpLe},
	"numericgreaterthan":        {fam: famNumeric, cmp: cmpGt},
	"numericgreaterthanequals":  {fam: famNumeric, cmp: cmpGe},
	"dateequals":                {fam: famDate},
	"datenotequals":             {fam: famDate, negated: true},
	"datelessthan":              {fam: famDate, cmp: cmpLt},
	"datelessthanequals":        {fam: famDate, cmp: cmpLe},
	"dategreaterthan":           {fam: famDate, cmp: cmpGt},
	"dategreaterthanequals":     {fam: famDate, cmp: cmpGe},
	"bool":                      {fam: famBool},
	"binaryequals":              {fam: famBinary},
	"ipaddress":                 {fam: famIP},
	"notipaddress":              {fam: famIP, negated: true},
	"arnequals":                 {fam: famARN},
	"arnlike":                   {fam: famARN},
	"arnnotequals":              {fam: famARN, negated: true},
	"arnnotlike":                {fam: famARN, negated: true},
	"null":                      {fam: famNull},
}

// setOp is the ForAllValues / ForAnyValue qualifier.
type setOp uint8

const (
	setNone setOp = iota
	setAll
	setAny
)

// parseOperator splits "ForAllValues:StringLikeIfExists" into its parts.
func parseOperator(name string) (opInfo, setOp, bool, bool) {
	lower := strings.ToLower(name)
	set := setNone
	if rest, ok := strings.CutPrefix(lower, "forallvalues:"); ok {
		set, lower = setAll, rest
	} else if rest, ok := strings.CutPrefix(lower, "foranyvalue:"); ok {
		set, lower = setAny, rest
	}
	base, ifExists := strings.CutSuffix(lower, "ifexists")
	op, ok := operators[base]
	if !ok || (ifExists && op.fam == famNull) {
		return opInfo{}, 0, false, false
	}
	return op, set, ifExists, true
}

func ordered[T int | float64](c cmp, sign T) bool {
	switch c {
	case cmpLt:
		return sign < 0
	case cmpLe:
		return sign <= 0
	case cmpGt:
		return sign > 0
	case cmpGe:
		return sign >= 0
	}
	return sign == 0
}
