package console_test

import (
	"context"
	"errors"
	"html"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

var requestRe = regexp.MustCompile(`(?s)<pre class="request" id="t-request">(.*?)</pre>`)

func tableForm(t *testing.T, body string) map[string]string {
	t.Helper()
	m := regexp.MustCompile(`name="csrf" value="([^"]+)"`).FindStringSubmatch(body)
	if m == nil {
		t.Fatalf("no token in\n%s", body)
	}
	return map[string]string{"csrf": html.UnescapeString(m[1])}
}

func tableExists(t *testing.T, c *dynamodb.Client, name string) *types.TableDescription {
	t.Helper()
	out, err := c.DescribeTable(context.Background(), &dynamodb.DescribeTableInput{TableName: aws.String(name)})
	var nf *types.ResourceNotFoundException
	if errors.As(err, &nf) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	return out.Table
}

// Preview shows the CreateTable request and creates nothing; Create sends
// it, with its GSI, and goes to the new table.
func TestCreateTableFromTheForm(t *testing.T) {
	srv, c := newServer(t)
	_, _, list := get(t, srv.URL+"/console/")
	if !strings.Contains(list, `href="/console/tables/new"`) {
		t.Fatalf("table list has no New table link")
	}
	_, _, body := get(t, srv.URL+"/console/tables/new")
	v := formValues(tableForm(t, body), "name", "Orders", "pk", "id", "pktype", "S", "sk", "at", "sktype", "N",
		"billing", "PAY_PER_REQUEST", "action", "preview",
		"gsis", `[{"IndexName": "ByCustomer", "KeySchema": [{"AttributeName": "cust", "KeyType": "HASH"}], "Projection": {"ProjectionType": "ALL"}}]`,
		"defs", `[{"AttributeName": "cust", "AttributeType": "S"}]`)
	status, _, page := post(t, srv, "/console/tables/new", v, nil)
	m := requestRe.FindStringSubmatch(page)
	if status != http.StatusOK || m == nil || !strings.Contains(html.UnescapeString(m[1]), `"IndexName": "ByCustomer"`) ||
		!strings.Contains(html.UnescapeString(m[1]), `"AttributeType": "N"`) {
		t.Fatalf("preview: %d, want the CreateTable request shown\n%s", status, page)
	}
	if tableExists(t, c, "Orders") != nil {
		t.Fatal("preview created the table")
	}
	v.Set("action", "create")
	status, h, page := post(t, srv, "/console/tables/new", v, nil)
	if status != http.StatusSeeOther || h.Get("Location") != "/console/tables/Orders" {
		t.Fatalf("create: %d to %q\n%s", status, h.Get("Location"), page)
	}
	d := tableExists(t, c, "Orders")
	if d == nil || len(d.KeySchema) != 2 || len(d.GlobalSecondaryIndexes) != 1 {
		t.Fatalf("created table %+v, want id/at keys and one GSI", d)
	}
}

func TestCreateTableErrorsShowWithTheForm(t *testing.T) {
	srv, c := newServer(t)
	_, _, body := get(t, srv.URL+"/console/tables/new")
	for _, tc := range []struct{ name, gsis, want string }{
		{"ab", "", "ValidationException"},
		{"Market", "", "ResourceInUseException"},
		{"Fine", "[{", "JSON array"},
	} {
		v := formValues(tableForm(t, body), "name", tc.name, "pk", "id", "pktype", "S", "billing", "PAY_PER_REQUEST",
			"gsis", tc.gsis, "action", "create")
		status, _, page := post(t, srv, "/console/tables/new", v, nil)
		if status != http.StatusBadRequest || !strings.Contains(page, tc.want) || !strings.Contains(page, `value="`+tc.name+`"`) {
			t.Errorf("%s: %d, want 400 with %s and the form kept\n%s", tc.name, status, tc.want, page)
		}
	}
	if tableExists(t, c, "Fine") != nil {
		t.Error("a refused form created a table")
	}
}

// Deleting a table needs its name typed, and this table's delete token.
func TestDeleteTableNeedsItsNameTyped(t *testing.T) {
	srv, c := newServer(t)
	_, _, table := get(t, srv.URL+"/console/tables/Market")
	if !strings.Contains(table, `href="/console/tables/Market/delete"`) {
		t.Fatalf("table page has no delete link")
	}
	_, _, body := get(t, srv.URL+"/console/tables/Market/delete")
	_, _, newForm := get(t, srv.URL+"/console/tables/new")
	wrongToken := formValues(tableForm(t, newForm), "confirm", "Market")
	if status, _, _ := post(t, srv, "/console/tables/Market/delete", wrongToken, nil); status != http.StatusForbidden {
		t.Errorf("create-table token on delete: %d, want 403", status)
	}
	wrongName := formValues(tableForm(t, body), "confirm", "market")
	if status, _, page := post(t, srv, "/console/tables/Market/delete", wrongName, nil); status != http.StatusBadRequest || !strings.Contains(page, "type its name") {
		t.Errorf("wrong name: %d, want 400\n%s", status, page)
	}
	crossSite := formValues(tableForm(t, body), "confirm", "Market")
	if status, _, _ := post(t, srv, "/console/tables/Market/delete", crossSite, map[string]string{"Origin": "http://evil.example"}); status != http.StatusForbidden {
		t.Errorf("cross-site delete: %d, want 403", status)
	}
	if tableExists(t, c, "Market") == nil {
		t.Fatal("a refused delete deleted the table")
	}
	status, h, _ := post(t, srv, "/console/tables/Market/delete", crossSite, nil)
	if status != http.StatusSeeOther || h.Get("Location") != "/console/" || tableExists(t, c, "Market") != nil {
		t.Errorf("delete: %d to %q, want 303 to the list and the table gone", status, h.Get("Location"))
	}
}
