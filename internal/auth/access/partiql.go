package access

import (
	"slices"

	"github.com/sortkeydb/sortkey/internal/attr"
	"github.com/sortkeydb/sortkey/internal/partiql"
	"github.com/sortkeydb/sortkey/internal/protocol"
)

// partiqlActions are the actions of the statement kinds (ql-iam). EXISTS,
// a transaction's condition check, reads: PartiQLSelect.
var partiqlActions = map[partiql.Kind]string{
	partiql.Select: actionPrefix + "PartiQLSelect",
	partiql.Insert: actionPrefix + "PartiQLInsert",
	partiql.Update: actionPrefix + "PartiQLUpdate",
	partiql.Delete: actionPrefix + "PartiQLDelete",
	partiql.Exists: actionPrefix + "PartiQLSelect",
}

// statement describes one statement; enclosing is "" outside a
// transaction.
func statement(src *string, params []attr.Value, rcc *string, enclosing string, c Catalog) (Check, error) {
	st, err := partiql.Parse(str(src), params)
	if err != nil {
		return Check{}, err
	}
	t := resolve(&st.Table, c)
	ch := t.check(partiqlActions[st.Kind], st.Index)
	ch.Keys[KeyLeadingKeys] = statementLeading(st, &t)
	attrs := st.AttributeNames()
	if len(attrs) == 0 {
		attrs = nil
	}
	ch.Keys[KeyAttributes] = attrs
	ch.Keys[KeyConsumedCapacity] = orDefault(rcc, noneValue)
	statementKind(&ch, st)
	if enclosing != "" {
		ch.Keys[KeyEnclosingOperation] = []string{enclosing}
	}
	return ch, nil
}

// statementKind adds the keys that depend on what the statement does.
func statementKind(ch *Check, st *partiql.Statement) {
	if st.Kind == partiql.Select || st.Kind == partiql.Exists {
		ch.Keys[KeySelect] = readSelect(st.Projection != nil)
		scan := slices.Contains(ch.Keys[KeyLeadingKeys], Unbounded) && st.Kind == partiql.Select
		ch.Keys[KeyFullTableScan] = []string{boolText(scan)}
		if scan {
			// A full scan, like Scan, names no partition.
			delete(ch.Keys, KeyLeadingKeys)
		}
		return
	}
	rv := st.Returning
	if rv == "" {
		rv = none
	}
	ch.Keys[KeyReturnValues] = []string{rv}
}

func boolText(b bool) string {
	if b {
		return "true"
	}
	return "false"
}

// statementLeading is the partitions a statement names: its partition key
// equality, IN list or OR of equalities, or an INSERT's item value;
// Unbounded for a full scan.
func statementLeading(st *partiql.Statement, t *target) []string {
	parts, ok := partitionOf(t, st.Index)
	var l leading
	if !ok {
		l.unbounded()
		return l
	}
	for _, name := range parts {
		vals, found := st.PartitionValues(name)
		if !found {
			l.unbounded()
		}
		for _, v := range vals {
			l.value(v, true)
		}
	}
	return l.values()
}

func executeStatement(_ string, in any, c Catalog) ([]Check, error) {
	r, ok := in.(*protocol.ExecuteStatementInput)
	if !ok {
		return nil, ErrInputType
	}
	ch, err := statement(r.Statement, r.Parameters, r.ReturnConsumedCapacity, "", c)
	if err != nil {
		return nil, err
	}
	return []Check{ch}, nil
}

func batchExecute(_ string, in any, c Catalog) ([]Check, error) {
	r, ok := in.(*protocol.BatchExecuteStatementInput)
	if !ok {
		return nil, ErrInputType
	}
	out := make([]Check, 0, len(r.Statements))
	for _, s := range r.Statements {
		// A statement that does not parse fails alone (its response's
		// Error), touching nothing: it needs no check.
		if ch, err := statement(s.Statement, s.Parameters, r.ReturnConsumedCapacity, "", c); err == nil {
			out = append(out, ch)
		}
	}
	return out, nil
}

func executeTransaction(_ string, in any, c Catalog) ([]Check, error) {
	r, ok := in.(*protocol.ExecuteTransactionInput)
	if !ok {
		return nil, ErrInputType
	}
	out := make([]Check, 0, len(r.TransactStatements))
	for _, s := range r.TransactStatements {
		ch, err := statement(s.Statement, s.Parameters, r.ReturnConsumedCapacity, "ExecuteTransaction", c)
		if err != nil {
			return nil, err
		}
		out = append(out, ch)
	}
	return out, nil
}
