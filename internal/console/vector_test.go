package console_test

import (
	"context"
	"encoding/json"
	"html"
	"net/http"
	"net/url"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/sortkeydb/sortkey"
	"github.com/sortkeydb/sortkey/sortkeytest"
)

var (
	vSDKRe      = regexp.MustCompile(`(?s)<pre class="request" id="v-sdk">(.*?)</pre>`)
	vCLIRe      = regexp.MustCompile(`(?s)<pre class="request" id="v-cli">(.*?)</pre>`)
	vErrorRe    = regexp.MustCompile(`(?s)<p class="error" id="v-error">(.*?)</p>`)
	vCapacityRe = regexp.MustCompile(`<span id="v-capacity">([^<]*)</span>`)
	vResultRe   = regexp.MustCompile(`<tr><td class="num rank">(\d+)</td><td class="num score">([^<]*)</td><td[^>]*>([^<]*)</td>`)
	vIndexRowRe = regexp.MustCompile(`(?s)<table class="list" id="vector-indexes">.*?</table>`)
)

// newVectorServer is a sortkey with the console on and table Docs: a
// EUCLIDEAN index ByEmb over emb with shelf as its HASH and year as an
// inline filter, and a COSINE index Flat with no search schema, projecting
// title besides the keys.
func newVectorServer(t testing.TB, opts *sortkey.Options) (*sortkeytest.Server, *dynamodb.Client) {
	t.Helper()
	srv := sortkeytest.NewWithOptions(t, opts)
	c := dynamodb.NewFromConfig(srv.AWSConfig())
	if opts.Auth != nil {
		c = srv.ClientAs(t, adminArn)
	}
	createDocs(t, c)
	putDocs(t, c, docs())
	return srv, c
}

func createDocs(t testing.TB, c *dynamodb.Client) {
	t.Helper()
	def := func(name string, typ types.ScalarAttributeType) types.AttributeDefinition {
		return types.AttributeDefinition{AttributeName: aws.String(name), AttributeType: typ}
	}
	vi := func(name string, df types.VectorDistanceFunction, pr *types.Projection, schema ...types.SearchSchemaElement) types.VectorIndex {
		return types.VectorIndex{IndexName: aws.String(name), Dimensions: aws.Int64(3), DistanceFunction: df,
			VectorAttribute: &types.VectorAttributeDefinition{AttributeName: aws.String("emb")},
			Projection:      pr, SearchSchema: schema}
	}
	_, err := c.CreateTable(context.Background(), &dynamodb.CreateTableInput{
		TableName: aws.String("Docs"), BillingMode: types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{def("id", types.ScalarAttributeTypeS),
			def("shelf", types.ScalarAttributeTypeS), def("year", types.ScalarAttributeTypeN)},
		KeySchema: []types.KeySchemaElement{key("id", types.KeyTypeHash)},
		VectorIndexes: []types.VectorIndex{
			vi("ByEmb", types.VectorDistanceFunctionEuclidean, &types.Projection{ProjectionType: types.ProjectionTypeAll},
				types.SearchSchemaElement{AttributeName: aws.String("shelf"), SearchSchemaElementType: types.SearchSchemaElementTypeHash},
				types.SearchSchemaElement{AttributeName: aws.String("year"), SearchSchemaElementType: types.SearchSchemaElementTypeInlineFilter}),
			vi("Flat", types.VectorDistanceFunctionCosine, &types.Projection{ProjectionType: types.ProjectionTypeInclude, NonKeyAttributes: []string{"title"}}),
		},
	})
	if err != nil {
		t.Fatal(err)
	}
}

