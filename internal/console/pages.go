package console

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strconv"
	"strings"
)

// tableRow is one table on the table list.
type tableRow struct {
	Name, Status, Keys, Billing, TTL, Stream string
	Items, Bytes                             int64
	Indexes                                  []string
	Vectors                                  []string // vector.go: searched, not scanned
	Error                                    string   // why the API would not describe it (signin.go: a policy)
}

func (c *Console) tables(w http.ResponseWriter, r *http.Request) {
	names, err := c.api.listTables(r.Context())
	if err != nil {
		failed(w, err)
		return
	}
	rows := make([]tableRow, 0, len(names))
	for _, n := range names {
		tr, err := c.tableRow(r.Context(), n)
		var ae *apiError
		if errors.As(err, &ae) { // a table listed but denied shows why in its row
			tr = tableRow{Name: n, Error: ae.Error()}
		} else if err != nil {
			failed(w, err)
			return
		}
		rows = append(rows, tr)
	}
	page(w, http.StatusOK, "tables", map[string]any{"Tables": rows, "Design": c.design.d != nil})
}

func (c *Console) tableRow(ctx context.Context, name string) (tableRow, error) {
	d, err := c.api.describe(ctx, name)
	if err != nil {
		return tableRow{}, err
	}
	ttl, err := c.api.ttl(ctx, name)
	if err != nil {
		return tableRow{}, err
	}
	tr := tableRow{Name: name, Status: d.TableStatus, Items: d.ItemCount, Bytes: d.TableSizeBytes,
		Keys: schemaText(d.KeySchema), Billing: "PROVISIONED", TTL: "off", Stream: "off"}
	if d.BillingModeSummary != nil && d.BillingModeSummary.BillingMode != "" {
		tr.Billing = d.BillingModeSummary.BillingMode
	}
	if t := ttl.TimeToLiveDescription; t.TimeToLiveStatus == "ENABLED" {
		tr.TTL = t.AttributeName
	}
	if s := d.StreamSpecification; s != nil && s.StreamEnabled {
		tr.Stream = s.StreamViewType
	}
	for _, ix := range allIndexes(d) {
		tr.Indexes = append(tr.Indexes, ix.IndexName)
	}
	tr.Vectors = vectorNames(d)
	return tr, nil
}

// schemaText is a key schema as "pk (HASH), sk (RANGE)".
func schemaText(schema []keyElem) string {
	parts := make([]string, len(schema))
	for i, k := range schema {
		parts[i] = k.AttributeName + " (" + k.KeyType + ")"
	}
	return strings.Join(parts, ", ")
}

func allIndexes(d *tableDoc) []indexDoc {
	return append(append([]indexDoc(nil), d.GlobalSecondaryIndexes...), d.LocalSecondaryIndexes...)
}

// collections is the data of an item collection page, of a table or of
// one of its indexes.
type collections struct {
	Table, Index, Keys, Projection string
	TableItems, IndexItems         int64
	Indexes                        []string
	Partition                      []string
	Columns                        []string
	Groups                         []group
	Count, Limit                   int
	Next, First                    string
	TTL                            string           // the TTL attribute when enabled
	Stream                         string           // the stream view type when enabled (stream.go)
	Vectors                        []vectorIndexDoc // the table's vector indexes (vector.go)
}

func (c *Console) table(w http.ResponseWriter, r *http.Request) {
	c.collections(w, r, r.PathValue("table"), "")
}

func (c *Console) index(w http.ResponseWriter, r *http.Request) {
	c.collections(w, r, r.PathValue("table"), r.PathValue("index"))
}

// collections renders one Scan page of a table or index, grouped by its
// partition key: the page's items only, never the table whole.
func (c *Console) collections(w http.ResponseWriter, r *http.Request, table, index string) {
	d, err := c.api.describe(r.Context(), table)
	if err != nil {
		failed(w, err)
		return
	}
	start, limit, err := paging(r)
	if err != nil {
		page(w, http.StatusBadRequest, "error", errorPage{Title: "Bad request", Message: err.Error()})
		return
	}
	out, err := c.api.scan(r.Context(), scanIn{TableName: table, IndexName: index, Limit: limit, ExclusiveStartKey: start})
	if err != nil {
		notFoundIndex(w, d, index, err)
		return
	}
	v := c.view(d, index, limit, out)
	if t, err := c.api.ttl(r.Context(), table); index == "" && err == nil && t.TimeToLiveDescription.TimeToLiveStatus == "ENABLED" {
		v.TTL = t.TimeToLiveDescription.AttributeName // ttl.go links to its view
	}
	page(w, http.StatusOK, "collections", v)
}

// notFoundIndex answers a failed Scan: an index the table lacks is a 404
// with the API's own message.
func notFoundIndex(w http.ResponseWriter, d *tableDoc, index string, err error) {
	if findVectorIndex(d, index) != nil { // Scan cannot read it; its own page searches it (vector.go)
		w.Header().Set("Location", vectorURL(d.TableName, index))
		w.WriteHeader(http.StatusSeeOther)
		return
	}
	if ae, ok := err.(*apiError); ok && index != "" && findIndex(d, index) == nil {
		page(w, http.StatusNotFound, "error", errorPage{Title: "Not found", Type: ae.Type, Message: ae.Message})
		return
	}
	failed(w, err)
}

func findIndex(d *tableDoc, name string) *indexDoc {
	for _, ix := range allIndexes(d) {
		if ix.IndexName == name {
			return &ix
		}
	}
	return nil
}

func (c *Console) view(d *tableDoc, index string, limit int, out *scanOut) collections {
	v := collections{Table: d.TableName, Index: index, TableItems: d.ItemCount, Count: len(out.Items), Limit: limit}
	schema := d.KeySchema
	if ix := findIndex(d, index); ix != nil {
		schema = ix.KeySchema
		v.IndexItems = ix.ItemCount
		v.Projection = ix.Projection.ProjectionType
	}
	for _, ix := range allIndexes(d) {
		v.Indexes = append(v.Indexes, ix.IndexName)
	}
	v.Keys = schemaText(schema)
	if st := d.StreamSpecification; st != nil && st.StreamEnabled && index == "" {
		v.Stream = st.StreamViewType
	}
	if index == "" {
		v.Vectors = d.VectorIndexes
	}
	v.Partition = keyNames(schema, "HASH")
	keys := append(append(keyNames(schema, "HASH"), keyNames(schema, "RANGE")...), keyNames(d.KeySchema, "HASH")...)
	v.Columns = columns(append(keys, keyNames(d.KeySchema, "RANGE")...), out.Items)
	v.Groups = groups(v.Partition, v.Columns, out.Items)
	if index == "" {
		addEdits(d, v.Groups, out.Items) // items.go
	}
	v.First = pageURL(d.TableName, index, "", limit)
	if tok := encodeToken(out.LastEvaluatedKey); tok != "" {
		v.Next = pageURL(d.TableName, index, tok, limit)
	}
	return v
}

func pageURL(table, index, start string, limit int) string {
	u := tableURL(table)
	if index != "" {
		u = indexURL(table, index)
	}
	q := url.Values{}
	if start != "" {
		q.Set("start", start)
	}
	if limit != defaultLimit {
		q.Set("limit", strconv.Itoa(limit))
	}
	if len(q) == 0 {
		return u
	}
	return u + "?" + q.Encode()
}
