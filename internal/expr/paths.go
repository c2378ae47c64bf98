package expr

// CondPaths returns every path c reads, in the order written. Query uses it
// to refuse a filter on key attributes.
func CondPaths(c Cond) []Path {
	var out []Path
	walkCond(c, func(p Path) { out = append(out, p) })
	return out
}

func walkCond(c Cond, visit func(Path)) {
	switch c := c.(type) {
	case *CompareCond:
		walkOperands(visit, c.L, c.R)
	case *BetweenCond:
		walkOperands(visit, c.X, c.Lo, c.Hi)
	case *InCond:
		walkOperands(visit, append([]Operand{c.X}, c.List...)...)
	case *AndCond:
		walkCond(c.L, visit)
		walkCond(c.R, visit)
	case *OrCond:
		walkCond(c.L, visit)
		walkCond(c.R, visit)
	case *NotCond:
		walkCond(c.X, visit)
	case *FuncCond:
		walkOperands(visit, c.Args...)
	}
}

func walkOperands(visit func(Path), ops ...Operand) {
	for _, op := range ops {
		switch op := op.(type) {
		case *PathOperand:
			visit(op.Path)
		case *CallOperand:
			walkOperands(visit, op.Args...)
		case *ArithOperand:
			walkOperands(visit, op.L, op.R)
		}
	}
}