// docs are four items: three on the poetry shelf, one on films nearest
// of all to [1, 0, 0]; c carries a value that must show as text.
func docs() []map[string]types.AttributeValue {
	vec := func(xs ...string) types.AttributeValue {
		l := make([]types.AttributeValue, len(xs))
		for i, x := range xs {
			l[i] = n(x)
		}
		return &types.AttributeValueMemberL{Value: l}
	}
	return []map[string]types.AttributeValue{
		{"id": s("a"), "shelf": s("poetry"), "year": n("2020"), "emb": vec("1", "0", "0"), "title": s("Alpha")},
		{"id": s("b"), "shelf": s("poetry"), "year": n("2021"), "emb": vec("0", "1", "0"), "title": s("Beta")},
		{"id": s("c"), "shelf": s("poetry"), "year": n("2020"), "emb": vec("0", "0", "1"), "title": s(scriptValue)},
		{"id": s("d"), "shelf": s("films"), "year": n("2020"), "emb": vec("1", "0.1", "0"), "title": s("Delta")},
	}
}

func putDocs(t testing.TB, c *dynamodb.Client, items []map[string]types.AttributeValue) {
	t.Helper()
	for _, it := range items {
		if _, err := c.PutItem(context.Background(), &dynamodb.PutItemInput{TableName: aws.String("Docs"), Item: it}); err != nil {
			t.Fatal(err)
		}
	}
}

func searchPath(index string, v url.Values) string {
	return "/console/tables/Docs/vector-indexes/" + index + "?" + v.Encode()
}

// poetryNear is a search of the poetry shelf nearest [1, 0.3, 0]: a, then
// b, then c.
func poetryNear() url.Values {
	return url.Values{"vector": {"[1, 0.3, 0]"}, "eq.shelf": {"poetry"}}
}

type result struct {
	rank  int
	score float64
	id    string
}

func results(t *testing.T, body string) []result {
	t.Helper()
	var out []result
	for _, m := range vResultRe.FindAllStringSubmatch(body, -1) {
		rank, _ := strconv.Atoi(m[1])
		score, err := strconv.ParseFloat(m[2], 64)
		if err != nil {
			t.Errorf("score %q is not a number", m[2])
		}
		out = append(out, result{rank, score, m[3]})
	}
	return out
}

func TestVectorIndexesShowBesideTheOtherIndexesNotInTheQueryPicker(t *testing.T) {
	srv, _ := newVectorServer(t, &sortkey.Options{Console: true})
	_, _, body := get(t, srv.URL+"/console/tables/Docs")
	table := vIndexRowRe.FindString(body)
	var cells []string
	for _, r := range rows(table) {
		cells = append(cells, strings.Join(r, " | "))
	}
	want := []string{
		`<a class="vector-link" href="/console/tables/Docs/vector-indexes/ByEmb">ByEmb</a> | ACTIVE | emb | 3 | EUCLIDEAN | shelf (HASH), year (INLINE_FILTER) | ALL | 4`,
		`<a class="vector-link" href="/console/tables/Docs/vector-indexes/Flat">Flat</a> | ACTIVE | emb | 3 | COSINE | none | INCLUDE: title | 4`,
	}
	if strings.Join(cells, "\n") != strings.Join(want, "\n") {
		t.Errorf("vector index rows\n%s\nwant\n%s", strings.Join(cells, "\n"), strings.Join(want, "\n"))
	}
	_, _, list := get(t, srv.URL+"/console/")
	if !strings.Contains(list, `<a class="vector-link" href="/console/tables/Docs/vector-indexes/ByEmb">ByEmb</a> <small>vector</small>`) {
		t.Errorf("table list does not link the vector index:\n%s", list)
	}
	_, _, query := get(t, srv.URL+"/console/tables/Docs/query")
	if strings.Contains(query, `value="ByEmb"`) || strings.Contains(query, `value="Flat"`) {
		t.Errorf("the query builder offers a vector index, which Query cannot read")
	}
}

