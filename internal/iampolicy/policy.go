package iampolicy

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"
)

// Kind says what a policy is attached to, which decides Principal rules.
type Kind int

const (
	Identity Kind = iota // attached to a principal: Principal/NotPrincipal not allowed
	Resource             // attached to a table or stream: Principal or NotPrincipal required
)

// Policy versions. Only 2012-10-17 substitutes policy variables; an absent
// Version behaves as 2008-10-17.
const (
	Version2012 = "2012-10-17"
	Version2008 = "2008-10-17"
)

// Policy is a parsed, compiled policy document; immutable after Parse.
type Policy struct {
	version    string
	id         string
	statements []*Statement
}

// Version returns the document's Version (2008-10-17 when it had none).
func (p *Policy) Version() string { return p.version }

// ID returns the document's Id element, if any.
func (p *Policy) ID() string { return p.id }

// Statements returns the statements in document order.
func (p *Policy) Statements() []*Statement { return p.statements }

var topLevelFields = map[string]bool{"Version": true, "Id": true, "Statement": true}

// Parse checks doc and compiles it. The error's Error() text is a short
// detail suitable after "Invalid policy document: ".
func Parse(doc []byte, kind Kind) (*Policy, error) {
	if err := checkCharacters(doc); err != nil {
		return nil, err
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(doc, &top); err != nil || top == nil {
		return nil, &Error{msgInvalidJSON}
	}
	if err := unknownField(top, topLevelFields); err != nil {
		return nil, err
	}
	p := &Policy{version: Version2008}
	if err := p.parseHeader(top); err != nil {
		return nil, err
	}
	raws, err := statementList(top["Statement"])
	if err != nil {
		return nil, err
	}
	if err := p.compileStatements(raws, kind); err != nil {
		return nil, err
	}
	return p, nil
}

// checkCharacters allows what IAM allows in a policy: tab, LF, CR and
// U+0020 through U+00FF.
func checkCharacters(doc []byte) error {
	if !utf8.Valid(doc) {
		return &Error{msgInvalidJSON}
	}
	for _, c := range string(doc) {
		if c != '\t' && c != '\n' && c != '\r' && (c < 0x20 || c > 0xFF) {
			return &Error{msgInvalidChars}
		}
	}
	return nil
}

// unknownField refuses elements IAM does not define (sorted, so the
// message names the same one every time).
func unknownField(obj map[string]json.RawMessage, known map[string]bool) error {
	var bad []string
	for k := range obj {
		if !known[k] {
			bad = append(bad, k)
		}
	}
	if len(bad) == 0 {
		return nil
	}
	sort.Strings(bad)
	return &Error{fmt.Sprintf(msgUnknownField, bad[0])}
}

func (p *Policy) parseHeader(top map[string]json.RawMessage) error {
	if raw, ok := top["Version"]; ok {
		if json.Unmarshal(raw, &p.version) != nil || (p.version != Version2012 && p.version != Version2008) {
			return &Error{msgVersion}
		}
	}
	if raw, ok := top["Id"]; ok && json.Unmarshal(raw, &p.id) != nil {
		return &Error{fmt.Sprintf(msgNotText, "Id")}
	}
	return nil
}

// statementList accepts one statement object or a non-empty list of them,
// keeping each statement's source text.
func statementList(raw json.RawMessage) ([]json.RawMessage, error) {
	if raw == nil {
		return nil, &Error{fmt.Sprintf(msgMissingField, "Statement")}
	}
	var list []json.RawMessage
	if json.Unmarshal(raw, &list) != nil {
		list = []json.RawMessage{raw}
	}
	if len(list) == 0 {
		return nil, &Error{msgStatementEmpty}
	}
	for _, s := range list {
		if t := strings.TrimSpace(string(s)); t == "" || t[0] != '{' {
			return nil, &Error{msgStatementShape}
		}
	}
	return list, nil
}

func (p *Policy) compileStatements(raws []json.RawMessage, kind Kind) error {
	sids := map[string]bool{}
	var invalid []string
	for i, raw := range raws {
		s, bad, err := compileStatement(raw, kind, p.version == Version2012)
		if err != nil {
			return err
		}
		if s.Sid != "" && sids[s.Sid] {
			return &Error{msgSidsNotUnique}
		}
		sids[s.Sid] = true
		s.Index = i
		p.statements = append(p.statements, s)
		invalid = append(invalid, bad...)
	}
	if len(invalid) > 0 {
		return &Error{fmt.Sprintf(msgInvalidActions, strings.Join(invalid, ", "))}
	}
	return nil
}

// stringList reads an element given as a string or a list of strings.
func stringList(raw json.RawMessage, field string) ([]string, error) {
	var one string
	if json.Unmarshal(raw, &one) == nil {
		return []string{one}, nil
	}
	var list []string
	if json.Unmarshal(raw, &list) != nil {
		return nil, &Error{fmt.Sprintf(msgNotString, field)}
	}
	return list, nil
}
