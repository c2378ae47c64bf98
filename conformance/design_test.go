package conformance_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/sortkeydb/sortkey"
	"github.com/sortkeydb/sortkey/sortkeytest"
)

// The Market design (internal/design/testdata/market.yaml) run through
// the AWS SDK: each pattern's request, and what its report then says.

func marketDesign(t *testing.T) []byte {
	t.Helper()
	doc, err := os.ReadFile("../internal/design/testdata/market.yaml")
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

func sv(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }

// newMarket serves the Market design's table with a user, one order and
// its two lines.
func newMarket(t *testing.T, opts *sortkey.Options) (*sortkeytest.Server, *dynamodb.Client) {
	t.Helper()
	srv := sortkeytest.NewWithOptions(t, opts)
	c := srv.Client()
	ctx := context.Background()
	keys := func(h, r string) []types.KeySchemaElement {
		return []types.KeySchemaElement{{AttributeName: aws.String(h), KeyType: types.KeyTypeHash}, {AttributeName: aws.String(r), KeyType: types.KeyTypeRange}}
	}
	_, err := c.CreateTable(ctx, &dynamodb.CreateTableInput{TableName: aws.String("Market"), BillingMode: types.BillingModePayPerRequest,
		KeySchema: keys("pk", "sk"), AttributeDefinitions: attrDefs("pk", "sk", "id", "tp"),
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{
			{IndexName: aws.String("ReverseIndex"), KeySchema: keys("sk", "pk"), Projection: &types.Projection{ProjectionType: types.ProjectionTypeKeysOnly}},
			{IndexName: aws.String("IdLookupIndex"), KeySchema: keys("id", "tp"), Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll}},
		}})
	if err != nil {
		t.Fatal(err)
	}
	marketPut(t, c, map[string]types.AttributeValue{"pk": sv("U#u1"), "sk": sv("U#u1"), "tp": sv("U"), "name": sv("Ada")}, aws.String("attribute_not_exists(pk)"))
	marketPut(t, c, map[string]types.AttributeValue{"pk": sv("U#u1#O"), "sk": sv("O#o1"), "tp": sv("O"), "id": sv("n1"), "status": sv("paid")}, nil)
	for _, line := range []string{"1", "2"} {
		marketPut(t, c, map[string]types.AttributeValue{"pk": sv("U#u1#O"), "sk": sv("O#o1#" + line), "product": sv("pen")}, nil)
	}
	return srv, c
}

func marketPut(t *testing.T, c *dynamodb.Client, item map[string]types.AttributeValue, cond *string) {
	t.Helper()
	if _, err := c.PutItem(context.Background(), &dynamodb.PutItemInput{TableName: aws.String("Market"), Item: item, ConditionExpression: cond}); err != nil {
		t.Fatal(err)
	}
}

// exerciseMarket makes each of the design's four reads once.
func exerciseMarket(t *testing.T, c *dynamodb.Client) {
	t.Helper()
	ctx := context.Background()
	got, err := c.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("Market"), Key: map[string]types.AttributeValue{"pk": sv("U#u1"), "sk": sv("U#u1")}})
	if err != nil || got.Item == nil {
		t.Fatalf("pattern 1: %v %v", got, err)
	}
	if got.ConsumedCapacity != nil {
		t.Errorf("GetItem answered ConsumedCapacity %+v, which the client did not ask for", got.ConsumedCapacity)
	}
	marketQuery(t, c, &dynamodb.QueryInput{KeyConditionExpression: aws.String("pk = :pk"), FilterExpression: aws.String("tp = :tp"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":pk": sv("U#u1#O"), ":tp": sv("O")}, ScanIndexForward: aws.Bool(false), Limit: aws.Int32(10)}, 1)
	marketQuery(t, c, &dynamodb.QueryInput{IndexName: aws.String("IdLookupIndex"), KeyConditionExpression: aws.String("#id = :id AND tp = :tp"),
		ExpressionAttributeNames: map[string]string{"#id": "id"}, ExpressionAttributeValues: map[string]types.AttributeValue{":id": sv("n1"), ":tp": sv("O")}}, 1)
	marketQuery(t, c, &dynamodb.QueryInput{KeyConditionExpression: aws.String("pk = :pk AND begins_with(sk, :o)"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":pk": sv("U#u1#O"), ":o": sv("O#o1")}}, 3)
}

func marketQuery(t *testing.T, c *dynamodb.Client, in *dynamodb.QueryInput, want int32) {
	t.Helper()
	in.TableName = aws.String("Market")
	out, err := c.Query(context.Background(), in)
	if err != nil || out.Count != want {
		t.Fatalf("%s: %v items, err %v; want %d", *in.KeyConditionExpression, out, err, want)
	}
}