func TestVectorSearchShowsNearestFirstWithScoresAndTheRequest(t *testing.T) {
	srv, _ := newVectorServer(t, &sortkey.Options{Console: true})
	status, _, body := get(t, srv.URL+searchPath("ByEmb", poetryNear()))
	if status != http.StatusOK {
		t.Fatalf("%d\n%s", status, body)
	}
	rs := results(t, body)
	if len(rs) != 3 || rs[0].id != "a" || rs[1].id != "b" || rs[2].id != "c" {
		t.Fatalf("results %+v, want a, b, c of the poetry shelf", rs)
	}
	if rs[0].rank != 1 || rs[0].score < 0.29 || rs[0].score > 0.31 || rs[1].score <= rs[0].score {
		t.Errorf("scores %+v, want a at distance 0.3 first, then farther", rs)
	}
	if !strings.Contains(body, "&lt;script&gt;alert(1)&lt;/script&gt;") || strings.Contains(body, scriptValue) {
		t.Errorf("the script value is not shown as text")
	}
	if m := vCapacityRe.FindStringSubmatch(body); m == nil || m[1] == "" || m[1] == "not reported" {
		t.Errorf("capacity %q, want vector search bytes", m)
	}
	in := sentSearch(t, body)
	for k, want := range map[string]any{"TableName": "Docs", "IndexName": "ByEmb", "TopK": 10.0,
		"SearchConditionExpression": "#s0 = :s0", "ReturnConsumedCapacity": "TOTAL"} {
		if in[k] != want {
			t.Errorf("%s = %v, want %v", k, in[k], want)
		}
	}
	if v, _ := json.Marshal(in["SearchVector"]); string(v) != `[{"N":"1"},{"N":"0.3"},{"N":"0"}]` {
		t.Errorf("SearchVector %s, want the numbers as typed", v)
	}
}

// sentSearch is the SearchVectorsInput the page says it sent.
func sentSearch(t *testing.T, body string) map[string]any {
	t.Helper()
	m := vSDKRe.FindStringSubmatch(body)
	if m == nil {
		t.Fatalf("no SDK JSON:\n%s", body)
	}
	var in map[string]any
	if err := json.Unmarshal([]byte(html.UnescapeString(m[1])), &in); err != nil {
		t.Fatalf("SDK JSON does not parse: %v\n%s", err, m[1])
	}
	return in
}

func TestVectorSearchFiltersTopKAndProjection(t *testing.T) {
	srv, _ := newVectorServer(t, &sortkey.Options{Console: true})
	v := poetryNear()
	v.Set("eq.year", "2020")
	v.Set("topk", "1")
	v.Set("projection", "id, title")
	_, _, body := get(t, srv.URL+searchPath("ByEmb", v))
	if rs := results(t, body); len(rs) != 1 || rs[0].id != "a" {
		t.Errorf("results %+v, want a alone", rs)
	}
	if heads := headRe.FindAllStringSubmatch(body, -1); len(heads) != 4 || heads[2][1] != "id" || heads[3][1] != "title" {
		t.Errorf("columns %q, want #, Score, id, title", heads)
	}
	v.Set("eq.year", "2021")
	_, _, body = get(t, srv.URL+searchPath("ByEmb", v))
	if rs := results(t, body); len(rs) != 1 || rs[0].id != "b" {
		t.Errorf("year 2021: results %+v, want b", rs)
	}
	_, _, body = get(t, srv.URL+searchPath("Flat", url.Values{"vector": {"[1, 0, 0]"}, "topk": {"2"}}))
	if rs := results(t, body); len(rs) != 2 || rs[0].id != "a" || rs[1].id != "d" {
		t.Errorf("Flat: results %+v, want a, then d from every shelf", rs)
	}
	if heads := headRe.FindAllStringSubmatch(body, -1); len(heads) != 5 || heads[4][1] != "title" || strings.Contains(body, "<th>year</th>") {
		t.Errorf("Flat columns %q, want #, Score, id, emb, title: its projection", heads)
	}
}

