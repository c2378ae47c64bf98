package console

import (
	"encoding/json"
	"errors"
	"net/http"
	"regexp"
	"strconv"
	"strings"
)

func init() {
	routes = append(routes, func(c *Console) {
		c.mux.HandleFunc("GET /console/partiql", c.partiqlForm)
	})
	postRoute("POST /console/partiql", func(*http.Request) string { return purposePartiQL },
		func(c *Console) http.HandlerFunc { return c.partiql })
}

// purposePartiQL is the token purpose of the editor's form: a statement
// may write, so it is posted behind the same checks as the item forms.
const purposePartiQL = "partiql"

const (
	msgParams    = "Parameters must be a JSON array of DynamoDB JSON values, such as [{\"S\": \"USER#u1\"}, {\"N\": \"3\"}]."
	msgStatement = "Type a PartiQL statement to run."
	msgPLimit    = "The limit must be empty (DynamoDB's 1 MB page) or a whole number from 1 to 1000."
)

// statementTable finds the one table a statement names, so that its rows
// can be grouped by that table's partition key.
var statementTable = regexp.MustCompile(`(?i)\b(?:from|into|update)\s+"([^"]+)"|\b(?:from|into|update)\s+([A-Za-z0-9_.-]+)`)

// executeIn is the ExecuteStatementInput the console sends.
type executeIn struct {
	Statement              string
	Parameters             []map[string]json.RawMessage `json:",omitempty"`
	Limit                  int                          `json:",omitempty"`
	NextToken              string                       `json:",omitempty"`
	ReturnConsumedCapacity string
}

type executeOut struct {
	Items            []item
	NextToken        string
	ConsumedCapacity *struct{ CapacityUnits float64 }
}

// partiqlPage is the editor: the form as typed and what the run gave.
type partiqlPage struct {
	Statement, Params, Limit string
	Token                    string
	Error                    *errorPage
	Ran                      bool
	Count                    int
	Capacity, CLI, Next      string
	Columns                  []string
	Groups                   []group
}

func (c *Console) partiqlForm(w http.ResponseWriter, r *http.Request) {
	c.editor(w, http.StatusOK, partiqlPage{})
}

func (c *Console) editor(w http.ResponseWriter, status int, p partiqlPage) {
	p.Token = formToken(purposePartiQL)
	// Same-origin, not none: a form POST with no referrer policy carries Origin "null".
	w.Header().Set("Referrer-Policy", "same-origin")
	page(w, status, "partiql", p)
}

// partiql runs the posted statement and shows its items or its error,
// the text kept in the form either way.
func (c *Console) partiql(w http.ResponseWriter, r *http.Request) {
	f := r.PostForm
	p := partiqlPage{Statement: f.Get("statement"), Params: f.Get("parameters"), Limit: f.Get("limit")}
	in, err := executeInput(p.Statement, p.Params, f.Get("next"))
	if err == nil {
		in.Limit, err = statementLimit(p.Limit)
	}
	if err == nil {
		p.CLI = executeCLI(endpoint(r), in)
		err = c.execute(r, in, &p)
	}
	if err != nil {
		p.Error = queryError(err)
		c.editor(w, http.StatusBadRequest, p)
		return
	}
	c.editor(w, http.StatusOK, p)
}

func executeInput(statement, params, next string) (executeIn, error) {
	in := executeIn{Statement: statement, NextToken: next, ReturnConsumedCapacity: "TOTAL"}
	if strings.TrimSpace(statement) == "" {
		return in, errors.New(msgStatement)
	}
	if strings.TrimSpace(params) == "" {
		return in, nil
	}
	if decodeObject(params, &in.Parameters) != nil || in.Parameters == nil {
		return in, errors.New(msgParams)
	}
	for _, v := range in.Parameters {
		if len(v) != 1 {
			return in, errors.New(msgParams)
		}
	}
	return in, nil
}

// statementLimit reads the optional limit: empty leaves the page to
// DynamoDB's 1 MB.
func statementLimit(s string) (int, error) {
	if strings.TrimSpace(s) == "" {
		return 0, nil
	}
	n, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil || n < 1 || n > maxLimit {
		return 0, errors.New(msgPLimit)
	}
	return n, nil
}

// execute sends in and fills p: rows grouped by the partition key of the
// table the statement names, or one flat group when that is unknown.
func (c *Console) execute(r *http.Request, in executeIn, p *partiqlPage) error {
	var out executeOut
	if err := c.api.call(r.Context(), "ExecuteStatement", in, &out); err != nil {
		return err
	}
	p.Ran, p.Count, p.Next = true, len(out.Items), out.NextToken
	if cc := out.ConsumedCapacity; cc != nil {
		p.Capacity = strconv.FormatFloat(cc.CapacityUnits, 'f', -1, 64)
	}
	var partition, keys []string
	if m := statementTable.FindStringSubmatch(in.Statement); m != nil {
		if d, err := c.api.describe(r.Context(), m[1]+m[2]); err == nil {
			partition, keys = keyNames(d.KeySchema, "HASH"), keyAttrs(d)
		}
	}
	p.Columns = columns(keys, out.Items)
	p.Groups = groups(partition, p.Columns, out.Items)
	return nil
}

// executeCLI is in as an `aws dynamodb execute-statement` command line.
func executeCLI(endpoint string, in executeIn) string {
	args := []string{"aws", "dynamodb", "execute-statement", "--endpoint-url", endpoint, "--statement", in.Statement}
	if len(in.Parameters) > 0 {
		b, _ := json.Marshal(in.Parameters)
		args = append(args, "--parameters", string(b))
	}
	if in.Limit > 0 {
		args = append(args, "--limit", strconv.Itoa(in.Limit))
	}
	if in.NextToken != "" {
		args = append(args, "--next-token", in.NextToken)
	}
	args = append(args, "--return-consumed-capacity", in.ReturnConsumedCapacity)
	for i, a := range args {
		args[i] = shellQuote(a)
	}
	return strings.Join(args, " ")
}
