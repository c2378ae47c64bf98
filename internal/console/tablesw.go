package console

import (
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"strings"
)

func init() {
	routes = append(routes, func(c *Console) {
		c.mux.HandleFunc("GET /console/tables/new", c.newTable)
		c.mux.HandleFunc("GET /console/tables/{table}/delete", c.confirmDelete)
	})
	postRoute("POST /console/tables/new", func(*http.Request) string { return "create-table" },
		func(c *Console) http.HandlerFunc { return c.createTable })
	postRoute("POST /console/tables/{table}/delete", purposeOf("delete-table"),
		func(c *Console) http.HandlerFunc { return c.deleteTable })
}

const (
	msgGSIs     = "Global secondary indexes must be a JSON array of GlobalSecondaryIndex objects, as in CreateTable."
	msgDefs     = "Index key attributes must be a JSON array of {\"AttributeName\": …, \"AttributeType\": \"S\" | \"N\" | \"B\"}."
	msgCapacity = "Provisioned capacity must be whole numbers of at least 1."
	msgConfirm  = "To delete the table, type its name exactly in the confirmation field. Nothing was deleted."
)

// tableForm is the create-table form as typed, kept on an error.
type tableForm struct {
	Name, PK, PKType, SK, SKType, Billing, RCU, WCU, GSIs, Defs string
}

type tablePage struct {
	Form     tableForm
	KeyTypes []string
	Request  string
	Error    *apiError
	Token    string
}

type attrDef struct{ AttributeName, AttributeType string }

// createIn is the CreateTable request; shown as JSON, it is exactly the body sent.
type createIn struct {
	TableName              string
	AttributeDefinitions   []attrDef
	KeySchema              []keyElem
	BillingMode            string
	ProvisionedThroughput  *throughput       `json:",omitempty"`
	GlobalSecondaryIndexes []json.RawMessage `json:",omitempty"`
}

type throughput struct{ ReadCapacityUnits, WriteCapacityUnits int }

func (c *Console) tableForm(w http.ResponseWriter, status int, p tablePage) {
	p.Token, p.KeyTypes = formToken("create-table"), []string{"S", "N", "B"}
	w.Header().Set("Referrer-Policy", "same-origin") // see itemForm
	page(w, status, "newtable", p)
}

func (c *Console) newTable(w http.ResponseWriter, r *http.Request) {
	c.tableForm(w, http.StatusOK, tablePage{Form: tableForm{PKType: "S", SKType: "S", Billing: "PAY_PER_REQUEST", RCU: "5", WCU: "5"}})
}

// createTable previews the CreateTable request, or sends it.
func (c *Console) createTable(w http.ResponseWriter, r *http.Request) {
	f := r.PostForm
	p := tablePage{Form: tableForm{Name: f.Get("name"), PK: f.Get("pk"), PKType: f.Get("pktype"), SK: f.Get("sk"),
		SKType: f.Get("sktype"), Billing: f.Get("billing"), RCU: f.Get("rcu"), WCU: f.Get("wcu"), GSIs: f.Get("gsis"), Defs: f.Get("defs")}}
	in, err := p.Form.input()
	if b, _ := json.MarshalIndent(in, "", "  "); err == nil {
		p.Request = string(b)
	}
	if err == nil && f.Get("action") == "preview" {
		c.tableForm(w, http.StatusOK, p)
		return
	}
	if err == nil {
		err = c.api.call(r.Context(), "CreateTable", in, &struct{}{})
	}
	if err != nil {
		p.Error = asAPIError(err)
		c.tableForm(w, http.StatusBadRequest, p)
		return
	}
	http.Redirect(w, r, tableURL(in.TableName), http.StatusSeeOther)
}

func (f tableForm) input() (createIn, error) {
	in := createIn{TableName: strings.TrimSpace(f.Name), BillingMode: f.Billing,
		AttributeDefinitions: []attrDef{{f.PK, f.PKType}}, KeySchema: []keyElem{{f.PK, "HASH"}}}
	if f.SK != "" {
		in.AttributeDefinitions = append(in.AttributeDefinitions, attrDef{f.SK, f.SKType})
		in.KeySchema = append(in.KeySchema, keyElem{f.SK, "RANGE"})
	}
	if f.Billing == "PROVISIONED" {
		r, err1 := strconv.Atoi(f.RCU)
		w, err2 := strconv.Atoi(f.WCU)
		if err1 != nil || err2 != nil || r < 1 || w < 1 {
			return in, errors.New(msgCapacity)
		}
		in.ProvisionedThroughput = &throughput{r, w}
	}
	if strings.TrimSpace(f.GSIs) != "" && decodeOne(f.GSIs, &in.GlobalSecondaryIndexes) != nil {
		return in, errors.New(msgGSIs)
	}
	var defs []attrDef
	if strings.TrimSpace(f.Defs) != "" && decodeOne(f.Defs, &defs) != nil {
		return in, errors.New(msgDefs)
	}
	in.AttributeDefinitions = append(in.AttributeDefinitions, defs...)
	return in, nil
}

// confirmDelete is the delete form, on a page of its own so that its
// POST carries the console's Origin (see itemForm).
func (c *Console) confirmDelete(w http.ResponseWriter, r *http.Request) {
	d, err := c.api.describe(r.Context(), r.PathValue("table"))
	if err != nil {
		failed(w, err)
		return
	}
	w.Header().Set("Referrer-Policy", "same-origin")
	page(w, http.StatusOK, "deletetable", map[string]any{"Table": d.TableName, "Items": d.ItemCount,
		"Token": formToken("delete-table " + d.TableName)})
}

// deleteTable deletes the table once its name is typed to confirm.
func (c *Console) deleteTable(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("table")
	if r.PostForm.Get("confirm") != name {
		page(w, http.StatusBadRequest, "error", errorPage{Title: "Not deleted", Message: msgConfirm})
		return
	}
	if err := c.api.call(r.Context(), "DeleteTable", map[string]string{"TableName": name}, &struct{}{}); err != nil {
		failed(w, err)
		return
	}
	http.Redirect(w, r, Path, http.StatusSeeOther)
}
