package console

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"strconv"
	"strings"
)

func init() {
	routes = append(routes, func(c *Console) {
		c.mux.HandleFunc("GET /console/tables/{table}/query", c.query)
	})
}

const (
	msgNames  = "Expression attribute names must be a JSON object of strings, such as {\"#s\": \"status\"}."
	msgValues = "Expression attribute values must be a JSON object of DynamoDB JSON values, such as {\":pk\": {\"S\": \"USER#u1\"}}."
)

// queryForm is what the user typed, kept as typed so that a page with an
// error shows the form as it was.
type queryForm struct {
	Index, Key, Filter, Projection, Names, Values, Limit, Start string
	Backward, Consistent                                        bool
}

// queryIn is the QueryInput the console sends; shown as SDK JSON, it is
// exactly the request body.
type queryIn struct {
	TableName                 string
	IndexName                 string                                `json:",omitempty"`
	KeyConditionExpression    string                                `json:",omitempty"`
	FilterExpression          string                                `json:",omitempty"`
	ProjectionExpression      string                                `json:",omitempty"`
	ExpressionAttributeNames  map[string]string                     `json:",omitempty"`
	ExpressionAttributeValues map[string]map[string]json.RawMessage `json:",omitempty"`
	ScanIndexForward          *bool                                 `json:",omitempty"`
	Limit                     int
	ConsistentRead            bool `json:",omitempty"`
	ExclusiveStartKey         item `json:",omitempty"`
	ReturnConsumedCapacity    string
}

type queryOut struct {
	Items            []item
	Count            int
	ScannedCount     int
	LastEvaluatedKey item
	ConsumedCapacity *struct {
		TableName     string
		CapacityUnits float64
	}
}

// queryPage is the data of the query builder page.
type queryPage struct {
	Table      string
	Indexes    []string
	Form       queryForm
	Error      *errorPage
	Ran        bool
	SDK, CLI   string
	Count      int
	Scanned    int
	Capacity   string
	Partition  []string
	Columns    []string
	Groups     []group
	Next, This string
}

// query shows the form and, once a key condition is given, runs the
// Query it describes: a GET, so a result is a URL to share.
func (c *Console) query(w http.ResponseWriter, r *http.Request) {
	d, err := c.api.describe(r.Context(), r.PathValue("table"))
	if err != nil {
		failed(w, err)
		return
	}
	p := queryPage{Table: d.TableName, Form: readForm(r.URL.Query())}
	for _, ix := range allIndexes(d) {
		p.Indexes = append(p.Indexes, ix.IndexName)
	}
	if p.Form.Key == "" {
		page(w, http.StatusOK, "query", p)
		return
	}
	in, err := p.Form.input(d.TableName)
	if err == nil {
		err = c.run(r, d, in, &p)
	}
	if err != nil {
		p.Error = queryError(err)
		page(w, http.StatusBadRequest, "query", p)
		return
	}
	page(w, http.StatusOK, "query", p)
}

func readForm(q url.Values) queryForm {
	f := queryForm{Index: q.Get("index"), Key: q.Get("key"), Filter: q.Get("filter"),
		Projection: q.Get("projection"), Names: q.Get("names"), Values: q.Get("values"),
		Limit: q.Get("limit"), Start: q.Get("start"),
		Backward: q.Get("direction") == "backward", Consistent: q.Get("consistent") != ""}
	if f.Limit == "" {
		f.Limit = strconv.Itoa(defaultLimit)
	}
	return f
}

// input is the QueryInput the form describes, or why it describes none.
func (f queryForm) input(table string) (queryIn, error) {
	in := queryIn{TableName: table, IndexName: f.Index, KeyConditionExpression: f.Key,
		FilterExpression: f.Filter, ProjectionExpression: f.Projection,
		ConsistentRead: f.Consistent, ReturnConsumedCapacity: "TOTAL"}
	n, err := strconv.Atoi(strings.TrimSpace(f.Limit))
	if err != nil || n < 1 || n > maxLimit {
		return in, errors.New(msgLimit)
	}
	in.Limit = n
	if f.Backward {
		in.ScanIndexForward = new(false)
	}
	if in.ExclusiveStartKey, err = decodeToken(f.Start); err != nil {
		return in, err
	}
	if err := decodeObject(f.Names, &in.ExpressionAttributeNames); err != nil {
		return in, errors.New(msgNames)
	}
	if err := decodeValues(f.Values, &in.ExpressionAttributeValues); err != nil {
		return in, errors.New(msgValues)
	}
	return in, nil
}

// decodeObject reads an optional JSON object, refusing anything after it.
func decodeObject(s string, v any) error {
	if strings.TrimSpace(s) == "" {
		return nil
	}
	dec := json.NewDecoder(strings.NewReader(s))
	if err := dec.Decode(v); err != nil {
		return err
	}
	if dec.More() {
		return errors.New("trailing data")
	}
	return nil
}

// decodeValues reads the values as DynamoDB JSON: each one an object of
// exactly one type; the API checks the rest.
func decodeValues(s string, v *map[string]map[string]json.RawMessage) error {
	if err := decodeObject(s, v); err != nil {
		return err
	}
	for _, av := range *v {
		if len(av) != 1 {
			return errors.New("not one type")
		}
	}
	return nil
}

// run sends in and fills the page with what the API answered.
func (c *Console) run(r *http.Request, d *tableDoc, in queryIn, p *queryPage) error {
	p.SDK, p.CLI = sdkJSON(in), cliCommand(endpoint(r), in)
	var out queryOut
	if err := c.api.call(r.Context(), "Query", in, &out); err != nil {
		return err
	}
	p.Ran, p.Count, p.Scanned = true, out.Count, out.ScannedCount
	if cc := out.ConsumedCapacity; cc != nil {
		p.Capacity = strconv.FormatFloat(cc.CapacityUnits, 'f', -1, 64)
	}
	schema := d.KeySchema
	if ix := findIndex(d, in.IndexName); ix != nil {
		schema = ix.KeySchema
	}
	p.Partition = keyNames(schema, "HASH")
	keys := append(append(keyNames(schema, "HASH"), keyNames(schema, "RANGE")...), keyNames(d.KeySchema, "HASH")...)
	p.Columns = columns(append(keys, keyNames(d.KeySchema, "RANGE")...), out.Items)
	p.Groups = groups(p.Partition, p.Columns, out.Items)
	if tok := encodeToken(out.LastEvaluatedKey); tok != "" {
		p.Next = queryURL(d.TableName, r.URL.Query(), tok)
	}
	return nil
}

// queryError is an error as the page shows it beside the form.
func queryError(err error) *errorPage {
	var ae *apiError
	if errors.As(err, &ae) {
		return &errorPage{Type: ae.Type, Message: ae.Message}
	}
	return &errorPage{Message: err.Error()}
}

// queryURL is this query's page starting at token: the form's fields as
// they were, so the next page is the same query.
func queryURL(table string, q url.Values, token string) string {
	next := url.Values{}
	for k, v := range q {
		next[k] = v
	}
	next.Set("start", token)
	return tableURL(table) + "/query?" + next.Encode()
}

func sdkJSON(in any) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	_ = enc.Encode(in)
	return strings.TrimSpace(b.String())
}

// endpoint is the URL the browser reached the console at, which is the
// API's too, so the command runs against this server.
func endpoint(r *http.Request) string {
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	return scheme + "://" + r.Host
}
