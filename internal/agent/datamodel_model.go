package agent

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/sortkeydb/sortkey/internal/agent/awscli"
)

const (
	msgModelJSON      = "model: line %d, column %d: %v"
	msgPythonLiteral  = "%v: Python's %s is not JSON; write %s"
	msgModelInvalid   = "the model is not valid, and nothing was changed:\n- %s"
	msgModelMissing   = "the model has no %q: a dynamodb_data_model.json always has tables, items and access_patterns (empty if need be)"
	msgNoTableName    = "tables[%d]: no TableName"
	msgTableTwice     = "tables[%d]: table %s is defined twice"
	msgItemsNoTable   = "items.%s: the model defines no table %s"
	msgItemShape      = `: want {"PutRequest": {"Item": {...}}} or {"DeleteRequest": {"Key": {...}}}`
	msgNoCommand      = "access_patterns[%d] (pattern %s): no implementation and no reason"
	msgCommand        = "access_patterns[%d] (pattern %s): %v"
	msgOpMismatch     = "access_patterns[%d] (pattern %s): dynamodb_operation is %s but the command sends %s"
	msgTableMismatch  = "access_patterns[%d] (pattern %s): table is %s but the command names --table-name %s"
	msgIndexMismatch  = "access_patterns[%d] (pattern %s): index is %s but the command names --index-name %s"
	msgMoreProblems   = "and %d more"
	maxProblemsListed = 20
)

// dataModel is a dynamodb_data_model.json, checked.
type dataModel struct {
	tables   []map[string]any // CreateTable inputs
	names    []string         // their TableNames, in order
	items    map[string][]map[string]any
	patterns []accessPattern
	commands []*awscli.Command // by pattern; nil for a reason-only one
}

// modelKeys are modelFile's keys, in its order.
var modelKeys = []string{"tables", "items", "access_patterns"}

// modelFile is the file as written.
type modelFile struct {
	Tables         *[]map[string]any `json:"tables"`
	Items          *map[string][]any `json:"items"`
	AccessPatterns *[]accessPattern  `json:"access_patterns"`
}

// accessPattern is one entry of access_patterns.
type accessPattern struct {
	Pattern        patternID `json:"pattern"`
	Description    string    `json:"description"`
	Table          *string   `json:"table"`
	Index          *string   `json:"index"`
	Operation      *string   `json:"dynamodb_operation"`
	Implementation *string   `json:"implementation"`
	Reason         *string   `json:"reason"`
}

// patternID is a pattern's id: "1", "1-2", or a number.
type patternID string

func (p *patternID) UnmarshalJSON(b []byte) error {
	var n json.Number
	if err := json.Unmarshal(b, &n); err == nil {
		*p = patternID(n)
		return nil
	}
	return json.Unmarshal(b, (*string)(p))
}

// parseDataModel reads the file and checks all of it: a problem anywhere
// refuses it before any table is touched.
func parseDataModel(text string) (*dataModel, error) {
	var f modelFile
	if err := decodeModel(text, &f); err != nil {
		return nil, err
	}
	for i, present := range []bool{f.Tables != nil, f.Items != nil, f.AccessPatterns != nil} {
		if !present {
			return nil, fmt.Errorf(msgModelMissing, modelKeys[i])
		}
	}
	m := &dataModel{tables: *f.Tables, patterns: *f.AccessPatterns, items: map[string][]map[string]any{}}
	var problems []string
	problems = append(problems, m.checkTables()...)
	problems = append(problems, m.checkItems(*f.Items)...)
	problems = append(problems, m.checkPatterns()...)
	return m, problemsError(problems)
}

// decodeModel decodes strictly: an unknown key is most often a misspelt
// one, and numbers stay as written.
func decodeModel(text string, f *modelFile) error {
	dec := json.NewDecoder(strings.NewReader(text))
	dec.DisallowUnknownFields()
	dec.UseNumber()
	err := dec.Decode(f)
	if err == nil && dec.More() {
		err = errors.New("more follows the JSON object")
	}
	return positioned(text, dec.InputOffset(), err)
}

// positioned gives a decoding error the line and column it is at.
func positioned(text string, at int64, err error) error {
	var syntax *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &syntax):
		at = syntax.Offset
		err = pythonHint(text, at, err)
	case errors.As(err, &typ):
		at = typ.Offset
	case errors.Is(err, io.ErrUnexpectedEOF):
		at = int64(len(text))
	}
	at = min(max(at, 0), int64(len(text)))
	before := text[:at]
	line := strings.Count(before, "\n") + 1
	col := len(before) - strings.LastIndexByte(before, '\n')
	return fmt.Errorf(msgModelJSON, line, col, err)
}

// pythonLiterals are what some generators write for JSON's literals.
var pythonLiterals = map[string]string{"True": "true", "False": "false", "None": "null"}

