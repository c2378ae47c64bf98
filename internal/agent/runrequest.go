package agent

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/sortkeydb/sortkey/internal/design"
	"github.com/sortkeydb/sortkey/internal/protocol"
)

// request is pattern p's request with its variables bound: what an
// application following the design sends.
func (r *run) request(p *design.Pattern, vars map[string]string, par CallParams) (map[string]any, error) {
	types := keyTypes(r.d, p.Table)
	switch p.Operation {
	case "GetItem", "BatchGetItem", "TransactGetItems":
		key, err := keyOf(p, vars, types)
		if err != nil {
			return nil, err
		}
		return getRequest(p, key, par), nil
	case "SearchVectors":
		return nil, errSearchPattern
	}
	return r.readRequest(p, vars, types, par)
}

// errSearchPattern: a search needs a vector, which a design does not hold.
var errSearchPattern = errors.New("design_run does not run SearchVectors patterns: a search needs a search vector, " +
	"which the design does not give; call search_vectors with one")

// keyOf is a primary key from p's equality templates.
func keyOf(p *design.Pattern, vars map[string]string, types map[string]string) (map[string]any, error) {
	key := map[string]any{}
	for _, name := range slices.Sorted(maps.Keys(p.Key)) {
		v, err := value(p.Key[name].Value, vars, types[name], p.Number)
		if err != nil {
			return nil, err
		}
		key[name] = v
	}
	return key, nil
}

func getRequest(p *design.Pattern, key map[string]any, par CallParams) map[string]any {
	get := map[string]any{"TableName": p.Table, "Key": key}
	project(get, p.Attributes)
	switch p.Operation {
	case "BatchGetItem":
		delete(get, "TableName")
		delete(get, "Key")
		get["Keys"] = []any{key}
		consistent(get, par.Consistent)
		return map[string]any{"RequestItems": map[string]any{p.Table: get}, "ReturnConsumedCapacity": "TOTAL"}
	case "TransactGetItems":
		return map[string]any{"TransactItems": []any{map[string]any{"Get": get}}, "ReturnConsumedCapacity": "TOTAL"}
	}
	consistent(get, par.Consistent)
	get["ReturnConsumedCapacity"] = "TOTAL"
	return get
}

func consistent(req map[string]any, on bool) {
	if on {
		req["ConsistentRead"] = true
	}
}

// project asks for attrs only, through #names so that reserved words
// need no care.
func project(req map[string]any, attrs []string) {
	if len(attrs) == 0 {
		return
	}
	names := namesOf(req)
	parts := make([]string, len(attrs))
	for i, a := range attrs {
		parts[i] = "#p" + strconv.Itoa(i)
		names[parts[i]] = a
	}
	req["ProjectionExpression"] = strings.Join(parts, ", ")
}

func namesOf(req map[string]any) map[string]any {
	names, ok := req["ExpressionAttributeNames"].(map[string]any)
	if !ok {
		names = map[string]any{}
		req["ExpressionAttributeNames"] = names
	}
	return names
}

func valuesOf(req map[string]any) map[string]any {
	vals, ok := req["ExpressionAttributeValues"].(map[string]any)
	if !ok {
		vals = map[string]any{}
		req["ExpressionAttributeValues"] = vals
	}
	return vals
}

// readRequest is a Query or Scan.
func (r *run) readRequest(p *design.Pattern, vars map[string]string, types map[string]string, par CallParams) (map[string]any, error) {
	req := map[string]any{"TableName": p.Table, "ReturnConsumedCapacity": "TOTAL"}
	if p.Index != "" {
		req["IndexName"] = p.Index
		types = indexKeyTypes(r.d, p.Table, p.Index, types)
	}
	if p.Operation == "Query" {
		if err := keyCondition(req, p, vars, types); err != nil {
			return nil, err
		}
	}
	if err := filter(req, p, par); err != nil {
		return nil, err
	}
	project(req, p.Attributes)
	readOptions(req, p, par)
	return req, nil
}

// readOptions are the page size, order and consistency: the design's,
// unless params say how the application called.
func readOptions(req map[string]any, p *design.Pattern, par CallParams) {
	if limit := int64(p.PageSize); par.Limit > 0 || limit > 0 {
		req["Limit"] = max(par.Limit, 0)
		if par.Limit == 0 {
			req["Limit"] = limit
		}
	}
	if p.Operation == "Query" && (par.Backward || p.Direction == "backward") {
		req["ScanIndexForward"] = false
	}
	consistent(req, par.Consistent)
}

