package expr

import (
	"errors"
	"sort"

	"github.com/cockroachdb/apd/v3"

	"github.com/sortkeydb/sortkey/internal/apierr"
	"github.com/sortkeydb/sortkey/internal/attr"
)

// The ValidationException texts of updates that fail on the item's data.
// DynamoDB sends them without the "Invalid UpdateExpression: " prefix.
const (
	textDocPath     = "The document path provided in the update expression is invalid for update"
	textMissingAttr = "The provided expression refers to an attribute that does not exist in the item"
	textDataType    = "An operand in the update expression has an incorrect data type"
	textMismatch    = "One or more parameter values were invalid: Type mismatch for attribute to update"
)

// The texts of updates whose :value has a type the operator never takes;
// they fail before any item is read.
const (
	textFuncOperand = prefixUpdate + msgOperandType
	textOpOperand   = "Invalid UpdateExpression: Incorrect operand type for operator or function; operator: %s, operand type: %s, typeSet: %s"
)

// arithCtx adds exactly: two numbers DynamoDB can store have at most 38
// digits each between 10^-130 and 10^126, so 400 digits hold any sum, and
// attr.FormatDecimal then rejects a result DynamoDB could not store.
var arithCtx = apd.BaseContext.WithPrecision(400)

// ApplyUpdate applies u to item and returns the new item. item is not
// modified. The result shares nothing with u's values, but it shares the
// attributes u does not touch with item: copying them cost an UpdateItem
// an eighth of its allocations, and both items are read-only once built
// (the old one is the ALL_OLD image and the stream's OLD_IMAGE). A nil
// item is an item with no attributes.
//
// The clauses run in the order SET, REMOVE, ADD, DELETE, as in the
// Developer Guide ("Update expressions"):
//   - Every SET value is computed from the item as it was before the
//     update (so SET a = b, b = a swaps), then assigned. A path whose
//     parent does not exist, or is not a map (for a key) or list (for an
//     index), is "The document path provided in the update expression is
//     invalid for update"; an index past the end of a list appends, and
//     several such SETs append in index order. A path operand that does
//     not exist is "The provided expression refers to an attribute that
//     does not exist in the item"; + and - take numbers and list_append
//     lists, anything else is "An operand in the update expression has an
//     incorrect data type". Arithmetic is exact; a result DynamoDB cannot
//     store is its number overflow, underflow or precision error.
//   - REMOVE deletes attributes, map keys and list elements; several list
//     elements of one list are removed by their original indexes. A
//     missing attribute, key or index is no error; a missing parent is.
//   - ADD adds a number to a number (a missing attribute counts as 0) or
//     unions a set into a set of the same type (a missing one counts as
//     empty).
//   - DELETE removes a set's members; removing the last one removes the
//     attribute, and DELETE from a missing attribute does nothing.
//
// ValidateUpdate's checks run first, so a :value of the wrong type fails
// whatever the item holds.
func ApplyUpdate(u *Update, item attr.Item) (attr.Item, error) {
	out, err := applyUpdate(u, item)
	if err != nil && u != nil && u.Legacy && isDataType(err) {
		return nil, apierr.Validationf(textMismatch)
	}
	return out, err
}

// isDataType reports whether err is the update's incorrect-data-type error.
func isDataType(err error) bool {
	var ae *apierr.Error
	return errors.As(err, &ae) && ae.Message == textDataType
}

