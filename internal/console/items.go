package console

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
)

func init() {
	routes = append(routes, func(c *Console) {
		c.mux.HandleFunc("GET /console/tables/{table}/items/new", c.newItem)
		c.mux.HandleFunc("GET /console/tables/{table}/items/edit", c.editItem)
	})
	postRoute("POST /console/tables/{table}/items/save", purposeOf("put-item"), func(c *Console) http.HandlerFunc { return c.saveItem })
	postRoute("POST /console/tables/{table}/items/delete", purposeOf("delete-item"), func(c *Console) http.HandlerFunc { return c.deleteItem })
}

const (
	msgNoItem     = "There is no item with this key (it may have been deleted)."
	msgItemJSON   = "The item must be one JSON object of attribute names to DynamoDB JSON values, such as {\"PK\": {\"S\": \"USER#u1\"}}."
	msgPlainJSON  = "The item must be one JSON object, such as {\"PK\": \"USER#u1\", \"n\": 1}."
	msgWas        = "The form's copy of the item as loaded is damaged: reload the item and edit it again."
	msgKeyChanged = "The item's key changed. Editing never moves an item to another key: to make an item with a new key, use \"New item\"; to move one, create the new item and delete the old one."
	msgConflict   = "Someone else changed or deleted this item since you loaded it, so nothing was written. The item as it is now is shown below; your text is kept in the form."
	msgExists     = "An item with this key already exists, so nothing was written (a new item never overwrites one). The existing item is shown below."
	msgGone       = "The item no longer exists."
)

// purposeOf names a form's purpose for its token: the action and the
// table, so that a token of one form never works for another.
func purposeOf(action string) func(*http.Request) string {
	return func(r *http.Request) string { return action + " " + r.PathValue("table") }
}

// itemPage is the item form: new, edit, or either shown again with an
// error or a conflict.
type itemPage struct {
	Table, Key, Text, Format, Was string
	New                           bool
	Keys                          []string
	Error                         *apiError
	Conflict, Current             string
	PutToken, DeleteToken         string
}

func (c *Console) itemForm(w http.ResponseWriter, status int, p itemPage) {
	p.PutToken, p.DeleteToken = formToken("put-item "+p.Table), formToken("delete-item "+p.Table)
	if p.Format == "" {
		p.Format = "dynamodb"
	}
	// Same-origin, not none: with no referrer policy a browser's form POST
	// carries Origin "null", which csrf.go must refuse.
	w.Header().Set("Referrer-Policy", "same-origin")
	page(w, status, "item", p)
}

func (c *Console) newItem(w http.ResponseWriter, r *http.Request) {
	d, err := c.api.describe(r.Context(), r.PathValue("table"))
	if err != nil {
		failed(w, err)
		return
	}
	c.itemForm(w, http.StatusOK, itemPage{Table: d.TableName, New: true, Keys: keyAttrs(d)})
}

func (c *Console) editItem(w http.ResponseWriter, r *http.Request) {
	d, err := c.api.describe(r.Context(), r.PathValue("table"))
	if err != nil {
		failed(w, err)
		return
	}
	key, err := decodeToken(r.URL.Query().Get("key"))
	if err == nil && key == nil {
		err = errBadToken
	}
	if err != nil {
		page(w, http.StatusBadRequest, "error", errorPage{Title: "Bad request", Message: err.Error()})
		return
	}
	it, err := c.api.getItem(r.Context(), d.TableName, key)
	if err != nil || it == nil {
		c.missing(w, err)
		return
	}
	c.itemForm(w, http.StatusOK, itemPage{Table: d.TableName, Key: encodeToken(key), Keys: keyAttrs(d),
		Text: indent(it), Was: canonical(it)})
}

func (c *Console) missing(w http.ResponseWriter, err error) {
	if err != nil {
		failed(w, err)
		return
	}
	page(w, http.StatusNotFound, "error", errorPage{Title: "Not found", Message: msgNoItem})
}

// saveItem puts the form's item. A new item must not exist yet; an
// edited one must still be exactly as loaded, or the save is refused.
func (c *Console) saveItem(w http.ResponseWriter, r *http.Request) {
	d, err := c.api.describe(r.Context(), r.PathValue("table"))
	if err != nil {
		failed(w, err)
		return
	}
	f := r.PostForm
	p := itemPage{Table: d.TableName, Text: f.Get("item"), Format: f.Get("format"), Was: f.Get("was"),
		New: f.Get("was") == "", Keys: keyAttrs(d), Key: f.Get("key")}
	it, err := parseItem(p.Text, p.Format == "plain")
	var was item
	if err == nil && !p.New {
		was, err = parseWas(p.Was)
	}
	if err == nil && !p.New && !sameKey(keyAttrs(d), was, it) {
		err = errors.New(msgKeyChanged)
	}
	if err != nil {
		p.Error = asAPIError(err)
		c.itemForm(w, http.StatusBadRequest, p)
		return
	}
	in := putIn{TableName: d.TableName, Item: it}
	in.condition(was, keyAttrs(d))
	err = c.unchanged(r.Context(), d, was)
	if err == nil {
		err = c.api.call(r.Context(), "PutItem", in, &struct{}{})
	}
	c.written(w, r, d, p, it, err)
}

