package console

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
)

// A vector index is read by SearchVectors only (Query and Scan refuse
// it), so it has a page of its own, a search form, rather than a place
// among the views and the query builder's indexes.

func init() {
	routes = append(routes, func(c *Console) {
		c.mux.HandleFunc("GET /console/tables/{table}/vector-indexes/{index}", c.vectorSearch)
	})
}

const (
	defaultTopK       = "10"
	msgNoVectorIndex  = "Table %s has no vector index named %s."
	msgVectorEmpty    = "Paste a search vector: a JSON array of numbers, such as [0.12, -0.5, 0.33]."
	msgVectorJSON     = "The search vector must be a JSON array of numbers, such as [0.12, -0.5, 0.33]; nothing was sent."
	msgVectorLength   = "The search vector has %d numbers, but index %s has %d dimensions; nothing was sent."
	msgTopK           = "TopK must be a whole number (DynamoDB takes 1 to 100)."
	msgHashRequired   = "Give a value for %s: it is the index's HASH attribute, and every search of this index names one."
	schemaHash        = "HASH"
	paramSchemaPrefix = "eq."
)

// vectorIndexDoc is a VectorIndexDescription as DescribeTable answers it.
type vectorIndexDoc struct {
	IndexName        string
	IndexStatus      string
	Backfilling      *bool
	VectorAttribute  struct{ AttributeName string }
	Dimensions       int
	DistanceFunction string
	SearchSchema     []struct{ AttributeName, SearchSchemaElementType string }
	Projection       struct {
		ProjectionType   string
		NonKeyAttributes []string
	}
	ItemCount int64
}

// State is the index's status, with the backfill DescribeTable reports
// beside it: a backfilling index refuses searches.
func (v vectorIndexDoc) State() string {
	if v.Backfilling != nil && *v.Backfilling {
		return v.IndexStatus + " (backfilling)"
	}
	return v.IndexStatus
}

// Schema is the search schema as "cat (HASH), price (INLINE_FILTER)".
func (v vectorIndexDoc) Schema() string {
	parts := make([]string, len(v.SearchSchema))
	for i, e := range v.SearchSchema {
		parts[i] = e.AttributeName + " (" + e.SearchSchemaElementType + ")"
	}
	return strings.Join(parts, ", ")
}

// ProjectionText is the projection type, with INCLUDE's attributes.
func (v vectorIndexDoc) ProjectionText() string {
	if len(v.Projection.NonKeyAttributes) == 0 {
		return v.Projection.ProjectionType
	}
	return v.Projection.ProjectionType + ": " + strings.Join(v.Projection.NonKeyAttributes, ", ")
}

func findVectorIndex(d *tableDoc, name string) *vectorIndexDoc {
	for i := range d.VectorIndexes {
		if d.VectorIndexes[i].IndexName == name {
			return &d.VectorIndexes[i]
		}
	}
	return nil
}

func vectorURL(table, index string) string {
	return tableURL(table) + "/vector-indexes/" + url.PathEscape(index)
}

// vectorNames are a table's vector index names, for the table list.
func vectorNames(d *tableDoc) []string {
	var names []string
	for _, v := range d.VectorIndexes {
		names = append(names, v.IndexName)
	}
	return names
}

// searchField is one SearchSchema attribute on the form: the HASH value
// (required) or an INLINE_FILTER equality (optional).
type searchField struct {
	Name, Kind, Type, Param, Value string
}

// vectorForm is what the user typed, kept as typed so that a page with an
// error shows the form as it was.
type vectorForm struct {
	Vector, TopK, Projection string
	Fields                   []searchField
}

// searchIn is the SearchVectorsInput the console sends; shown as SDK
// JSON, it is exactly the request body.
type searchIn struct {
	TableName                 string
	IndexName                 string
	SearchVector              []map[string]string
	TopK                      int
	SearchConditionExpression string                       `json:",omitempty"`
	ExpressionAttributeNames  map[string]string            `json:",omitempty"`
	ExpressionAttributeValues map[string]map[string]string `json:",omitempty"`
	ProjectionExpression      string                       `json:",omitempty"`
	ReturnConsumedCapacity    string
}