// applyUpdate is ApplyUpdate with an expression's wording of every error.
func applyUpdate(u *Update, item attr.Item) (attr.Item, error) {
	if err := ValidateUpdate(u); err != nil {
		return nil, err
	}
	if u == nil {
		return cloneItem(item), nil
	}
	out := cloneTargets(item, UpdatedPaths(u))
	if err := applySets(u.Set, item, out); err != nil {
		return nil, err
	}
	if err := applyRemoves(u.Remove, out); err != nil {
		return nil, err
	}
	for _, a := range u.Add {
		if err := applyAdd(a, out); err != nil {
			return nil, err
		}
	}
	for _, d := range u.Delete {
		if err := applyDelete(d, out); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// UpdatedPaths returns the paths u writes, SET first, then REMOVE, ADD and
// DELETE: what ReturnValues UPDATED_OLD and UPDATED_NEW project.
func UpdatedPaths(u *Update) []Path {
	if u == nil {
		return nil
	}
	paths := make([]Path, 0, len(u.Set)+len(u.Remove)+len(u.Add)+len(u.Delete))
	for _, a := range u.Set {
		paths = append(paths, a.Path)
	}
	paths = append(paths, u.Remove...)
	for _, a := range u.Add {
		paths = append(paths, a.Path)
	}
	for _, d := range u.Delete {
		paths = append(paths, d.Path)
	}
	return paths
}

// ValidateUpdate makes the checks of u that do not depend on an item: the
// type of every :value given to +, -, list_append, ADD and DELETE.
// DynamoDB reports these as "Invalid UpdateExpression: Incorrect operand
// type for operator or function; ..." even when the item does not exist.
func ValidateUpdate(u *Update) error {
	if u == nil {
		return nil
	}
	for _, a := range u.Set {
		if err := validateSetOperand(a.Value); err != nil {
			return err
		}
	}
	for _, a := range u.Add {
		if a.Value == nil {
			return apierr.Validationf(textOpOperand, "ADD", "NULL", "ALLOWED_FOR_ADD_OPERAND")
		}
		if k := a.Value.Value.Kind(); k != attr.N && !isSetKind(k) {
			return apierr.Validationf(textOpOperand, "ADD", longTypeName(k), "ALLOWED_FOR_ADD_OPERAND")
		}
	}
	for _, d := range u.Delete {
		if d.Value == nil {
			return apierr.Validationf(textOpOperand, "DELETE", "NULL", "ALLOWED_FOR_DELETE_OPERAND")
		}
		if k := d.Value.Value.Kind(); !isSetKind(k) {
			return apierr.Validationf(textOpOperand, "DELETE", longTypeName(k), "ALLOWED_FOR_DELETE_OPERAND")
		}
	}
	return nil
}

func validateSetOperand(op Operand) error {
	switch op := op.(type) {
	case *ArithOperand:
		for _, side := range [2]Operand{op.L, op.R} {
			if v, ok := side.(*ValueOperand); ok && v.Value.Kind() != attr.N {
				return apierr.Validationf(textFuncOperand, string(op.Op), v.Value.Kind().String())
			}
			if err := validateSetOperand(side); err != nil {
				return err
			}
		}
	case *CallOperand:
		for _, arg := range op.Args {
			if v, ok := arg.(*ValueOperand); ok && op.Func == "list_append" && v.Value.Kind() != attr.L {
				return apierr.Validationf(textFuncOperand, op.Func, v.Value.Kind().String())
			}
			if err := validateSetOperand(arg); err != nil {
				return err
			}
		}
	}
	return nil
}

// applySets computes every SET value from old, then assigns them to out in
// path order, so that appends to one list land in index order.
func applySets(sets []SetAction, old, out attr.Item) error {
	if len(sets) == 0 {
		return nil
	}
	vals := make([]attr.Value, len(sets))
	for i, a := range sets {
		v, err := updOperand(a.Value, old)
		if err != nil {
			return err
		}
		vals[i] = v
	}
	order := make([]int, len(sets))
	for i := range order {
		order[i] = i
	}
	if len(sets) > 1 {
		sort.SliceStable(order, func(i, j int) bool {
			return comparePaths(sets[order[i]].Path, sets[order[j]].Path) < 0
		})
	}
	for _, i := range order {
		if err := assign(out, sets[i].Path, cloneValue(&vals[i])); err != nil {
			return err
		}
	}
	return nil
}

// applyRemoves removes paths from the last to the first in path order, so
// that removing a list element never shifts one still to be removed and
// every index means what it meant in the item before the update.
func applyRemoves(paths []Path, out attr.Item) error {
	if len(paths) > 1 {
		paths = append([]Path(nil), paths...)
		sort.SliceStable(paths, func(i, j int) bool { return comparePaths(paths[i], paths[j]) > 0 })
	}
	for _, p := range paths {
		if err := removeAt(out, p); err != nil {
			return err
		}
	}
	return nil
}

func applyAdd(a AddAction, out attr.Item) error {
	v := &a.Value.Value
	cur, ok := lookup(out, a.Path)
	var next attr.Value
	switch {
	case !ok:
		next = cloneValue(v)
	case cur.Kind() == attr.N && v.Kind() == attr.N:
		s, err := arithNumbers('+', *cur.N, *v.N)
		if err != nil {
			return err
		}
		next = attr.Num(s)
	case isSetKind(cur.Kind()) && cur.Kind() == v.Kind():
		next = setUnion(&cur, v)
	default:
		return apierr.Validationf(textDataType)
	}
	return assign(out, a.Path, next)
}

func applyDelete(d DeleteAction, out attr.Item) error {
	v := &d.Value.Value
	cur, ok := lookup(out, d.Path)
	if !ok {
		if !parentExists(out, d.Path) {
			return apierr.Validationf(textDocPath)
		}
		return nil
	}
	if cur.Kind() != v.Kind() {
		return apierr.Validationf(textDataType)
	}
	next, empty := setDifference(&cur, v)
	if empty {
		return removeAt(out, d.Path)
	}
	attr.SortSet(&next) // a set stored before sets were canonical
	return assign(out, d.Path, next)
}

// updOperand evaluates an operand of a SET action against item.
func updOperand(op Operand, item attr.Item) (attr.Value, error) {
	switch op := op.(type) {
	case *ValueOperand:
		return op.Value, nil
	case *PathOperand:
		v, ok := lookup(item, op.Path)
		if !ok {
			return attr.Value{}, apierr.Validationf(textMissingAttr)
		}
		return v, nil
	case *ArithOperand:
		l, err := updOperand(op.L, item)
		if err != nil {
			return attr.Value{}, err
		}
		r, err := updOperand(op.R, item)
		if err != nil {
			return attr.Value{}, err
		}
		if l.Kind() != attr.N || r.Kind() != attr.N {
			return attr.Value{}, apierr.Validationf(textDataType)
		}
		s, err := arithNumbers(op.Op, *l.N, *r.N)
		if err != nil {
			return attr.Value{}, err
		}
		return attr.Num(s), nil
	case *CallOperand:
		return updCall(op, item)
	}
	return attr.Value{}, apierr.Validationf(textDataType)
}

func updCall(op *CallOperand, item attr.Item) (attr.Value, error) {
	if len(op.Args) != 2 {
		return attr.Value{}, apierr.Validationf(prefixUpdate+msgOperandCount, op.Func, len(op.Args))
	}
	switch op.Func {
	case "if_not_exists":
		p, ok := op.Args[0].(*PathOperand)
		if !ok {
			return attr.Value{}, apierr.Validationf(prefixUpdate+msgNeedsPath, "if_not_exists")
		}
		if v, ok := lookup(item, p.Path); ok {
			return v, nil
		}
		return updOperand(op.Args[1], item)
	case "list_append":
		a, err := updOperand(op.Args[0], item)
		if err != nil {
			return attr.Value{}, err
		}
		b, err := updOperand(op.Args[1], item)
		if err != nil {
			return attr.Value{}, err
		}
		if a.Kind() != attr.L || b.Kind() != attr.L {
			return attr.Value{}, apierr.Validationf(textDataType)
		}
		l := make([]attr.Value, 0, len(a.L)+len(b.L))
		return attr.Value{L: append(append(l, a.L...), b.L...)}, nil
	}
	return attr.Value{}, apierr.Validationf(prefixUpdate+msgBadFunc, op.Func)
}

// arithNumbers computes a op b exactly and formats the result as DynamoDB stores
// it, or returns DynamoDB's error for a result it cannot store.
func arithNumbers(op byte, a, b string) (string, error) {
	x, err := attr.Decimal(a)
	if err != nil {
		return "", apierr.Validationf(textDataType)
	}
	y, err := attr.Decimal(b)
	if err != nil {
		return "", apierr.Validationf(textDataType)
	}
	var z apd.Decimal
	if op == '-' {
		_, err = arithCtx.Sub(&z, x, y)
	} else {
		_, err = arithCtx.Add(&z, x, y)
	}
	if err != nil {
		return "", apierr.Validationf(attr.MsgOverflow)
	}
	// A result out of range is an overflow or underflow even when it also
	// has too many digits (9.9E+125 + 9.9E+125 with 38 digits each).
	if !z.IsZero() {
		switch lead := z.NumDigits() + int64(z.Exponent) - 1; {
		case lead > 125:
			return "", apierr.Validationf(attr.MsgOverflow)
		case lead < -130:
			return "", apierr.Validationf(attr.MsgUnderflow)
		}
	}
	// A result with more than 38 significant digits is an overflow too:
	// DynamoDB says so for 1e50 - 1, misleading as the text is.
	s, err := attr.FormatDecimal(&z)
	if err != nil {
		return "", apierr.Validationf(attr.MsgOverflow)
	}
	return s, nil
}

// assign stores v at path in item, which must be the update's own copy.
func assign(item attr.Item, path Path, v attr.Value) error {
	name := path[0].Name
	if len(path) == 1 {
		item[name] = v
		return nil
	}
	top, ok := item[name]
	if !ok {
		return apierr.Validationf(textDocPath)
	}
	if err := assignIn(&top, path[1:], v); err != nil {
		return err
	}
	item[name] = top
	return nil
}

func assignIn(c *attr.Value, rest Path, v attr.Value) error {
	e := rest[0]
	if e.IsIndex {
		if c.Kind() != attr.L || e.Index < 0 {
			return apierr.Validationf(textDocPath)
		}
		switch {
		case len(rest) == 1 && e.Index < len(c.L):
			c.L[e.Index] = v
			return nil
		case len(rest) == 1:
			c.L = append(c.L, v)
			return nil
		case e.Index >= len(c.L):
			return apierr.Validationf(textDocPath)
		}
		return assignIn(&c.L[e.Index], rest[1:], v)
	}
	if c.Kind() != attr.M {
		return apierr.Validationf(textDocPath)
	}
	if len(rest) == 1 {
		c.M[e.Name] = v
		return nil
	}
	child, ok := c.M[e.Name]
	if !ok {
		return apierr.Validationf(textDocPath)
	}
	if err := assignIn(&child, rest[1:], v); err != nil {
		return err
	}
	c.M[e.Name] = child
	return nil
}

// removeAt removes the value at path from item, the update's own copy.
func removeAt(item attr.Item, path Path) error {
	name := path[0].Name
	if len(path) == 1 {
		delete(item, name)
		return nil
	}
	top, ok := item[name]
	if !ok {
		return apierr.Validationf(textDocPath)
	}
	if err := removeIn(&top, path[1:]); err != nil {
		return err
	}
	item[name] = top
	return nil
}

func removeIn(c *attr.Value, rest Path) error {
	e := rest[0]
	if e.IsIndex {
		if c.Kind() != attr.L || e.Index < 0 {
			return apierr.Validationf(textDocPath)
		}
		if len(rest) == 1 {
			if e.Index < len(c.L) {
				c.L = append(c.L[:e.Index], c.L[e.Index+1:]...)
			}
			return nil
		}
		if e.Index >= len(c.L) {
			return apierr.Validationf(textDocPath)
		}
		return removeIn(&c.L[e.Index], rest[1:])
	}
	if c.Kind() != attr.M {
		return apierr.Validationf(textDocPath)
	}
	if len(rest) == 1 {
		delete(c.M, e.Name)
		return nil
	}
	child, ok := c.M[e.Name]
	if !ok {
		return apierr.Validationf(textDocPath)
	}
	if err := removeIn(&child, rest[1:]); err != nil {
		return err
	}
	c.M[e.Name] = child
	return nil
}

// parentExists reports whether the container path's last step goes into
// exists and has the type that step needs.
func parentExists(item attr.Item, path Path) bool {
	if len(path) == 1 {
		return true
	}
	parent, ok := lookup(item, path[:len(path)-1])
	if !ok {
		return false
	}
	if path[len(path)-1].IsIndex {
		return parent.Kind() == attr.L
	}
	return parent.Kind() == attr.M
}

// comparePaths orders paths element by element: names by bytes, indexes
// numerically, a name before an index, a prefix before a longer path.
func comparePaths(a, b Path) int {
	for i := 0; i < len(a) && i < len(b); i++ {
		x, y := a[i], b[i]
		switch {
		case x.IsIndex != y.IsIndex:
			if x.IsIndex {
				return 1
			}
			return -1
		case x.IsIndex && x.Index != y.Index:
			if x.Index < y.Index {
				return -1
			}
			return 1
		case !x.IsIndex && x.Name != y.Name:
			if x.Name < y.Name {
				return -1
			}
			return 1
		}
	}
	return len(a) - len(b)
}

// setUnion returns cur with v's members that it lacks, in canonical
// order (see attr.SortSet); both are sets of the same type.
func setUnion(cur, v *attr.Value) attr.Value {
	out := unsortedUnion(cur, v)
	attr.SortSet(&out)
	return out
}

func unsortedUnion(cur, v *attr.Value) attr.Value {
	switch cur.Kind() {
	case attr.SS:
		return attr.Value{SS: unionStrings(cur.SS, v.SS, sameKey)}
	case attr.NS:
		return attr.Value{NS: unionStrings(cur.NS, v.NS, numberKey)}
	}
	seen := make(map[string]bool, len(cur.BS)+len(v.BS))
	out := make([][]byte, 0, len(cur.BS)+len(v.BS))
	for _, b := range append(append([][]byte(nil), cur.BS...), v.BS...) {
		if !seen[string(b)] {
			seen[string(b)] = true
			out = append(out, append([]byte(nil), b...))
		}
	}
	return attr.Value{BS: out}
}

func unionStrings(cur, add []string, key func(string) string) []string {
	seen := make(map[string]bool, len(cur)+len(add))
	out := make([]string, 0, len(cur)+len(add))
	for _, list := range [2][]string{cur, add} {
		for _, s := range list {
			if k := key(s); !seen[k] {
				seen[k] = true
				out = append(out, s)
			}
		}
	}
	return out
}

// setDifference returns cur without v's members, and whether nothing is
// left.
func setDifference(cur, v *attr.Value) (attr.Value, bool) {
	var out attr.Value
	switch cur.Kind() {
	case attr.SS:
		out.SS = diffStrings(cur.SS, v.SS, sameKey)
		return out, len(out.SS) == 0
	case attr.NS:
		out.NS = diffStrings(cur.NS, v.NS, numberKey)
		return out, len(out.NS) == 0
	}
	drop := make(map[string]bool, len(v.BS))
	for _, b := range v.BS {
		drop[string(b)] = true
	}
	for _, b := range cur.BS {
		if !drop[string(b)] {
			out.BS = append(out.BS, append([]byte(nil), b...))
		}
	}
	return out, len(out.BS) == 0
}

func diffStrings(cur, drop []string, key func(string) string) []string {
	gone := make(map[string]bool, len(drop))
	for _, s := range drop {
		gone[key(s)] = true
	}
	var out []string
	for _, s := range cur {
		if !gone[key(s)] {
			out = append(out, s)
		}
	}
	return out
}

func sameKey(s string) string { return s }

// numberKey keys a number set member by its numberKey text, so that 1
// and 1.0 are one member.
func numberKey(s string) string {
	if n, err := attr.NormalizeNumber(s); err == nil {
		return n
	}
	return s
}

// cloneItem returns a deep copy of item; a nil item copies to an empty one.
func cloneItem(item attr.Item) attr.Item {
	out := make(attr.Item, len(item)+4)
	for k, v := range item {
		out[k] = cloneValue(&v)
	}
	return out
}

// cloneTargets copies item for an update that writes only under paths:
// the attributes those paths start in are copied deeply, because the
// update changes them in place; the rest are shared with item, because
// nothing writes to them and item (the old image) stays unchanged.
func cloneTargets(item attr.Item, paths []Path) attr.Item {
	out := make(attr.Item, len(item)+4)
	for k, v := range item {
		out[k] = v
	}
	for _, p := range paths {
		if v, ok := item[p[0].Name]; ok {
			out[p[0].Name] = cloneValue(&v)
		}
	}
	return out
}

// cloneValue returns a deep copy of v: no pointer, slice or map of the
// copy is shared with v.
func cloneValue(v *attr.Value) attr.Value {
	var c attr.Value
	switch {
	case v.S != nil:
		s := *v.S
		c.S = &s
	case v.N != nil:
		n := *v.N
		c.N = &n
	case v.B != nil:
		c.B = append(make([]byte, 0, len(v.B)), v.B...)
	case v.BOOL != nil:
		b := *v.BOOL
		c.BOOL = &b
	case v.NULL != nil:
		b := *v.NULL
		c.NULL = &b
	case v.M != nil:
		c.M = make(map[string]attr.Value, len(v.M))
		for k, e := range v.M {
			c.M[k] = cloneValue(&e)
		}
	case v.L != nil:
		c.L = make([]attr.Value, len(v.L))
		for i := range v.L {
			c.L[i] = cloneValue(&v.L[i])
		}
	case v.SS != nil:
		c.SS = append(make([]string, 0, len(v.SS)), v.SS...)
	case v.NS != nil:
		c.NS = append(make([]string, 0, len(v.NS)), v.NS...)
	case v.BS != nil:
		c.BS = make([][]byte, len(v.BS))
		for i, b := range v.BS {
			c.BS[i] = append(make([]byte, 0, len(b)), b...)
		}
	}
	return c
}