// deleteItem deletes the item as loaded, only if it is still so.
func (c *Console) deleteItem(w http.ResponseWriter, r *http.Request) {
	d, err := c.api.describe(r.Context(), r.PathValue("table"))
	if err != nil {
		failed(w, err)
		return
	}
	f := r.PostForm
	p := itemPage{Table: d.TableName, Text: f.Get("item"), Format: f.Get("format"), Was: f.Get("was"),
		Keys: keyAttrs(d), Key: f.Get("key")}
	was, err := parseWas(p.Was)
	if err != nil {
		p.Error = asAPIError(err)
		c.itemForm(w, http.StatusBadRequest, p)
		return
	}
	in := putIn{TableName: d.TableName, Key: keyOf(keyAttrs(d), was)}
	in.condition(was, nil)
	err = c.unchanged(r.Context(), d, was)
	if err == nil {
		err = c.api.call(r.Context(), "DeleteItem", in, &struct{}{})
	}
	c.written(w, r, d, p, was, err)
}

// written answers a put or delete: back to the table when done, else the
// form again with the API's error, or with the item as it now is when the
// condition failed.
func (c *Console) written(w http.ResponseWriter, r *http.Request, d *tableDoc, p itemPage, it item, err error) {
	if err == nil {
		http.Redirect(w, r, tableURL(d.TableName), http.StatusSeeOther)
		return
	}
	ae := asAPIError(err)
	if ae.Type != "ConditionalCheckFailedException" {
		p.Error = ae
		c.itemForm(w, http.StatusBadRequest, p)
		return
	}
	p.Conflict, p.Current = msgConflict, msgGone
	if p.New {
		p.Conflict = msgExists
	}
	if now, err := c.api.getItem(r.Context(), d.TableName, keyOf(keyAttrs(d), it)); err == nil && now != nil {
		p.Current = indent(now)
		if !p.New {
			p.Was = canonical(now) // a second save is a deliberate overwrite of what the user now saw
		}
	}
	c.itemForm(w, http.StatusConflict, p)
}

func asAPIError(err error) *apiError {
	var ae *apiError
	if errors.As(err, &ae) {
		return ae
	}
	return &apiError{Message: err.Error()}
}

// putIn is a PutItem or DeleteItem request with its condition.
type putIn struct {
	TableName                 string
	Item                      item              `json:",omitempty"`
	Key                       item              `json:",omitempty"`
	ConditionExpression       string            `json:",omitempty"`
	ExpressionAttributeNames  map[string]string `json:",omitempty"`
	ExpressionAttributeValues item              `json:",omitempty"`
}

// condition requires every attribute of was to hold its loaded value, or,
// with no was, that no item has the key yet.
func (in *putIn) condition(was item, keys []string) {
	in.ExpressionAttributeNames = map[string]string{}
	if was == nil {
		in.ConditionExpression = "attribute_not_exists(#k)"
		in.ExpressionAttributeNames["#k"] = keys[0]
		return
	}
	in.ExpressionAttributeValues = item{}
	var parts []string
	for i, name := range sortedNames(was) {
		n, v := fmt.Sprintf("#a%d", i), fmt.Sprintf(":v%d", i)
		in.ExpressionAttributeNames[n], in.ExpressionAttributeValues[v] = name, was[name]
		parts = append(parts, n+" = "+v)
	}
	in.ConditionExpression = strings.Join(parts, " AND ")
}

func sortedNames(it item) []string { return columns(nil, []item{it}) }

// keyAttrs are the table's key attribute names, partition keys first.
func keyAttrs(d *tableDoc) []string {
	return append(keyNames(d.KeySchema, "HASH"), keyNames(d.KeySchema, "RANGE")...)
}

func keyOf(keys []string, it item) item {
	k := item{}
	for _, a := range keys {
		if v, ok := it[a]; ok {
			k[a] = v
		}
	}
	return k
}

func sameKey(keys []string, a, b item) bool {
	return canonical(keyOf(keys, a)) == canonical(keyOf(keys, b))
}

// canonical is an item as canonical JSON (sorted names), for the form's
// hidden copy and for comparing keys.
func canonical(it item) string {
	var buf bytes.Buffer
	b, _ := json.Marshal(it)
	if json.Compact(&buf, b) != nil {
		return string(b)
	}
	return buf.String()
}

func indent(it item) string {
	b, _ := json.MarshalIndent(it, "", "  ")
	return string(b)
}

// unchanged refuses, as the condition would, an edit of an item that
// gained attributes since it was loaded: the condition checks only the
// attributes loaded. Values are compared as JSON with sorted names, since
// nested maps may come back in any order.
func (c *Console) unchanged(ctx context.Context, d *tableDoc, was item) error {
	if was == nil {
		return nil
	}
	now, err := c.api.getItem(ctx, d.TableName, keyOf(keyAttrs(d), was))
	if err != nil || normal(now) == normal(was) {
		return err
	}
	return &apiError{Type: "ConditionalCheckFailedException", Message: msgConflict}
}

func normal(it item) string {
	var v any
	_ = json.Unmarshal([]byte(canonical(it)), &v)
	b, _ := json.Marshal(v)
	return string(b)
}

func parseWas(s string) (item, error) {
	it, err := parseItem(s, false)
	if err != nil || len(it) == 0 {
		return nil, errors.New(msgWas)
	}
	return it, nil
}

func (c client) getItem(ctx context.Context, table string, key item) (item, error) {
	var out struct{ Item item }
	err := c.call(ctx, "GetItem", map[string]any{"TableName": table, "Key": key, "ConsistentRead": true}, &out)
	return out.Item, err
}

// addEdits gives each row of a table's page the link to its edit page,
// the key in the page's ?start= token format; groups keep the Scan's order.
func addEdits(d *tableDoc, gs []group, items []item) {
	i := 0
	for g := range gs {
		for range gs[g].Rows {
			gs[g].Edit = append(gs[g].Edit, tableURL(d.TableName)+"/items/edit?key="+encodeToken(keyOf(keyAttrs(d), items[i])))
			i++
		}
	}
}
