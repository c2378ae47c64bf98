package agent

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/sortkeydb/sortkey/internal/design"
	"github.com/sortkeydb/sortkey/internal/design/apply"
	"github.com/sortkeydb/sortkey/internal/inproc"
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

func addDesignTools(s *mcp.Server, h http.Handler, opts Options) {
	mcp.AddTool(s, &mcp.Tool{Name: "design_check", Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true},
		Description: "Checks a single-table design file as `sortkey design check` does: its structure, every access pattern's key condition " +
			"against the index it queries, key templates and collisions, projections, Scans and wasteful filters. " +
			"Returns each finding with its line and column; a form the parser refuses is an error naming its line."}, checkDesign)
	mcp.AddTool(s, &mcp.Tool{Name: "design_apply",
		Description: "Makes a design file's tables exist on this sortkey as designed, as `sortkey design apply` does: creates missing tables, " +
			"indexes and TTL settings, and reports every change and every difference it could not make (a key schema, say). " +
			"With dry_run it only reports."}, applier(h, opts))
}

// ApplyInput is design_apply's input.
type ApplyInput struct {
	DesignInput
	DryRun bool `json:"dry_run,omitempty" jsonschema:"report what would change and change nothing"`
}

// ApplyReport is design_apply's result.
type ApplyReport struct {
	Changes     []string `json:"changes" jsonschema:"what was changed (with dry_run: would be)"`
	Differences []string `json:"differences" jsonschema:"how live tables still differ from the design, with what to do"`
	Matches     bool     `json:"matches" jsonschema:"true when the tables are now as designed"`
}

func applier(h http.Handler, opts Options) mcp.ToolHandlerFor[ApplyInput, ApplyReport] {
	client := dynamodb.New(dynamodb.Options{Region: "us-east-1", BaseEndpoint: aws.String("http://sortkey.agent"),
		Credentials: aws.AnonymousCredentials{}, HTTPClient: &http.Client{Transport: inproc.Transport{Handler: h}}})
	return func(ctx context.Context, _ *mcp.CallToolRequest, in ApplyInput) (*mcp.CallToolResult, ApplyReport, error) {
		if opts.ReadOnly && !in.DryRun {
			return nil, ApplyReport{}, fmt.Errorf(msgReadOnly, "design_apply")
		}
		d, err := design.Parse([]byte(in.Design), fileName(in.File))
		if err != nil {
			return nil, ApplyReport{}, err
		}
		// Tables are ACTIVE at once on sortkey: poll often, not each second.
		rep, err := apply.Apply(ctx, client, d, apply.Options{DryRun: in.DryRun, Poll: 10 * time.Millisecond})
		if err != nil {
			return nil, ApplyReport{}, err
		}
		out := ApplyReport{Changes: []string{}, Differences: []string{}, Matches: rep.Matches()}
		for _, c := range rep.Changes {
			out.Changes = append(out.Changes, c.String())
		}
		for _, d := range rep.Differences {
			out.Differences = append(out.Differences, d.String())
		}
		return nil, out, nil
	}
}

// fileName is the name findings give a design file.
func fileName(file string) string {
	if file == "" {
		return "design.yaml"
	}
	return file
}

func checkDesign(_ context.Context, _ *mcp.CallToolRequest, in DesignInput) (*mcp.CallToolResult, DesignReport, error) {
	d, err := design.Parse([]byte(in.Design), fileName(in.File))
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
