package main

// `sortkey auth check` is DynamoDB's policy simulator, locally: it
// decides one request as a principal of an auth file would have it
// decided by `sortkey serve --auth`, and prints each authorisation the
// request needs, allowed or denied, with the statement that decided.

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/sortkeydb/sortkey/internal/auth"
	"github.com/sortkeydb/sortkey/internal/auth/access"
	"github.com/sortkeydb/sortkey/internal/engine"
	"github.com/sortkeydb/sortkey/internal/protocol"
	"github.com/sortkeydb/sortkey/internal/server"
)

// checkRequest is the --request file: the call to decide, and the tables
// it touches as CreateTable requests (their keys say which attributes are
// leading keys; a ResourcePolicy among them takes part in the decision).
type checkRequest struct {
	Operation string            `json:"operation"`
	Request   json.RawMessage   `json:"request"`
	SourceIP  string            `json:"sourceIp"`
	Time      string            `json:"time"`
	Tables    []json.RawMessage `json:"tables"`
}

type checkFlags struct{ authFile, as, request, region string }

const authUsage = "usage: sortkey auth check --auth FILE --as ARN --request FILE.json [--region us-east-1]"

func authCmd(args []string, stdout, stderr io.Writer) int {
	if len(args) == 1 && isHelp(args[0]) {
		fmt.Fprintln(stdout, authUsage)
		return 0
	}
	if len(args) == 0 || args[0] != "check" {
		fmt.Fprintln(stderr, authUsage)
		return 2
	}
	var f checkFlags
	fs := flag.NewFlagSet("auth check", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&f.authFile, "auth", "", "the auth file (as for sortkey serve --auth)")
	fs.StringVar(&f.as, "as", "", "ARN of the auth file's principal making the request")
	fs.StringVar(&f.request, "request", "", `JSON file: {"operation": "GetItem", "request": {...}, "tables": [CreateTable requests], "sourceIp": "...", "time": "RFC 3339"}`)
	fs.StringVar(&f.region, "region", "us-east-1", "region named in ARNs")
	if err := parseArgs(fs, args[1:]); err != nil {
		return exitUsage(err, fs, stdout)
	}
	if f.authFile == "" || f.as == "" || f.request == "" || fs.NArg() > 0 {
		fmt.Fprintln(stderr, "sortkey auth check: --auth, --as and --request are required, and nothing else")
		return 2
	}
	allowed, err := authCheck(f, stdout)
	if err != nil {
		fmt.Fprintln(stderr, "sortkey auth check:", err)
		return 2
	}
	if !allowed {
		return 1
	}
	return 0
}

// authCheck decides the request and prints the decisions; it reports
// whether every one allowed.
func authCheck(f checkFlags, w io.Writer) (bool, error) {
	cfg, err := auth.Load(f.authFile)
	if err != nil {
		return false, err
	}
	p, err := cfg.Principal(f.as)
	if err != nil {
		return false, err
	}
	req, at, err := readCheckRequest(f.request)
	if err != nil {
		return false, err
	}
	eng, err := engine.Open(engine.Options{InMemory: true, Region: f.region, Account: cfg.Account()})
	if err != nil {
		return false, err
	}
	defer eng.Close()
	decisions, err := simulate(eng, cfg, p, req, at)
	if err != nil {
		return false, err
	}
	return printDecisions(w, p.Arn, req.Operation, decisions), nil
}

func readCheckRequest(path string) (*checkRequest, time.Time, error) {
	var req checkRequest
	data, err := os.ReadFile(path)
	if err == nil {
		err = strictJSON(data, &req)
	}
	if err != nil {
		return nil, time.Time{}, fmt.Errorf("%s: %w", path, err)
	}
	if req.Operation == "" || req.Request == nil {
		return nil, time.Time{}, fmt.Errorf("%s: operation and request are required", path)
	}
	if req.SourceIP == "" {
		req.SourceIP = "127.0.0.1"
	}
	at := time.Now()
	if req.Time != "" {
		if at, err = time.Parse(time.RFC3339, req.Time); err != nil {
			return nil, time.Time{}, fmt.Errorf("%s: time: %w", path, err)
		}
	}
	return &req, at, nil
}

func strictJSON(data []byte, v any) error {
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.DisallowUnknownFields()
	return dec.Decode(v)
}

// simulate creates the request's tables in eng and decides the request.
func simulate(eng *engine.Engine, cfg *auth.Config, p *auth.Principal, req *checkRequest, at time.Time) ([]auth.Decision, error) {
	h := server.New(eng, nil)
	for i, raw := range req.Tables {
		in, err := h.Decode("CreateTable", raw)
		if err == nil {
			_, err = eng.CreateTable(context.Background(), in.(*protocol.CreateTableInput))
		}
		if err != nil {
			return nil, fmt.Errorf("tables[%d]: %w", i, err)
		}
	}
	in, err := h.Decode(req.Operation, req.Request)
	if err != nil {
		return nil, fmt.Errorf("request: %w", err)
	}
	a := auth.New(cfg, eng.Region(), auth.TablesOf(eng.AuthCatalog(), eng.ResourcePolicy), func() time.Time { return at })
	return a.Explain(p, req.SourceIP, at, req.Operation, in)
}

func printDecisions(w io.Writer, arn, op string, ds []auth.Decision) bool {
	fmt.Fprintf(w, "%s as %s\n", op, arn)
	allowed := len(ds) > 0
	for _, d := range ds {
		allowed = allowed && d.Allowed
		printDecision(w, d)
	}
	if len(ds) == 0 {
		fmt.Fprintln(w, "no authorisation applies to this request")
	}
	fmt.Fprintln(w, "result:", verdict(allowed))
	return allowed
}

func printDecision(w io.Writer, d auth.Decision) {
	fmt.Fprintf(w, "\n%s %s on %s\n", verdict(d.Allowed), d.Check.Action, d.Check.Resource)
	for _, k := range sortedKeys(d.Check.Keys) {
		fmt.Fprintf(w, "  %s = %q\n", k, d.Check.Keys[k])
	}
	if d.Statement != nil {
		fmt.Fprintf(w, "  decided by %s, Statement[%d]%s:\n    %s\n", d.Policy, d.Statement.Index, sid(d.Statement.Sid), d.Statement.JSON())
	}
	if !d.Allowed {
		fmt.Fprintf(w, "  AccessDeniedException: %s\n", d.Message)
	}
	if scansEveryPartition(d) {
		fmt.Fprintln(w, "  warning: "+scanWarning)
	}
}

const scanWarning = "this request names no partition, so the statement's dynamodb:LeadingKeys condition does not limit it: it reads every tenant's items, here as on DynamoDB"

// scansEveryPartition reports a Scan or full-scan SELECT allowed by a
// statement that looks meant to confine its caller to some partitions.
func scansEveryPartition(d auth.Decision) bool {
	_, named := d.Check.Keys[access.KeyLeadingKeys]
	return d.Allowed && !named && d.Statement != nil && (d.Check.Action == "dynamodb:Scan" || d.Check.Action == "dynamodb:PartiQLSelect") &&
		strings.Contains(strings.ToLower(d.Statement.JSON()), "dynamodb:leadingkeys")
}

func verdict(allowed bool) string {
	if allowed {
		return "ALLOW"
	}
	return "DENY"
}

func sid(s string) string {
	if s == "" {
		return ""
	}
	return fmt.Sprintf(" (Sid %q)", s)
}

func sortedKeys(m map[string][]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
