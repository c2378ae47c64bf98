package console

import (
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"strings"
)

// The update form changes what UpdateTable and UpdateTimeToLive can change.
// Every field left at "unchanged" stays out of the request, so a preview
// shows only what would change.

func init() {
	routes = append(routes, func(c *Console) {
		c.mux.HandleFunc("GET /console/tables/{table}/update", c.updateForm)
	})
	postRoute("POST /console/tables/{table}/update", purposeOf("update-table"),
		func(c *Console) http.HandlerFunc { return c.updateTable })
}

const msgNoChange = "Nothing to change: pick at least one change. Nothing was sent."

// updForm is the update form as typed, kept on an error.
type updForm struct {
	Billing, RCU, WCU, Stream, ViewType, Protection      string
	GSIName, GSIPK, GSIPKType, GSISK, GSISKType, GSIProj string
	DropGSI, TTL, TTLAttr                                string
	GSINonKey                                            string // INCLUDE's attributes, as typed (nonkey.go)
}

type updPage struct {
	Table, Token, Request string
	Form                  updForm
	Indexes               []string
	KeyTypes, ViewTypes   []string
	Projections           []string
	Error                 *apiError
}

type streamSpec struct {
	StreamEnabled  bool
	StreamViewType string `json:",omitempty"`
}

type gsiCreate struct {
	IndexName  string
	KeySchema  []keyElem
	Projection struct {
		ProjectionType   string
		NonKeyAttributes []string `json:",omitempty"`
	}
}

type gsiUpdate struct {
	Create *gsiCreate                  `json:",omitempty"`
	Delete *struct{ IndexName string } `json:",omitempty"`
}

// updateIn is the UpdateTable request; shown as JSON, it is exactly the body sent.
type updateIn struct {
	TableName                   string
	AttributeDefinitions        []attrDef   `json:",omitempty"`
	BillingMode                 string      `json:",omitempty"`
	ProvisionedThroughput       *throughput `json:",omitempty"`
	StreamSpecification         *streamSpec `json:",omitempty"`
	DeletionProtectionEnabled   *bool       `json:",omitempty"`
	GlobalSecondaryIndexUpdates []gsiUpdate `json:",omitempty"`
}

type ttlIn struct {
	TableName               string
	TimeToLiveSpecification struct {
		AttributeName string
		Enabled       bool
	}
}

func (c *Console) updForm(w http.ResponseWriter, r *http.Request, status int, p updPage) {
	d, err := c.api.describe(r.Context(), p.Table)
	if err != nil {
		failed(w, err)
		return
	}
	for _, g := range d.GlobalSecondaryIndexes {
		p.Indexes = append(p.Indexes, g.IndexName)
	}
	p.Token, p.KeyTypes = formToken("update-table "+p.Table), []string{"S", "N", "B"}
	p.ViewTypes = []string{"NEW_AND_OLD_IMAGES", "NEW_IMAGE", "OLD_IMAGE", "KEYS_ONLY"}
	p.Projections = []string{"ALL", "KEYS_ONLY", "INCLUDE"}
	w.Header().Set("Referrer-Policy", "same-origin") // see itemForm
	page(w, status, "updatetable", p)
}

func (c *Console) updateForm(w http.ResponseWriter, r *http.Request) {
	c.updForm(w, r, http.StatusOK, updPage{Table: r.PathValue("table"),
		Form: updForm{GSIPKType: "S", GSISKType: "S", GSIProj: "ALL"}})
}

func formOf(r *http.Request) updForm {
	f := r.PostForm.Get
	return updForm{Billing: f("billing"), RCU: f("rcu"), WCU: f("wcu"), Stream: f("stream"), ViewType: f("viewtype"),
		Protection: f("protection"), GSIName: strings.TrimSpace(f("gsiname")), GSIPK: f("gsipk"), GSIPKType: f("gsipktype"),
		GSISK: f("gsisk"), GSISKType: f("gsisktype"), GSIProj: f("gsiproj"), DropGSI: f("dropgsi"), TTL: f("ttl"), TTLAttr: f("ttlattr"),
		GSINonKey: f("gsinonkey")}
}