// pythonHint names the JSON literal a Python one at the syntax error
// stands for: the decoder stops just after its first letter.
func pythonHint(text string, at int64, err error) error {
	if at < 1 || at > int64(len(text)) {
		return err
	}
	for py, js := range pythonLiterals {
		if strings.HasPrefix(text[at-1:], py) {
			return fmt.Errorf(msgPythonLiteral, err, py, js)
		}
	}
	return err
}

func problemsError(problems []string) error {
	if len(problems) == 0 {
		return nil
	}
	if n := len(problems) - maxProblemsListed; n > 0 {
		problems = append(problems[:maxProblemsListed], fmt.Sprintf(msgMoreProblems, n))
	}
	return fmt.Errorf(msgModelInvalid, strings.Join(problems, "\n- "))
}

// checkTables wants each table named once; the rest of a CreateTable
// input is CreateTable's to judge.
func (m *dataModel) checkTables() []string {
	var problems []string
	for i, t := range m.tables {
		name, _ := t["TableName"].(string)
		switch {
		case name == "":
			problems = append(problems, fmt.Sprintf(msgNoTableName, i))
		case m.defines(name):
			problems = append(problems, fmt.Sprintf(msgTableTwice, i, name))
		}
		m.names = append(m.names, name)
	}
	return problems
}

func (m *dataModel) defines(table string) bool {
	for _, n := range m.names {
		if n == table {
			return true
		}
	}
	return false
}

// checkItems wants each table's items in BatchWriteItem's shape, every
// attribute value valid DynamoDB JSON.
func (m *dataModel) checkItems(items map[string][]any) []string {
	var problems []string
	for _, table := range slices.Sorted(maps.Keys(items)) {
		list := items[table]
		if !m.defines(table) {
			problems = append(problems, fmt.Sprintf(msgItemsNoTable, table, table))
			continue
		}
		for i, req := range list {
			w, err := writeRequest(req)
			if err != nil {
				problems = append(problems, fmt.Sprintf("items.%s[%d]%v", table, i, err))
				continue
			}
			m.items[table] = append(m.items[table], w)
		}
	}
	return problems
}

// writeRequest is one entry of a table's items: a PutRequest or a
// DeleteRequest, as BatchWriteItem takes them.
func writeRequest(req any) (map[string]any, error) {
	w, _ := req.(map[string]any)
	if len(w) != 1 {
		return nil, errItemShape
	}
	for kind, member := range map[string]string{"PutRequest": "Item", "DeleteRequest": "Key"} {
		body, ok := w[kind].(map[string]any)
		if !ok {
			continue
		}
		if len(body) != 1 || body[member] == nil {
			return nil, errItemShape
		}
		return w, checkItem("."+kind+"."+member, body[member])
	}
	return nil, errItemShape
}

var errItemShape = errors.New(msgItemShape)

// checkPatterns reads every implemented pattern's command and wants it to
// agree with the pattern's operation, table and index.
func (m *dataModel) checkPatterns() []string {
	var problems []string
	for i, p := range m.patterns {
		cmd, problem := p.command(i)
		if problem != "" {
			problems = append(problems, problem)
		}
		m.commands = append(m.commands, cmd)
	}
	return problems
}

// command is the pattern's command, nil for one with only a reason, or a
// problem.
func (p accessPattern) command(i int) (*awscli.Command, string) {
	impl := deref(p.Implementation)
	if strings.TrimSpace(impl) == "" {
		if strings.TrimSpace(deref(p.Reason)) == "" {
			return nil, fmt.Sprintf(msgNoCommand, i, p.Pattern)
		}
		return nil, ""
	}
	cmd, err := awscli.Parse(impl)
	if err != nil {
		return nil, fmt.Sprintf(msgCommand, i, p.Pattern, err)
	}
	return cmd, p.disagreement(i, cmd)
}

// disagreement is how the command contradicts the pattern's own fields,
// or "".
func (p accessPattern) disagreement(i int, cmd *awscli.Command) string {
	table, _ := cmd.Request["TableName"].(string)
	index, _ := cmd.Request["IndexName"].(string)
	switch {
	case deref(p.Operation) != "" && deref(p.Operation) != cmd.Operation:
		return fmt.Sprintf(msgOpMismatch, i, p.Pattern, deref(p.Operation), cmd.Operation)
	case deref(p.Table) != "" && table != "" && deref(p.Table) != table:
		return fmt.Sprintf(msgTableMismatch, i, p.Pattern, deref(p.Table), table)
	case deref(p.Index) != "" && deref(p.Index) != index:
		return fmt.Sprintf(msgIndexMismatch, i, p.Pattern, deref(p.Index), orNone(index))
	}
	return ""
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

func orNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}

// compactJSON is v as one line of JSON, for errors that quote a value.
func compactJSON(v any) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
	return strings.TrimSpace(b.String())
}