type searchOut struct {
	SearchResults []struct {
		Item  item
		Score json.Number
	}
	ConsumedCapacity *struct{ VectorSearchRequestBytes json.Number }
}

// searchResult is one result row: its rank, score and attributes.
type searchResult struct {
	Rank  int
	Score string
	Cells []cell
}

// vectorPage is the data of a vector index's search page.
type vectorPage struct {
	Table    string
	Index    vectorIndexDoc
	Form     vectorForm
	Error    *errorPage
	Ran      bool
	SDK, CLI string
	Capacity string
	Columns  []string
	Results  []searchResult
}

// vectorSearch shows the index and its search form and, once a vector is
// given, runs the search: a GET, as a search writes nothing, so a result
// is a URL to share.
func (c *Console) vectorSearch(w http.ResponseWriter, r *http.Request) {
	d, err := c.api.describe(r.Context(), r.PathValue("table"))
	if err != nil {
		failed(w, err)
		return
	}
	ix := findVectorIndex(d, r.PathValue("index"))
	if ix == nil {
		msg := fmt.Sprintf(msgNoVectorIndex, d.TableName, r.PathValue("index"))
		page(w, http.StatusNotFound, "error", errorPage{Title: "Not found", Message: msg})
		return
	}
	q := r.URL.Query()
	p := vectorPage{Table: d.TableName, Index: *ix, Form: readVectorForm(q, d, ix)}
	if !q.Has("vector") {
		page(w, http.StatusOK, "vector", p)
		return
	}
	if err := c.search(r, d, &p); err != nil {
		p.Error = queryError(err)
		page(w, http.StatusBadRequest, "vector", p)
		return
	}
	page(w, http.StatusOK, "vector", p)
}

func readVectorForm(q url.Values, d *tableDoc, ix *vectorIndexDoc) vectorForm {
	f := vectorForm{Vector: q.Get("vector"), TopK: q.Get("topk"), Projection: q.Get("projection")}
	if f.TopK == "" {
		f.TopK = defaultTopK
	}
	for _, e := range ix.SearchSchema {
		param := paramSchemaPrefix + e.AttributeName
		f.Fields = append(f.Fields, searchField{Name: e.AttributeName, Kind: e.SearchSchemaElementType,
			Type: attributeType(d, e.AttributeName), Param: param, Value: q.Get(param)})
	}
	return f
}

// attributeType is the type AttributeDefinitions declare for name; a
// search schema attribute always has one.
func attributeType(d *tableDoc, name string) string {
	for _, a := range d.AttributeDefinitions {
		if a.AttributeName == name {
			return a.AttributeType
		}
	}
	return "S"
}

// search sends the search the form describes and fills the page with
// what the API answered.
func (c *Console) search(r *http.Request, d *tableDoc, p *vectorPage) error {
	in, err := p.Form.input(d.TableName, p.Index)
	if err != nil {
		return err
	}
	p.SDK, p.CLI = sdkJSON(in), searchCLI(endpoint(r), in)
	var out searchOut
	if err := c.api.call(r.Context(), "SearchVectors", in, &out); err != nil {
		return err
	}
	p.Ran = true
	if cc := out.ConsumedCapacity; cc != nil {
		p.Capacity = cc.VectorSearchRequestBytes.String()
	}
	items := make([]item, len(out.SearchResults))
	for i, res := range out.SearchResults {
		items[i] = res.Item
	}
	p.Columns = columns(append(keyNames(d.KeySchema, "HASH"), keyNames(d.KeySchema, "RANGE")...), items)
	for i, res := range out.SearchResults {
		p.Results = append(p.Results, searchResult{Rank: i + 1, Score: res.Score.String(), Cells: row(p.Columns, res.Item)})
	}
	return nil
}