// updateTable previews the UpdateTable and UpdateTimeToLive requests, or sends them.
func (c *Console) updateTable(w http.ResponseWriter, r *http.Request) {
	p := updPage{Table: r.PathValue("table"), Form: formOf(r)}
	in, ttl, err := p.Form.inputs(p.Table)
	p.Request = requestText(in, ttl)
	if err == nil && r.PostForm.Get("action") == "preview" {
		c.updForm(w, r, http.StatusOK, p)
		return
	}
	if err == nil && in != nil {
		err = c.api.call(r.Context(), "UpdateTable", in, &struct{}{})
	}
	if err == nil && ttl != nil {
		err = c.api.call(r.Context(), "UpdateTimeToLive", ttl, &struct{}{})
	}
	if err != nil {
		p.Error = asAPIError(err)
		c.updForm(w, r, http.StatusBadRequest, p)
		return
	}
	http.Redirect(w, r, tableURL(p.Table), http.StatusSeeOther)
}

func requestText(in *updateIn, ttl *ttlIn) string {
	var parts []string
	if in != nil {
		b, _ := json.MarshalIndent(in, "", "  ")
		parts = append(parts, "UpdateTable\n"+string(b))
	}
	if ttl != nil {
		b, _ := json.MarshalIndent(ttl, "", "  ")
		parts = append(parts, "UpdateTimeToLive\n"+string(b))
	}
	return strings.Join(parts, "\n\n")
}

// inputs builds the requests the form asks for: nil where nothing changes.
func (f updForm) inputs(table string) (*updateIn, *ttlIn, error) {
	in := &updateIn{TableName: table}
	changed, err := f.billing(in)
	if err != nil {
		return nil, nil, err
	}
	changed = f.stream(in) || changed
	changed = f.protection(in) || changed
	changed = f.gsis(in) || changed
	if !changed {
		in = nil
	}
	var ttl *ttlIn
	if f.TTL == "on" || f.TTL == "off" {
		ttl = &ttlIn{TableName: table}
		ttl.TimeToLiveSpecification.AttributeName = strings.TrimSpace(f.TTLAttr)
		ttl.TimeToLiveSpecification.Enabled = f.TTL == "on"
	}
	if in == nil && ttl == nil {
		return nil, nil, errors.New(msgNoChange)
	}
	return in, ttl, nil
}

func (f updForm) billing(in *updateIn) (bool, error) {
	if f.Billing != "PAY_PER_REQUEST" && f.Billing != "PROVISIONED" {
		return false, nil
	}
	in.BillingMode = f.Billing
	if f.Billing == "PROVISIONED" {
		r, err1 := strconv.Atoi(f.RCU)
		w, err2 := strconv.Atoi(f.WCU)
		if err1 != nil || err2 != nil || r < 1 || w < 1 {
			return false, errors.New(msgCapacity)
		}
		in.ProvisionedThroughput = &throughput{r, w}
	}
	return true, nil
}

func (f updForm) stream(in *updateIn) bool {
	switch f.Stream {
	case "on":
		in.StreamSpecification = &streamSpec{true, f.ViewType}
	case "off":
		in.StreamSpecification = &streamSpec{StreamEnabled: false}
	default:
		return false
	}
	return true
}

func (f updForm) protection(in *updateIn) bool {
	if f.Protection != "on" && f.Protection != "off" {
		return false
	}
	on := f.Protection == "on"
	in.DeletionProtectionEnabled = &on
	return true
}

// gsis adds the index typed in, and the one picked to delete; DynamoDB
// itself refuses more than one per request, with its own message.
func (f updForm) gsis(in *updateIn) bool {
	if f.GSIName != "" {
		g := &gsiCreate{IndexName: f.GSIName, KeySchema: []keyElem{{f.GSIPK, "HASH"}}}
		g.Projection.ProjectionType = f.GSIProj
		// Sent as typed, even beside ALL: DynamoDB's own message says what is wrong.
		g.Projection.NonKeyAttributes = nonKeyAttributes(f.GSINonKey)
		in.AttributeDefinitions = []attrDef{{f.GSIPK, f.GSIPKType}}
		if f.GSISK != "" {
			g.KeySchema = append(g.KeySchema, keyElem{f.GSISK, "RANGE"})
			in.AttributeDefinitions = append(in.AttributeDefinitions, attrDef{f.GSISK, f.GSISKType})
		}
		in.GlobalSecondaryIndexUpdates = append(in.GlobalSecondaryIndexUpdates, gsiUpdate{Create: g})
	}
	if f.DropGSI != "" {
		in.GlobalSecondaryIndexUpdates = append(in.GlobalSecondaryIndexUpdates,
			gsiUpdate{Delete: &struct{ IndexName string }{f.DropGSI}})
	}
	return len(in.GlobalSecondaryIndexUpdates) > 0
}