// report is the coverage report as GET /sortkey/design/report serves it.
type report struct {
	Patterns []struct {
		Number, Kind                           string
		Calls, Errors, Items, Scanned, Written int64
		RCU, WCU                               float64
		LaterPages                             int64
		FilterDiscardsMost                     bool
	}
	EntityWrites []struct {
		Name           string
		Calls, Written int64
		WCU            float64
	}
	Undeclared []struct {
		Request string
		Scan    bool
		Calls   int64
	}
	NeverExercised []string
}

func getReport(t *testing.T, srv *sortkeytest.Server) report {
	t.Helper()
	resp, err := http.Get(srv.URL + "/sortkey/design/report")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "application/json" {
		t.Fatalf("report: %s %s", resp.Status, resp.Header.Get("Content-Type"))
	}
	var rep report
	if err := json.NewDecoder(resp.Body).Decode(&rep); err != nil {
		t.Fatal(err)
	}
	return rep
}

func TestDesignCoverageCountsEachPattern(t *testing.T) {
	srv, c := newMarket(t, &sortkey.Options{Design: marketDesign(t)})
	exerciseMarket(t, c)
	rep := getReport(t, srv)
	// Every item here is far below 4 KB: an eventually consistent read
	// costs half a unit, a Query half a unit for all it read together; a
	// write one unit on the table plus one per index entry it puts.
	want := map[string]struct {
		items, scanned int64
		rcu            float64
		discards       bool
	}{
		"1":  {1, 0, 0.5, false},
		"2":  {1, 3, 0.5, true}, // the filter keeps the order, drops its two lines
		"4":  {1, 1, 0.5, false},
		"4b": {3, 3, 0.5, false},
	}
	for _, p := range rep.Patterns {
		w, ok := want[p.Number]
		if !ok {
			continue
		}
		if p.Calls != 1 || p.Items != w.items || p.Scanned != w.scanned || p.RCU != w.rcu || p.FilterDiscardsMost != w.discards {
			t.Errorf("pattern %s: %+v, want 1 call and %+v", p.Number, p, w)
		}
	}
	w1 := rep.Patterns[len(rep.Patterns)-1]
	// The user is in the table and ReverseIndex (its keys), not
	// IdLookupIndex (no id): two units.
	if w1.Number != "W1" || w1.Kind != "write" || w1.Calls != 1 || w1.Written != 1 || w1.WCU != 2 {
		t.Errorf("write pattern W1: %+v", w1)
	}
	if len(rep.NeverExercised) != 0 || len(rep.Undeclared) != 0 {
		t.Errorf("never exercised %v, undeclared %+v; want none", rep.NeverExercised, rep.Undeclared)
	}
	checkEntityWrites(t, rep)
}

// checkEntityWrites: the order and its lines were written by plain
// PutItems, which no write pattern names: they count under their entity.
func checkEntityWrites(t *testing.T, rep report) {
	t.Helper()
	got := map[string]int64{}
	for _, e := range rep.EntityWrites {
		got[e.Name] = e.Written
	}
	if len(got) != 2 || got["Order"] != 1 || got["OrderItem"] != 2 {
		t.Errorf("entity writes %+v, want Order 1 and OrderItem 2", rep.EntityWrites)
	}
}

func TestDesignCoverageLeavesAskedCapacityToTheClient(t *testing.T) {
	_, c := newMarket(t, &sortkey.Options{Design: marketDesign(t)})
	got, err := c.GetItem(context.Background(), &dynamodb.GetItemInput{TableName: aws.String("Market"),
		Key: map[string]types.AttributeValue{"pk": sv("U#u1"), "sk": sv("U#u1")}, ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal})
	if err != nil || got.ConsumedCapacity == nil || aws.ToFloat64(got.ConsumedCapacity.CapacityUnits) != 0.5 {
		t.Fatalf("GetItem with ReturnConsumedCapacity TOTAL: %+v, %v", got.ConsumedCapacity, err)
	}
}

