package agent

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/sortkeydb/sortkey/internal/design"
)

// DesignInput is design_check's input.
type DesignInput struct {
	Design string `json:"design" jsonschema:"the design file's text, YAML or JSON, in the format of sortkey's design files (docs/DESIGN-FILES.md)"`
	File   string `json:"file,omitempty" jsonschema:"the name findings give the file (default design.yaml)"`
}

// Finding is one finding of design_check, at its line and column.
type Finding struct {
	Line     int    `json:"line"`
	Col      int    `json:"col"`
	Severity string `json:"severity" jsonschema:"error or warning"`
	Code     string `json:"code"`
	Message  string `json:"message"`
}

// DesignReport is design_check's result.
type DesignReport struct {
	Findings []Finding `json:"findings"`
	Errors   int       `json:"errors" jsonschema:"how many findings are errors: 0 means the design is sound"`
}

func addDesignTools(s *mcp.Server) {
	mcp.AddTool(s, &mcp.Tool{Name: "design_check", Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true},
		Description: "Checks a single-table design file as `sortkey design check` does: its structure, every access pattern's key condition " +
			"against the index it queries, key templates and collisions, projections, Scans and wasteful filters. " +
			"Returns each finding with its line and column; a form the parser refuses is an error naming its line."}, checkDesign)
}

func checkDesign(_ context.Context, _ *mcp.CallToolRequest, in DesignInput) (*mcp.CallToolResult, DesignReport, error) {
	file := in.File
	if file == "" {
		file = "design.yaml"
	}
	d, err := design.Parse([]byte(in.Design), file)
	if err != nil {
		return nil, DesignReport{}, err
	}
	rep := DesignReport{Findings: []Finding{}}
	for _, f := range design.Check(d) {
		rep.Findings = append(rep.Findings, Finding{Line: f.Pos.Line, Col: f.Pos.Col, Severity: f.Severity, Code: f.Code, Message: f.Message})
		if f.Severity == design.SeverityError {
			rep.Errors++
		}
	}
	return nil, rep, nil
}
