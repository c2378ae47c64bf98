package console_test

import (
	"html"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// An INCLUDE GSI added from the update form: the preview carries the
// attributes as a list, DescribeTable (through the SDK) shows them, and the
// index view shows only the keys and those attributes.
func TestUpdateTableAddsAnIncludeGSI(t *testing.T) {
	srv, c := newServer(t)
	v := updateValues(t, srv, "gsiname", "ByName", "gsipk", "name", "gsipktype", "S", "gsiproj", "INCLUDE",
		"gsinonkey", "tags,  note", "action", "preview")
	status, _, page := post(t, srv, updPath, v, nil)
	m := updRequestRe.FindStringSubmatch(page)
	if status != http.StatusOK || m == nil || !strings.Contains(strings.Join(strings.Fields(html.UnescapeString(m[1])), " "),
		`"ProjectionType": "INCLUDE", "NonKeyAttributes": [ "tags", "note" ]`) {
		t.Fatalf("preview: %d, want the INCLUDE projection with its attributes\n%s", status, page)
	}
	v.Set("action", "update")
	if status, _, page := post(t, srv, updPath, v, nil); status != http.StatusSeeOther {
		t.Fatalf("update: %d\n%s", status, page)
	}
	got := awaitIndexActive(t, c, "Market", "ByName").Projection
	if got == nil || got.ProjectionType != types.ProjectionTypeInclude || !slices.Equal(got.NonKeyAttributes, []string{"tags", "note"}) {
		t.Fatalf("ByName's projection %+v, want INCLUDE [tags note]", got)
	}
	_, _, index := get(t, srv.URL+"/console/tables/Market/indexes/ByName")
	cols := strings.Join(columns(index), ",")
	if !strings.Contains(cols, "tags") || strings.Contains(cols, "tenant") || strings.Contains(cols, "total") {
		t.Errorf("ByName's view has columns %s, want the keys, tags and note only", cols)
	}
}

func columns(body string) []string {
	var out []string
	for _, m := range headRe.FindAllStringSubmatch(body, -1) {
		out = append(out, m[1])
	}
	return out
}

// A bad attribute list gets DynamoDB's own message beside the form, the
// form as typed, and changes nothing.
func TestUpdateTableIncludeErrors(t *testing.T) {
	srv, c := newServer(t)
	for _, tc := range []struct{ proj, attrs, want string }{
		{"INCLUDE", "total, total", "Duplicate NonKeyAttributes in Projection: total"},
		{"INCLUDE", " , ", "ProjectionType is INCLUDE, but NonKeyAttributes is not specified"},
		{"ALL", "total", "ProjectionType is ALL, but NonKeyAttributes is specified"},
	} {
		v := updateValues(t, srv, "gsiname", "ByName", "gsipk", "name", "gsipktype", "S", "gsiproj", tc.proj,
			"gsinonkey", tc.attrs, "action", "update")
		status, _, page := post(t, srv, updPath, v, nil)
		if status != http.StatusBadRequest || !strings.Contains(page, `id="u-error"><strong>ValidationException</strong>`) ||
			!strings.Contains(page, tc.want) || !strings.Contains(page, `id="u-gsinonkey" value="`+html.EscapeString(tc.attrs)+`"`) {
			t.Errorf("%s %q: %d, want %q beside the form as typed\n%s", tc.proj, tc.attrs, status, tc.want, page)
		}
	}
	if names := gsiNames(t, c); len(names) != 2 {
		t.Errorf("refused updates changed the table: GSIs %v", names)
	}
}

// awaitIndexActive waits until a new GSI has been backfilled: as on
// DynamoDB, UpdateTable returns while the index is still CREATING, and an
// index view before then shows none of the table's items.
func awaitIndexActive(t *testing.T, c *dynamodb.Client, table, index string) types.GlobalSecondaryIndexDescription {
	t.Helper()
	for range 2000 {
		for _, g := range tableExists(t, c, table).GlobalSecondaryIndexes {
			if aws.ToString(g.IndexName) == index && g.IndexStatus == types.IndexStatusActive {
				return g
			}
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatalf("index %s of %s never became ACTIVE", index, table)
	return types.GlobalSecondaryIndexDescription{}
}