// A vector that is not an array of numbers, or not as long as the index
// has dimensions, and a missing HASH value are refused on the page:
// nothing is sent.
func TestVectorSearchRefusesABadVectorBeforeSending(t *testing.T) {
	srv, _ := newVectorServer(t, &sortkey.Options{Console: true})
	for vector, want := range map[string]string{
		"":            "Paste a search vector",
		"[1, 0":       "must be a JSON array of numbers",
		`["1", 0, 0]`: "must be a JSON array of numbers",
		"[1, 0, 0] 4": "must be a JSON array of numbers",
		"null":        "must be a JSON array of numbers",
		"[1, 0]":      "The search vector has 2 numbers, but index ByEmb has 3 dimensions",
		"[]":          "The search vector has 0 numbers",
	} {
		v := poetryNear()
		v.Set("vector", vector)
		status, _, body := get(t, srv.URL+searchPath("ByEmb", v))
		m := vErrorRe.FindStringSubmatch(body)
		if status != http.StatusBadRequest || m == nil || !strings.Contains(m[1], want) || vSDKRe.MatchString(body) {
			t.Errorf("vector %q: %d, want 400 saying %q and no request sent\n%s", vector, status, want, body)
		}
	}
	v := poetryNear()
	v.Del("eq.shelf")
	status, _, body := get(t, srv.URL+searchPath("ByEmb", v))
	if status != http.StatusBadRequest || !strings.Contains(body, "Give a value for shelf") || vSDKRe.MatchString(body) {
		t.Errorf("no HASH value: %d, want 400 and no request sent\n%s", status, body)
	}
}

// The API's own refusals show beside the form, which keeps what was
// typed, escaped.
func TestVectorSearchShowsTheAPIErrors(t *testing.T) {
	srv, _ := newVectorServer(t, &sortkey.Options{Console: true})
	for _, k := range []string{"0", "101"} {
		v := poetryNear()
		v.Set("topk", k)
		status, _, body := get(t, srv.URL+searchPath("ByEmb", v))
		m := vErrorRe.FindStringSubmatch(body)
		if status != http.StatusBadRequest || m == nil || m[1] != "<strong>ValidationException</strong>: Provided TopK value is out of valid range" {
			t.Errorf("TopK %s: %d, want the API's ValidationException\n%s", k, status, body)
		}
		if !vSDKRe.MatchString(body) || !strings.Contains(body, `id="v-topk" type="number" min="1" max="100" value="`+k+`"`) {
			t.Errorf("TopK %s: the page lacks the request sent or the form as typed", k)
		}
	}
	v := poetryNear()
	v.Set("eq.shelf", `<b>x</b>`)
	v.Set("projection", "nope.<i>")
	_, _, body := get(t, srv.URL+searchPath("ByEmb", v))
	if strings.Contains(body, "<b>x") || strings.Contains(body, "<i>") || !strings.Contains(body, `value="&lt;b&gt;x&lt;/b&gt;"`) {
		t.Errorf("a typed value reached the page unescaped, or the form lost it:\n%s", body)
	}
}

func TestVectorSearchPageOfAMissingIndexIs404(t *testing.T) {
	srv, _ := newVectorServer(t, &sortkey.Options{Console: true})
	for path, want := range map[string]string{
		"/console/tables/Docs/vector-indexes/Nope": "Table Docs has no vector index named Nope.",
		"/console/tables/Nope/vector-indexes/Flat": "ResourceNotFoundException",
	} {
		status, _, body := get(t, srv.URL+path)
		if status != http.StatusNotFound || !strings.Contains(body, want) {
			t.Errorf("%s: %d, want 404 saying %s\n%s", path, status, want, body)
		}
	}
	status, h, _ := get(t, srv.URL+"/console/tables/Docs/indexes/Flat")
	if status != http.StatusSeeOther || h.Get("Location") != "/console/tables/Docs/vector-indexes/Flat" {
		t.Errorf("a vector index's Scan view: %d to %q, want 303 to its search page", status, h.Get("Location"))
	}
	status, _, body := get(t, srv.URL+"/console/tables/Docs/vector-indexes/Flat")
	if status != http.StatusOK || !strings.Contains(body, `<span id="v-status">ACTIVE</span>`) || vSDKRe.MatchString(body) {
		t.Errorf("empty form: %d, want the form and no request sent\n%s", status, body)
	}
}

