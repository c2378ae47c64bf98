package iampolicy

// Decision is the outcome of evaluating one policy.
type Decision int

const (
	NotApplicable Decision = iota // no statement applies (implicit deny, as far as this policy goes)
	Allow
	Deny // explicit deny
)

func (d Decision) String() string {
	switch d {
	case Allow:
		return "Allow"
	case Deny:
		return "Deny"
	}
	return "NotApplicable"
}

// Result is the decision and the statement that made it (nil when
// NotApplicable).
type Result struct {
	Decision  Decision
	Statement *Statement
}

// Evaluate returns Deny if any applicable statement denies, else Allow if
// one allows (the first such statement), else NotApplicable.
func (p *Policy) Evaluate(r *Request) Result {
	if p == nil || r == nil {
		return Result{}
	}
	parts, split := splitARN(r.Resource)
	var allow *Statement
	for _, s := range p.statements {
		if !s.applies(r, &parts, split) {
			continue
		}
		if s.deny {
			return Result{Decision: Deny, Statement: s}
		}
		if allow == nil {
			allow = s
		}
	}
	if allow == nil {
		return Result{}
	}
	return Result{Decision: Allow, Statement: allow}
}

// applies checks principal, action, resource, then conditions: the cheap
// tests first, as any false one ends the statement.
func (s *Statement) applies(r *Request, parts *[arnParts]string, split bool) bool {
	if s.principal != nil && s.principal.match(r) == s.notPrincipal {
		return false
	}
	if s.matchAction(r.Action) == s.notAction {
		return false
	}
	if !s.matchResource(r, parts, split) {
		return false
	}
	for i := range s.conditions {
		if !s.conditions[i].eval(r) {
			return false
		}
	}
	return true
}

func (s *Statement) matchAction(action string) bool {
	var buf [maxStackToks]rtok
	for i := range s.actions {
		toks, _ := s.actions[i].resolve(nil, &buf)
		if glob(toks, action, true) {
			return true
		}
	}
	return false
}

// matchResource: Resource needs one matching ARN; NotResource needs none,
// and an unresolvable variable in NotResource makes the element false.
func (s *Statement) matchResource(r *Request, parts *[arnParts]string, split bool) bool {
	for i := range s.resources {
		m, ok := s.resources[i].match(r, r.Resource, parts, split)
		if s.notResource && (!ok || m) {
			return false
		}
		if !s.notResource && m {
			return true
		}
	}
	return s.notResource
}
