package iampolicy

import (
	"encoding/json"
	"fmt"
)

// Statement is one compiled statement of a policy.
type Statement struct {
	Sid    string
	Index  int    // position in the Statement list, 0-based
	Effect string // "Allow" / "Deny"

	raw          string
	deny         bool
	principal    *principals // nil in identity policies
	notPrincipal bool
	actions      []pattern
	notAction    bool
	resources    []arnPattern
	notResource  bool
	conditions   []condEntry
}

// JSON returns the statement's source text as written in the document.
func (s *Statement) JSON() string { return s.raw }

var statementFields = map[string]bool{
	"Sid": true, "Effect": true, "Principal": true, "NotPrincipal": true, "Action": true,
	"NotAction": true, "Resource": true, "NotResource": true, "Condition": true,
}

// compileStatement compiles one statement; bad lists dynamodb action names
// that match no real action (refused in resource policies only).
func compileStatement(raw json.RawMessage, kind Kind, vars bool) (s *Statement, bad []string, err error) {
	var obj map[string]json.RawMessage
	if json.Unmarshal(raw, &obj) != nil {
		return nil, nil, &Error{msgStatementShape}
	}
	if err := unknownField(obj, statementFields); err != nil {
		return nil, nil, err
	}
	s = &Statement{raw: string(raw)}
	steps := []func() error{
		func() error { return s.parseSid(obj) },
		func() error { return s.parseEffect(obj) },
		func() error { return s.parsePrincipal(obj, kind) },
		func() error { bad, err = s.parseActions(obj, kind); return err },
		func() error { return s.parseResources(obj, vars) },
		func() error { return s.parseCondition(obj, vars) },
	}
	for _, step := range steps {
		if err := step(); err != nil {
			return nil, nil, err
		}
	}
	return s, bad, nil
}

func (s *Statement) parseSid(obj map[string]json.RawMessage) error {
	if raw, ok := obj["Sid"]; ok && json.Unmarshal(raw, &s.Sid) != nil {
		return &Error{fmt.Sprintf(msgNotText, "Sid")}
	}
	return nil
}

func (s *Statement) parseEffect(obj map[string]json.RawMessage) error {
	raw, ok := obj["Effect"]
	if !ok {
		return &Error{fmt.Sprintf(msgMissingField, "Effect")}
	}
	if json.Unmarshal(raw, &s.Effect) != nil || (s.Effect != "Allow" && s.Effect != "Deny") {
		return &Error{fmt.Sprintf(msgEffect, string(raw))}
	}
	s.deny = s.Effect == "Deny"
	return nil
}

// pick returns whichever of an element and its Not form is present; one
// of them is required and both together are refused.
func pick(obj map[string]json.RawMessage, name string) (json.RawMessage, bool, error) {
	raw, has := obj[name]
	notRaw, hasNot := obj["Not"+name]
	switch {
	case has && hasNot:
		return nil, false, &Error{fmt.Sprintf(msgBothFields, name, "Not"+name)}
	case hasNot:
		return notRaw, true, nil
	case !has:
		return nil, false, &Error{fmt.Sprintf(msgMissingField, name)}
	}
	return raw, false, nil
}

func (s *Statement) parsePrincipal(obj map[string]json.RawMessage, kind Kind) error {
	_, has := obj["Principal"]
	_, hasNot := obj["NotPrincipal"]
	if kind == Identity {
		return errUnless(!has && !hasNot, msgPrincipalForbidden)
	}
	raw, not, err := pick(obj, "Principal")
	if err != nil {
		return err
	}
	p, err := compilePrincipals(raw)
	s.principal, s.notPrincipal = &p, not
	return err
}

func (s *Statement) parseActions(obj map[string]json.RawMessage, kind Kind) ([]string, error) {
	raw, not, err := pick(obj, "Action")
	if err != nil {
		return nil, err
	}
	names, err := stringList(raw, "Action")
	if err != nil || len(names) == 0 {
		return nil, errOr(err, fmt.Sprintf(msgMissingField, "Action"))
	}
	s.notAction = not
	var bad []string
	for _, a := range names {
		vendor, name, err := validAction(a)
		if err != nil {
			return nil, err
		}
		if kind == Resource && vendor == "dynamodb" && !knownDynamoDBAction(name) {
			bad = append(bad, a)
		}
		s.actions = append(s.actions, compilePattern(a, true, false))
	}
	return bad, nil
}

func errOr(err error, msg string) error {
	if err != nil {
		return err
	}
	return &Error{msg}
}

func (s *Statement) parseResources(obj map[string]json.RawMessage, vars bool) error {
	raw, not, err := pick(obj, "Resource")
	if err != nil {
		return err
	}
	arns, err := stringList(raw, "Resource")
	if err != nil || len(arns) == 0 {
		return errOr(err, fmt.Sprintf(msgMissingField, "Resource"))
	}
	s.notResource = not
	for _, a := range arns {
		if !validResource(a) {
			return &Error{fmt.Sprintf(msgResourceARN, a)}
		}
		s.resources = append(s.resources, compileARN(a, vars))
	}
	return nil
}

func (s *Statement) parseCondition(obj map[string]json.RawMessage, vars bool) error {
	raw, ok := obj["Condition"]
	if !ok {
		return nil
	}
	conds, err := compileConditions(raw, vars)
	s.conditions = conds
	return err
}
