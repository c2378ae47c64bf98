package expr

import "github.com/sortkeydb/sortkey/internal/attr"

// The syntax trees of DynamoDB's five expression kinds. Parsing resolves
// every #name and :value, so a tree refers to attribute names and values
// directly and evaluation never looks at the request's maps again.

// Path is a document path: a top-level attribute name followed by map keys
// and list indexes, as in a.b[3].c.
type Path []PathElem

// PathElem is one step of a path: a map key (or the top-level name), or a
// list index when IsIndex is set.
type PathElem struct {
	Name    string
	Index   int
	IsIndex bool
}

// Operand is anything that yields a value: a path, a literal value, a
// function call (size, if_not_exists, list_append) or arithmetic.
type Operand interface{ operand() }

// PathOperand reads the value at a path; it yields nothing when the path
// does not exist in the item.
type PathOperand struct {
	Path Path
	Pos  int // byte offset in the expression, for error messages
}

// ValueOperand is an ExpressionAttributeValues entry, already resolved.
type ValueOperand struct {
	Name  string // ":v", as written
	Value attr.Value
	Pos   int
}

// CallOperand is a function that yields a value: size(path) in conditions,
// if_not_exists(path, operand) and list_append(operand, operand) in SET.
type CallOperand struct {
	Func string // lower-case function name as DynamoDB spells it
	Args []Operand
	Pos  int
}

// ArithOperand is a + b or a - b in a SET action.
type ArithOperand struct {
	Op   byte // '+' or '-'
	L, R Operand
	Pos  int
}

func (*PathOperand) operand()  {}
func (*ValueOperand) operand() {}
func (*CallOperand) operand()  {}
func (*ArithOperand) operand() {}

// Cond is a condition: ConditionExpression, FilterExpression and
// KeyConditionExpression all parse to one.
type Cond interface{ cond() }

// CompareCond is L op R with op one of = <> < <= > >=.
type CompareCond struct {
	Op   string
	L, R Operand
}

// BetweenCond is X BETWEEN Lo AND Hi.
type BetweenCond struct{ X, Lo, Hi Operand }

// InCond is X IN (List...).
type InCond struct {
	X    Operand
	List []Operand
}

// AndCond, OrCond and NotCond combine conditions.
type AndCond struct{ L, R Cond }
type OrCond struct{ L, R Cond }
type NotCond struct{ X Cond }

// FuncCond is a function that yields a truth value: attribute_exists,
// attribute_not_exists, attribute_type, begins_with, contains.
type FuncCond struct {
	Func string
	Args []Operand
	Pos  int
}

func (*CompareCond) cond() {}
func (*BetweenCond) cond() {}
func (*InCond) cond()      {}
func (*AndCond) cond()     {}
func (*OrCond) cond()      {}
func (*NotCond) cond()     {}
func (*FuncCond) cond()    {}

// Update is a parsed UpdateExpression: its actions grouped by clause, each
// clause at most once, in the order written within the clause.
type Update struct {
	Set    []SetAction
	Remove []Path
	Add    []AddAction
	Delete []DeleteAction
	// Legacy marks an update translated from AttributeUpdates, whose type
	// errors DynamoDB words as a "Type mismatch", not as an operand's.
	Legacy bool
}

// SetAction is SET Path = Value.
type SetAction struct {
	Path  Path
	Value Operand
}

// AddAction is ADD Path Value (a number to add, or a set to union).
type AddAction struct {
	Path  Path
	Value *ValueOperand
}

// DeleteAction is DELETE Path Value (a set whose members are removed).
type DeleteAction struct {
	Path  Path
	Value *ValueOperand
}

// Projection is a parsed ProjectionExpression: the paths to return.
type Projection []Path