// input is the SearchVectorsInput the form describes, or why it
// describes none: a vector of the wrong shape is never sent. TopK's range
// is left to the API, whose own message then shows.
func (f vectorForm) input(table string, ix vectorIndexDoc) (searchIn, error) {
	in := searchIn{TableName: table, IndexName: ix.IndexName, ProjectionExpression: strings.TrimSpace(f.Projection),
		ReturnConsumedCapacity: "TOTAL"}
	vec, err := parseVector(f.Vector, ix.IndexName, ix.Dimensions)
	if err != nil {
		return in, err
	}
	for _, n := range vec {
		in.SearchVector = append(in.SearchVector, map[string]string{"N": n})
	}
	if in.TopK, err = strconv.Atoi(strings.TrimSpace(f.TopK)); err != nil {
		return in, errors.New(msgTopK)
	}
	return in, f.condition(&in)
}

// condition adds one equality per filled-in schema attribute, each name
// and value by placeholder, so that reserved words and any value pass
// as they are.
func (f vectorForm) condition(in *searchIn) error {
	var parts []string
	for i, fl := range f.Fields {
		if fl.Value == "" {
			if fl.Kind == schemaHash {
				return fmt.Errorf(msgHashRequired, fl.Name)
			}
			continue
		}
		name, value := "#s"+strconv.Itoa(i), ":s"+strconv.Itoa(i)
		parts = append(parts, name+" = "+value)
		in.ExpressionAttributeNames = setKey(in.ExpressionAttributeNames, name, fl.Name)
		in.ExpressionAttributeValues = setKey(in.ExpressionAttributeValues, value, map[string]string{fl.Type: fl.Value})
	}
	in.SearchConditionExpression = strings.Join(parts, " AND ")
	return nil
}

func setKey[V any](m map[string]V, k string, v V) map[string]V {
	if m == nil {
		m = map[string]V{}
	}
	m[k] = v
	return m
}

// parseVector reads a pasted vector: a JSON array of numbers, as many as
// the index's dimensions. Each number is kept as typed; the API decides
// whether it fits a 32-bit float.
func parseVector(s, index string, dims int) ([]string, error) {
	if strings.TrimSpace(s) == "" {
		return nil, errors.New(msgVectorEmpty)
	}
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	var raw []any
	if err := dec.Decode(&raw); err != nil || dec.More() || raw == nil {
		return nil, errors.New(msgVectorJSON)
	}
	out := make([]string, len(raw))
	for i, v := range raw {
		n, ok := v.(json.Number)
		if !ok {
			return nil, errors.New(msgVectorJSON)
		}
		out[i] = n.String()
	}
	if len(out) != dims {
		return nil, fmt.Errorf(msgVectorLength, len(out), index, dims)
	}
	return out, nil
}

// searchCLI is in as an `aws dynamodb search-vectors` command line for a
// POSIX shell, quoted as cliCommand quotes a query.
func searchCLI(endpoint string, in searchIn) string {
	args := []string{"aws", "dynamodb", "search-vectors", "--endpoint-url", endpoint,
		"--table-name", in.TableName, "--index-name", in.IndexName,
		"--search-vector", oneLine(in.SearchVector), "--top-k", strconv.Itoa(in.TopK)}
	opt := func(flag, v string) {
		if v != "" {
			args = append(args, flag, v)
		}
	}
	opt("--search-condition-expression", in.SearchConditionExpression)
	opt("--expression-attribute-names", compact(in.ExpressionAttributeNames))
	opt("--expression-attribute-values", compact(in.ExpressionAttributeValues))
	opt("--projection-expression", in.ProjectionExpression)
	args = append(args, "--return-consumed-capacity", in.ReturnConsumedCapacity)
	for i, a := range args {
		args[i] = shellQuote(a)
	}
	return strings.Join(args, " ")
}

// oneLine is v as one line of JSON, unescaped for HTML (the page escapes).
func oneLine(v any) string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
	return strings.TrimSpace(b.String())
}