// The console searches as the signed-in principal: one who may describe
// the table but not search its index sees the API's AccessDeniedException
// and no item.
func TestVectorSearchIsAuthorisedAsTheSignedInPrincipal(t *testing.T) {
	const daveArn = "arn:aws:iam::123456789012:user/dave"
	docsArn := "arn:aws:dynamodb:us-east-1:123456789012:table/Docs"
	dave := `{"arn": "` + daveArn + `", "accessKeyId": "AKIDDAVE", "secretAccessKey": "dave-secret", "policies": [
 {"Version": "2012-10-17", "Statement": [
  {"Effect": "Allow", "Action": ["dynamodb:ListTables", "dynamodb:DescribeTable", "dynamodb:DescribeTimeToLive"], "Resource": "*"},
  {"Effect": "Allow", "Action": "dynamodb:SearchVectors", "Resource": "` + docsArn + `/index/Flat"}]}]}`
	srv, _ := newVectorServer(t, &sortkey.Options{Console: true, Auth: authFile(adminPrincipal, dave)})
	v := newVisitor(t, srv)
	v.mustSignIn("AKIDDAVE", "dave-secret")
	status, _, body := v.get(searchPath("ByEmb", poetryNear()))
	if status != http.StatusBadRequest || !strings.Contains(body, "AccessDeniedException") ||
		!strings.Contains(body, "dynamodb:SearchVectors") || len(results(t, body)) != 0 {
		t.Errorf("ByEmb: %d, want AccessDenied and no result\n%s", status, body)
	}
	status, _, body = v.get(searchPath("Flat", url.Values{"vector": {"[1, 0, 0]"}}))
	if status != http.StatusOK || len(results(t, body)) != 4 {
		t.Errorf("Flat, which dave may search: %d\n%s", status, body)
	}
}

// The CLI command, run for real against the test server, answers the
// items the page shows, in its order.
func TestVectorSearchCLICommandRuns(t *testing.T) {
	srv, _ := newVectorServer(t, &sortkey.Options{Console: true})
	v := poetryNear()
	v.Set("projection", "id, title")
	_, _, body := get(t, srv.URL+searchPath("ByEmb", v))
	m := vCLIRe.FindStringSubmatch(body)
	if m == nil {
		t.Fatalf("no CLI command:\n%s", body)
	}
	cmd := html.UnescapeString(m[1])
	want := "aws dynamodb search-vectors --endpoint-url " + srv.URL + ` --table-name Docs --index-name ByEmb --search-vector '[{"N":"1"},{"N":"0.3"},{"N":"0"}]' --top-k 10` +
		` --search-condition-expression '#s0 = :s0' --expression-attribute-names '{"#s0":"shelf"}' --expression-attribute-values '{":s0":{"S":"poetry"}}'` +
		` --projection-expression 'id, title' --return-consumed-capacity TOTAL`
	if cmd != want {
		t.Fatalf("command\n%s\nwant\n%s", cmd, want)
	}
	out := runCLI(t, cmd)
	if out == nil {
		return
	}
	var got struct {
		SearchResults []struct{ Item map[string]map[string]string }
	}
	if err := json.Unmarshal(out, &got); err != nil || len(got.SearchResults) != 3 || got.SearchResults[0].Item["id"]["S"] != "a" {
		t.Errorf("CLI answered %s (%v), want a, b, c", out, err)
	}
}

// runCLI runs cmd with the AWS CLI, taught the vector API when its model
// predates it; nil when the CLI is not installed (the text is checked).
func runCLI(t *testing.T, cmd string) []byte {
	t.Helper()
	if _, err := exec.LookPath("aws"); err != nil {
		return nil
	}
	model, err := exec.Command("python3", "../../scripts/awscli-vector-model.py", t.TempDir()).Output()
	if err != nil {
		t.Fatalf("awscli-vector-model.py: %v", err)
	}
	sh := exec.Command("sh", "-c", cmd+" --output json")
	sh.Env = append(sh.Environ(), "AWS_ACCESS_KEY_ID=x", "AWS_SECRET_ACCESS_KEY=x", "AWS_DEFAULT_REGION=us-east-1",
		"AWS_CONFIG_FILE=/dev/null", "AWS_SHARED_CREDENTIALS_FILE=/dev/null", "AWS_DATA_PATH="+strings.TrimSpace(string(model)))
	out, err := sh.Output()
	if err != nil {
		t.Fatalf("%s: %v", cmd, err)
	}
	return out
}