// keyCondition writes p's key condition with its values bound.
func keyCondition(req map[string]any, p *design.Pattern, vars map[string]string, types map[string]string) error {
	names, vals := namesOf(req), valuesOf(req)
	var terms []string
	for i, name := range slices.Sorted(maps.Keys(p.Key)) {
		c := p.Key[name]
		n, v := "#k"+strconv.Itoa(i), ":k"+strconv.Itoa(i)
		names[n] = name
		val, err := value(c.Value, vars, types[name], p.Number)
		if err != nil {
			return err
		}
		vals[v] = val
		term, err := condTerm(c, n, v, vals, vars, types[name], p.Number)
		if err != nil {
			return err
		}
		terms = append(terms, term)
	}
	req["KeyConditionExpression"] = strings.Join(terms, " AND ")
	return nil
}

func condTerm(c design.Condition, n, v string, vals map[string]any, vars map[string]string, typ, number string) (string, error) {
	switch strings.ToLower(c.Op) {
	case "", "=":
		return n + " = " + v, nil
	case "begins_with":
		return "begins_with(" + n + ", " + v + ")", nil
	case "between":
		hi, err := value(c.Value2, vars, typ, number)
		if err != nil {
			return "", err
		}
		vals[v+"b"] = hi
		return n + " BETWEEN " + v + " AND " + v + "b", nil
	}
	return n + " " + c.Op + " " + v, nil
}

// filter adds the design's filter, its #names read as the attributes
// they spell and its :values from params.
func filter(req map[string]any, p *design.Pattern, par CallParams) error {
	if p.Filter == "" {
		return nil
	}
	req["FilterExpression"] = p.Filter
	for _, name := range design.NameRefs(p.Filter) {
		namesOf(req)[name] = name[1:]
	}
	for _, name := range design.ValueRefs(p.Filter) {
		v, ok := par.Values[name]
		if !ok {
			return fmt.Errorf(msgNoValue, name, p.Number)
		}
		valuesOf(req)[name] = v
	}
	return nil
}

// value is a template bound to vars, as an attribute value of type typ.
func value(t design.Template, vars map[string]string, typ, number string) (map[string]any, error) {
	parts, err := t.Parts()
	if err != nil {
		return nil, err
	}
	var b strings.Builder
	for _, part := range parts {
		if part.Var == "" {
			b.WriteString(part.Literal)
			continue
		}
		v, ok := vars[part.Var]
		if !ok {
			return nil, fmt.Errorf(msgUnbound, part.Var, number)
		}
		b.WriteString(v)
	}
	if typ == "" {
		typ = "S"
	}
	return map[string]any{typ: b.String()}, nil
}

// keyTypes are the types of table's key attributes.
func keyTypes(d *design.Design, table string) map[string]string {
	types := map[string]string{}
	for _, t := range d.Tables {
		if t.Name != table {
			continue
		}
		types[t.PartitionKey.Name] = t.PartitionKey.Type
		if t.SortKey != nil {
			types[t.SortKey.Name] = t.SortKey.Type
		}
	}
	return types
}

// indexKeyTypes adds the index's key attributes to types.
func indexKeyTypes(d *design.Design, table, index string, types map[string]string) map[string]string {
	for _, t := range d.Tables {
		if t.Name != table {
			continue
		}
		for _, x := range append(append([]design.Index{}, t.GSIs...), t.LSIs...) {
			if x.Name != index {
				continue
			}
			for _, k := range append(append(design.KeyAttrs{}, x.PartitionKey...), x.SortKey...) {
				types[k.Name] = k.Type
			}
		}
	}
	return types
}

// decodeCall decodes a request and its answer into the protocol's types,
// as the server's coverage sees them.
func decodeCall(op string, call, out map[string]any) (in, res any, err error) {
	switch op {
	case "GetItem":
		in, res = &protocol.GetItemInput{}, &protocol.GetItemOutput{}
	case "Query":
		in, res = &protocol.QueryInput{}, &protocol.ReadOutput{}
	case "Scan":
		in, res = &protocol.ScanInput{}, &protocol.ReadOutput{}
	case "BatchGetItem":
		in, res = &protocol.BatchGetItemInput{}, &protocol.BatchGetItemOutput{}
	default:
		in, res = &protocol.TransactGetItemsInput{}, &protocol.TransactGetItemsOutput{}
	}
	if err = roundTrip(call, in); err == nil {
		err = roundTrip(out, res)
	}
	return in, res, err
}