func TestDesignCoverageReportsUndeclaredRequests(t *testing.T) {
	srv, c := newMarket(t, &sortkey.Options{Design: marketDesign(t)})
	ctx := context.Background()
	if _, err := c.Scan(ctx, &dynamodb.ScanInput{TableName: aws.String("Market")}); err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"X#1", "X#2"} {
		if _, err := c.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("Market"), Key: map[string]types.AttributeValue{"pk": sv(id), "sk": sv(id)}}); err != nil {
			t.Fatal(err)
		}
	}
	rep := getReport(t, srv)
	if len(rep.Undeclared) != 2 {
		t.Fatalf("undeclared %+v, want the Scan and the X# keys", rep.Undeclared)
	}
	scan, unknown := rep.Undeclared[0], rep.Undeclared[1]
	if !scan.Scan || scan.Calls != 1 || !strings.HasPrefix(scan.Request, "Scan Market") {
		t.Errorf("scan: %+v", scan)
	}
	if unknown.Scan || unknown.Calls != 2 || !strings.Contains(unknown.Request, `pk = "X#…"`) {
		t.Errorf("unknown key prefix: %+v", unknown)
	}
	want := []string{"1 Get user profile", "2 Get the list of last N orders for user", "4 Get a single order with all its items by id", "4b The order's items"}
	if !slices.Equal(rep.NeverExercised, want) {
		t.Errorf("never exercised %q, want %q", rep.NeverExercised, want)
	}
}

// The console reads tables through the API as a client would, but its
// reads are sortkey's own, not the application's: coverage leaves them out.
func TestDesignCoverageLeavesOutTheConsole(t *testing.T) {
	srv, _ := newMarket(t, &sortkey.Options{Design: marketDesign(t), Console: true})
	for _, page := range []string{"/console/", "/console/tables/Market", "/console/tables/Market/indexes/IdLookupIndex"} {
		resp, err := http.Get(srv.URL + page)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("GET %s: %d", page, resp.StatusCode)
		}
	}
	if rep := getReport(t, srv); len(rep.Undeclared) != 0 {
		t.Fatalf("the console's reads were counted: %+v", rep.Undeclared)
	}
}

func TestDesignCoverageCountsLaterPages(t *testing.T) {
	srv, c := newMarket(t, &sortkey.Options{Design: marketDesign(t)})
	p := dynamodb.NewQueryPaginator(c, &dynamodb.QueryInput{TableName: aws.String("Market"), KeyConditionExpression: aws.String("pk = :pk AND begins_with(sk, :o)"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":pk": sv("U#u1#O"), ":o": sv("O#o1")}, Limit: aws.Int32(1)})
	pages := 0
	for p.HasMorePages() {
		if _, err := p.NextPage(context.Background()); err != nil {
			t.Fatal(err)
		}
		pages++
	}
	for _, pr := range getReport(t, srv).Patterns {
		if pr.Number == "4b" && (pr.Calls != int64(pages) || pr.LaterPages != int64(pages-1) || pr.Items != 3) {
			t.Errorf("4b after %d pages: %+v", pages, pr)
		}
	}
}

func TestDesignCoverageMarkdown(t *testing.T) {
	srv, c := newMarket(t, &sortkey.Options{Design: marketDesign(t)})
	exerciseMarket(t, c)
	_, _ = c.Scan(context.Background(), &dynamodb.ScanInput{TableName: aws.String("Market")})
	md, err := srv.DB.DesignReportMarkdown()
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range []string{"## Design coverage: Market", "| 1 | Get user profile | GetItem | 1 | 0 | 1 | 0 | 0 | 0.5 | 0 | 0 |",
		"| W1 | Sign a user up | PutItem | 1 | 0 | 0 | 0 | 1 | 0 | 2 | 0 |", "| **Scan** Scan Market | 1 |", "None: every pattern was exercised."} {
		if !strings.Contains(md, line) {
			t.Errorf("Markdown lacks %q:\n%s", line, md)
		}
	}
}

// Without a design, the report's path is not found, as any path but / is
// on DynamoDB's endpoint (facts 22.2).
func TestDesignReportIsNotFoundWithoutADesign(t *testing.T) {
	srv := sortkeytest.New(t)
	resp, err := http.Get(srv.URL + "/sortkey/design/report")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 404 {
		t.Errorf("without a design: %s %q", resp.Status, body)
	}
	if _, err := srv.DB.DesignReport(); err == nil {
		t.Error("DesignReport without a design: no error")
	}
}

func TestOpenRefusesABadDesign(t *testing.T) {
	if _, err := sortkey.Open("", &sortkey.Options{InMemory: true, Design: []byte("version: 1\nnope: [")}); err == nil {
		t.Error("a design that does not parse was taken")
	}
	cov, err := sortkey.NewCoverage(marketDesign(t))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := sortkey.Open("", &sortkey.Options{InMemory: true, Design: marketDesign(t), Coverage: cov}); err == nil {
		t.Error("Design and Coverage both set: no error")
	}
}
