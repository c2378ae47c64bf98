package expr

// ParseProjection parses a ProjectionExpression.
func (a *Attrs) ParseProjection(s string) (Projection, error) {
	var proj Projection
	err := a.run(ProjectionKind, s, func(p *parser) { proj = p.parseProjection() })
	if err != nil {
		return nil, err
	}
	return proj, nil
}

// parseProjection parses the paths of a projection expression; like the
// paths of an update, no two may overlap.
//
//	projection ::= path { ',' path } EOF
func (p *parser) parseProjection() Projection {
	proj := Projection{p.actionPath()}
	for p.accept(tokComma) {
		proj = append(proj, p.actionPath())
	}
	p.expect(tokEOF)
	p.checkOverlaps()
	return proj
}
