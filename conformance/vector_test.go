package conformance_test

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go"

	"github.com/sortkeydb/sortkey/sortkeytest"
)

// Vector search (issue 35) through the SDK: indexes created with the
// table and by UpdateTable, writes checked and indexed, and SearchVectors
// answered exactly, against scores the tests compute themselves.

// vec is a vector attribute: an L of N.
func vec(xs ...float64) types.AttributeValue {
	l := make([]types.AttributeValue, len(xs))
	for i, x := range xs {
		l[i] = n(strconv.FormatFloat(x, 'g', -1, 64))
	}
	return &types.AttributeValueMemberL{Value: l}
}

func searchVec(xs ...float64) []types.AttributeValue {
	return vec(xs...).(*types.AttributeValueMemberL).Value
}

func vectorIndex(name, attribute string, dims int64, fn types.VectorDistanceFunction, schema ...types.SearchSchemaElement) types.VectorIndex {
	return types.VectorIndex{IndexName: aws.String(name), VectorAttribute: &types.VectorAttributeDefinition{AttributeName: aws.String(attribute)},
		Dimensions: aws.Int64(dims), DistanceFunction: fn, SearchSchema: schema,
		Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll}}
}

func hashOn(a string) types.SearchSchemaElement {
	return types.SearchSchemaElement{AttributeName: aws.String(a), SearchSchemaElementType: types.SearchSchemaElementTypeHash}
}

func filterOn(a string) types.SearchSchemaElement {
	return types.SearchSchemaElement{AttributeName: aws.String(a), SearchSchemaElementType: types.SearchSchemaElementTypeInlineFilter}
}

// createVectorTable creates "docs": key id, and three indexes on emb (3
// dimensions), one per distance function; "byCat" also has a HASH on cat
// and an INLINE_FILTER on color.
func createVectorTable(t *testing.T, c *dynamodb.Client) *dynamodb.CreateTableOutput {
	t.Helper()
	out, err := c.CreateTable(ctx, &dynamodb.CreateTableInput{TableName: aws.String("docs"),
		AttributeDefinitions: mkDefs("id:S", "cat:S", "color:S"), KeySchema: keyElems([]string{"id"}, nil),
		BillingMode: types.BillingModePayPerRequest,
		VectorIndexes: []types.VectorIndex{
			vectorIndex("cos", "emb", 3, types.VectorDistanceFunctionCosine),
			vectorIndex("euclid", "emb", 3, types.VectorDistanceFunctionEuclidean),
			vectorIndex("dot", "emb", 3, types.VectorDistanceFunctionDotProduct),
			vectorIndex("byCat", "emb", 3, types.VectorDistanceFunctionCosine, hashOn("cat"), filterOn("color")),
		}})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

type doc struct {
	id, cat, color string
	emb            []float64
}

func putDocs(t *testing.T, c *dynamodb.Client, docs []doc) {
	t.Helper()
	for _, d := range docs {
		it := map[string]types.AttributeValue{"id": s(d.id)}
		if d.emb != nil {
			it["emb"] = vec(d.emb...)
		}
		if d.cat != "" {
			it["cat"] = s(d.cat)
		}
		if d.color != "" {
			it["color"] = s(d.color)
		}
		if _, err := c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("docs"), Item: it}); err != nil {
			t.Fatal(err)
		}
	}
}

// score is DynamoDB's score of v for q, computed here in float64 from
// the float32 values the index holds.
func score(fn string, q, v []float64) float64 {
	var dot, nq, nv, l2 float64
	for i := range q {
		a, b := float64(float32(q[i])), float64(float32(v[i]))
		dot, nq, nv, l2 = dot+a*b, nq+a*a, nv+b*b, l2+(a-b)*(a-b)
	}
	switch fn {
	case "COSINE":
		return 1 - dot/math.Sqrt(nq*nv)
	case "EUCLIDEAN":
		return math.Sqrt(l2)
	}
	return dot
}

// bruteForce is the ids of the k best docs for q, best first.
func bruteForce(fn string, q []float64, docs []doc, k int, keep func(doc) bool) []string {
	type hit struct {
		id string
		s  float64
	}
	var hits []hit
	for _, d := range docs {
		if keep == nil || keep(d) {
			hits = append(hits, hit{d.id, score(fn, q, d.emb)})
		}
	}
	slices.SortStableFunc(hits, func(a, b hit) int {
		if fn == "DOT_PRODUCT" {
			a, b = b, a
		}
		switch {
		case a.s < b.s:
			return -1
		case a.s > b.s:
			return 1
		}
		return 0
	})
	var ids []string
	for _, h := range hits[:min(k, len(hits))] {
		ids = append(ids, h.id)
	}
	return ids
}

func searchIDs(t *testing.T, out *dynamodb.SearchVectorsOutput) []string {
	t.Helper()
	var ids []string
	for _, r := range out.SearchResults {
		ids = append(ids, r.Item["id"].(*types.AttributeValueMemberS).Value)
	}
	return ids
}

var sampleDocs = []doc{
	{"a", "books", "red", []float64{1, 0, 0}},
	{"b", "books", "blue", []float64{0.9, 0.1, 0}},
	{"c", "books", "red", []float64{0, 1, 0}},
	{"d", "films", "red", []float64{0.7, 0.7, 0}},
	{"e", "films", "blue", []float64{-1, 0, 0.2}},
	{"f", "", "", []float64{0.2, 0.2, 3}}, // no cat: not in byCat
}

func TestVectorSearchEachDistanceFunction(t *testing.T) {
	c := overTCP(t)
	createVectorTable(t, c)
	putDocs(t, c, sampleDocs)
	q := []float64{0.8, 0.3, 0.1}
	for idx, fn := range map[string]string{"cos": "COSINE", "euclid": "EUCLIDEAN", "dot": "DOT_PRODUCT"} {
		out, err := c.SearchVectors(ctx, &dynamodb.SearchVectorsInput{TableName: aws.String("docs"), IndexName: aws.String(idx),
			SearchVector: searchVec(q...), TopK: aws.Int32(4)})
		if err != nil {
			t.Fatalf("%s: %v", idx, err)
		}
		want := bruteForce(fn, q, sampleDocs, 4, nil)
		if got := searchIDs(t, out); !slices.Equal(got, want) {
			t.Errorf("%s: got %v, want %v", fn, got, want)
		}
		for i, r := range out.SearchResults {
			d := sampleDocs[slices.IndexFunc(sampleDocs, func(d doc) bool { return d.id == want[i] })]
			if w := score(fn, q, d.emb); math.Abs(r.Score-w) > 1e-5 {
				t.Errorf("%s: score of %s is %v, want %v", fn, want[i], r.Score, w)
			}
			if len(r.Item) != len(d.itemAttrs()) {
				t.Errorf("%s: item %v, want the whole item (ALL projection)", fn, r.Item)
			}
		}
	}
}

func (d doc) itemAttrs() []string {
	a := []string{"id", "emb"}
	if d.cat != "" {
		a = append(a, "cat", "color")
	}
	return a
}

func TestVectorSearchConditions(t *testing.T) {
	c := overTCP(t)
	createVectorTable(t, c)
	putDocs(t, c, sampleDocs)
	q := []float64{1, 0.2, 0}
	run := func(cond string, vals map[string]types.AttributeValue) []string {
		out, err := c.SearchVectors(ctx, &dynamodb.SearchVectorsInput{TableName: aws.String("docs"), IndexName: aws.String("byCat"),
			SearchVector: searchVec(q...), TopK: aws.Int32(10), SearchConditionExpression: aws.String(cond),
			ExpressionAttributeNames: map[string]string{"#c": "cat"}, ExpressionAttributeValues: vals})
		if err != nil {
			t.Fatalf("%s: %v", cond, err)
		}
		return searchIDs(t, out)
	}
	if got, want := run("#c = :c", map[string]types.AttributeValue{":c": s("books")}),
		bruteForce("COSINE", q, sampleDocs, 10, func(d doc) bool { return d.cat == "books" }); !slices.Equal(got, want) {
		t.Errorf("HASH only: got %v, want %v", got, want)
	}
	if got, want := run("#c = :c AND color = :r", map[string]types.AttributeValue{":c": s("books"), ":r": s("red")}),
		bruteForce("COSINE", q, sampleDocs, 10, func(d doc) bool { return d.cat == "books" && d.color == "red" }); !slices.Equal(got, want) {
		t.Errorf("HASH and INLINE_FILTER: got %v, want %v", got, want)
	}
	_, err := c.SearchVectors(ctx, &dynamodb.SearchVectorsInput{TableName: aws.String("docs"), IndexName: aws.String("byCat"),
		SearchVector: searchVec(q...), TopK: aws.Int32(10)})
	wantAPIError(t, err, "ValidationException", "SearchConditionExpression must be provided when SearchSchema has a HASH key")
	_, err = c.SearchVectors(ctx, &dynamodb.SearchVectorsInput{TableName: aws.String("docs"), IndexName: aws.String("byCat"),
		SearchVector: searchVec(q...), TopK: aws.Int32(10), SearchConditionExpression: aws.String("cat = :c AND color <> :r"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":c": s("books"), ":r": s("red")}})
	wantAPIError(t, err, "ValidationException", "Invalid comparator used in SearchConditionExpression")
}

func TestVectorSearchRefusals(t *testing.T) {
	c := overTCP(t)
	createVectorTable(t, c)
	putDocs(t, c, sampleDocs)
	base := func() *dynamodb.SearchVectorsInput {
		return &dynamodb.SearchVectorsInput{TableName: aws.String("docs"), IndexName: aws.String("cos"), SearchVector: searchVec(1, 0, 0), TopK: aws.Int32(3)}
	}
	for _, k := range []int32{0, 101} {
		in := base()
		in.TopK = aws.Int32(k)
		_, err := c.SearchVectors(ctx, in)
		wantAPIError(t, err, "ValidationException", "Provided TopK value is out of valid range")
	}
	in := base()
	in.SearchVector = searchVec(1, 0)
	if _, err := c.SearchVectors(ctx, in); err == nil {
		t.Error("a 2-element search vector on a 3-dimension index was accepted")
	}
	in = base()
	in.IndexName = aws.String("nope")
	_, err := c.SearchVectors(ctx, in)
	wantAPIError(t, err, "ValidationException", "The table does not have the specified index: nope")
	in = base()
	in.TableName = aws.String("missing")
	if _, err := c.SearchVectors(ctx, in); !isCode(err, "ResourceNotFoundException") {
		t.Errorf("search of a missing table: %v, want ResourceNotFoundException", err)
	}
	_, err = c.Query(ctx, &dynamodb.QueryInput{TableName: aws.String("docs"), IndexName: aws.String("cos"),
		KeyConditionExpression: aws.String("id = :i"), ExpressionAttributeValues: map[string]types.AttributeValue{":i": s("a")}})
	wantAPIError(t, err, "ValidationException", "The table does not have the specified index: cos")
	_, err = c.Scan(ctx, &dynamodb.ScanInput{TableName: aws.String("docs"), IndexName: aws.String("cos")})
	wantAPIError(t, err, "ValidationException", "The table does not have the specified index: cos")
	if _, err := c.ExecuteStatement(ctx, &dynamodb.ExecuteStatementInput{Statement: aws.String(`SELECT * FROM "docs"."cos"`)}); err == nil {
		t.Error("PartiQL read a vector index")
	}
}

func isCode(err error, code string) bool {
	var ae smithy.APIError
	return errors.As(err, &ae) && ae.ErrorCode() == code
}

func TestVectorWritesAreChecked(t *testing.T) {
	c := overTCP(t)
	createVectorTable(t, c)
	for name, bad := range map[string]types.AttributeValue{
		"too short":   vec(1, 2),
		"not a list":  s("1,2,3"),
		"a string in": &types.AttributeValueMemberL{Value: []types.AttributeValue{n("1"), s("2"), n("3")}},
		"past f32":    vec(1, 2, 1e39),
	} {
		_, err := c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("docs"), Item: map[string]types.AttributeValue{"id": s(name), "emb": bad}})
		if !isCode(err, "ValidationException") {
			t.Errorf("%s: %v, want ValidationException", name, err)
		}
	}
	_, err := c.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String("docs"), Key: map[string]types.AttributeValue{"id": s("u")},
		UpdateExpression: aws.String("SET emb = :v"), ExpressionAttributeValues: map[string]types.AttributeValue{":v": vec(1, 2, 3, 4)}})
	if !isCode(err, "ValidationException") {
		t.Errorf("UpdateItem with a 4-element vector: %v, want ValidationException", err)
	}
	for name, write := range map[string]func() error{
		"BatchWriteItem": func() error {
			_, err := c.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{"docs": {
				{PutRequest: &types.PutRequest{Item: map[string]types.AttributeValue{"id": s("ok"), "emb": vec(1, 2, 3)}}},
				{PutRequest: &types.PutRequest{Item: map[string]types.AttributeValue{"id": s("bad"), "emb": vec(1)}}}}}})
			return err
		},
		"TransactWriteItems Put": func() error {
			_, err := c.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
				{Put: &types.Put{TableName: aws.String("docs"), Item: map[string]types.AttributeValue{"id": s("ok"), "emb": vec(1, 2, 3)}}},
				{Put: &types.Put{TableName: aws.String("docs"), Item: map[string]types.AttributeValue{"id": s("bad"), "emb": s("x")}}}}})
			return err
		},
		"TransactWriteItems Update": func() error {
			_, err := c.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
				{Update: &types.Update{TableName: aws.String("docs"), Key: map[string]types.AttributeValue{"id": s("bad")},
					UpdateExpression: aws.String("SET emb = :v"), ExpressionAttributeValues: map[string]types.AttributeValue{":v": vec(1, 2)}}}}})
			return err
		},
		"PartiQL INSERT": func() error {
			_, err := c.ExecuteStatement(ctx, &dynamodb.ExecuteStatementInput{Statement: aws.String(`INSERT INTO "docs" VALUE {'id': 'bad', 'emb': [1, 2]}`)})
			return err
		},
	} {
		if err := write(); err == nil {
			t.Errorf("%s with a bad vector was accepted", name)
		}
	}
	scan, err := c.Scan(ctx, &dynamodb.ScanInput{TableName: aws.String("docs")})
	if err != nil || scan.Count != 0 {
		t.Fatalf("refused writes left %d items (%v)", scan.Count, err)
	}
	// No vector, or no HASH value: written, and left out of the indexes
	// that need them.
	putDocs(t, c, []doc{{"plain", "", "", nil}})
	putDocs(t, c, sampleDocs)
	d, err := c.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String("docs")})
	if err != nil {
		t.Fatal(err)
	}
	counts := map[string]int64{}
	for _, v := range d.Table.VectorIndexes {
		counts[*v.IndexName] = *v.ItemCount
	}
	if want := map[string]int64{"cos": 6, "euclid": 6, "dot": 6, "byCat": 5}; !maps2Equal(counts, want) {
		t.Errorf("index item counts %v, want %v", counts, want)
	}
}

func maps2Equal(a, b map[string]int64) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

func TestVectorIndexLifecycle(t *testing.T) {
	c := overTCP(t)
	_, err := c.CreateTable(ctx, &dynamodb.CreateTableInput{TableName: aws.String("docs"), AttributeDefinitions: mkDefs("id:S"),
		KeySchema: keyElems([]string{"id"}, nil), BillingMode: types.BillingModePayPerRequest})
	if err != nil {
		t.Fatal(err)
	}
	putDocs(t, c, sampleDocs)
	up, err := c.UpdateTable(ctx, &dynamodb.UpdateTableInput{TableName: aws.String("docs"), AttributeDefinitions: mkDefs("cat:S"),
		VectorIndexUpdates: []types.VectorIndexUpdate{{Create: &types.CreateVectorIndexAction{IndexName: aws.String("vidx"),
			VectorAttribute: &types.VectorAttributeDefinition{AttributeName: aws.String("emb")}, Dimensions: aws.Int64(3),
			DistanceFunction: types.VectorDistanceFunctionEuclidean, SearchSchema: []types.SearchSchemaElement{hashOn("cat")},
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeKeysOnly}}}}})
	if err != nil {
		t.Fatal(err)
	}
	if v := up.TableDescription.VectorIndexes; len(v) != 1 || v[0].IndexStatus != types.IndexStatusCreating || v[0].Backfilling == nil || !*v[0].Backfilling {
		t.Fatalf("UpdateTable's answer: vector indexes %+v, want one CREATING and backfilling", v)
	}
	waitVectorActive(t, c, "vidx")
	out, err := c.SearchVectors(ctx, &dynamodb.SearchVectorsInput{TableName: aws.String("docs"), IndexName: aws.String("vidx"),
		SearchVector: searchVec(1, 0, 0), TopK: aws.Int32(2), SearchConditionExpression: aws.String("cat = :c"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":c": s("films")}, ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := searchIDs(t, out), bruteForce("EUCLIDEAN", []float64{1, 0, 0}, sampleDocs, 2, func(d doc) bool { return d.cat == "films" }); !slices.Equal(got, want) {
		t.Errorf("after the backfill: %v, want %v", got, want)
	}
	if r := out.SearchResults[0].Item; len(r) != 3 || r["color"] != nil {
		t.Errorf("KEYS_ONLY result %v: want id, cat and emb only", r)
	}
	if out.ConsumedCapacity == nil || out.ConsumedCapacity.VectorSearchRequestBytes == nil || *out.ConsumedCapacity.VectorSearchRequestBytes <= 0 {
		t.Errorf("ConsumedCapacity %+v, want VectorSearchRequestBytes", out.ConsumedCapacity)
	}
	del, err := c.UpdateTable(ctx, &dynamodb.UpdateTableInput{TableName: aws.String("docs"),
		VectorIndexUpdates: []types.VectorIndexUpdate{{Delete: &types.DeleteVectorIndexAction{IndexName: aws.String("vidx")}}}})
	if err != nil {
		t.Fatal(err)
	}
	if v := del.TableDescription.VectorIndexes; len(v) != 1 || v[0].IndexStatus != types.IndexStatusDeleting {
		t.Errorf("deleting: %+v, want the index DELETING", v)
	}
	_, err = c.SearchVectors(ctx, &dynamodb.SearchVectorsInput{TableName: aws.String("docs"), IndexName: aws.String("vidx"),
		SearchVector: searchVec(1, 0, 0), TopK: aws.Int32(2), SearchConditionExpression: aws.String("cat = :c"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":c": s("films")}})
	wantAPIError(t, err, "ValidationException", "The table does not have the specified index: vidx")
}

func waitVectorActive(t *testing.T, c *dynamodb.Client, name string) {
	t.Helper()
	for range 500 {
		d, err := c.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String("docs")})
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range d.Table.VectorIndexes {
			if *v.IndexName == name && v.IndexStatus == types.IndexStatusActive && v.Backfilling == nil {
				return
			}
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("vector index %s never became ACTIVE", name)
}

func TestVectorIndexTableRules(t *testing.T) {
	c := overTCP(t)
	create := func(mode types.BillingMode, vis ...types.VectorIndex) error {
		_, err := c.CreateTable(ctx, &dynamodb.CreateTableInput{TableName: aws.String("r"), AttributeDefinitions: mkDefs("id:S"),
			KeySchema: keyElems([]string{"id"}, nil), BillingMode: mode, VectorIndexes: vis,
			ProvisionedThroughput: provisionedIf(mode)})
		return err
	}
	if err := create(types.BillingModeProvisioned, vectorIndex("v1", "emb", 3, types.VectorDistanceFunctionCosine)); !isCode(err, "ValidationException") {
		t.Errorf("a vector index on a provisioned table: %v, want ValidationException", err)
	}
	var six []types.VectorIndex
	for i := range 6 {
		six = append(six, vectorIndex(fmt.Sprintf("v%d", i), "emb", 3, types.VectorDistanceFunctionCosine))
	}
	if err := create(types.BillingModePayPerRequest, six...); err == nil {
		t.Error("six vector indexes were accepted")
	}
	if err := create(types.BillingModePayPerRequest, vectorIndex("v1", "emb", 3, types.VectorDistanceFunctionCosine),
		vectorIndex("v2", "emb", 4, types.VectorDistanceFunctionCosine)); !isCode(err, "ValidationException") {
		t.Errorf("two dimension counts on one attribute: %v, want ValidationException", err)
	}
	if err := create(types.BillingModePayPerRequest, vectorIndex("v1", "emb", 3, types.VectorDistanceFunctionCosine, hashOn("cat"))); err == nil {
		t.Error("a search schema attribute without a definition was accepted")
	}
	if _, err := c.ListTables(ctx, &dynamodb.ListTablesInput{}); err != nil {
		t.Fatal(err)
	}
	if d, err := c.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String("r")}); err == nil {
		t.Errorf("a refused CreateTable left table %s", *d.Table.TableName)
	}
}

func provisionedIf(mode types.BillingMode) *types.ProvisionedThroughput {
	if mode != types.BillingModeProvisioned {
		return nil
	}
	return &types.ProvisionedThroughput{ReadCapacityUnits: aws.Int64(1), WriteCapacityUnits: aws.Int64(1)}
}

// TestVectorSearchMatchesBruteForce: random vectors in random partitions,
// every distance function, with and without a HASH condition: the top K
// is exactly the brute-force top K.
func TestVectorSearchMatchesBruteForce(t *testing.T) {
	c := overTCP(t)
	createVectorTable(t, c)
	r := rand.New(rand.NewPCG(35, 1))
	var docs []doc
	for i := range 300 {
		d := doc{id: fmt.Sprintf("d%03d", i), cat: fmt.Sprintf("c%d", r.IntN(4)), color: []string{"red", "blue"}[r.IntN(2)],
			emb: []float64{r.NormFloat64(), r.NormFloat64(), r.NormFloat64()}}
		docs = append(docs, d)
	}
	putBatch(t, c, docs)
	for range 20 {
		q := []float64{r.NormFloat64(), r.NormFloat64(), r.NormFloat64()}
		k := 1 + r.IntN(20)
		for idx, fn := range map[string]string{"cos": "COSINE", "euclid": "EUCLIDEAN", "dot": "DOT_PRODUCT"} {
			out, err := c.SearchVectors(ctx, &dynamodb.SearchVectorsInput{TableName: aws.String("docs"), IndexName: aws.String(idx),
				SearchVector: searchVec(q...), TopK: aws.Int32(int32(k))})
			if err != nil {
				t.Fatal(err)
			}
			if got, want := searchIDs(t, out), bruteForce(fn, q, docs, k, nil); !slices.Equal(got, want) {
				t.Fatalf("%s top %d: got %v, want %v", fn, k, got, want)
			}
		}
		cat := fmt.Sprintf("c%d", r.IntN(4))
		out, err := c.SearchVectors(ctx, &dynamodb.SearchVectorsInput{TableName: aws.String("docs"), IndexName: aws.String("byCat"),
			SearchVector: searchVec(q...), TopK: aws.Int32(int32(k)), SearchConditionExpression: aws.String("cat = :c AND color = :r"),
			ExpressionAttributeValues: map[string]types.AttributeValue{":c": s(cat), ":r": s("red")}})
		if err != nil {
			t.Fatal(err)
		}
		want := bruteForce("COSINE", q, docs, k, func(d doc) bool { return d.cat == cat && d.color == "red" })
		if got := searchIDs(t, out); !slices.Equal(got, want) {
			t.Fatalf("byCat %s top %d: got %v, want %v", cat, k, got, want)
		}
	}
}

func putBatch(t *testing.T, c *dynamodb.Client, docs []doc) {
	t.Helper()
	for start := 0; start < len(docs); start += 25 {
		var reqs []types.WriteRequest
		for _, d := range docs[start:min(start+25, len(docs))] {
			reqs = append(reqs, types.WriteRequest{PutRequest: &types.PutRequest{Item: map[string]types.AttributeValue{
				"id": s(d.id), "cat": s(d.cat), "color": s(d.color), "emb": vec(d.emb...)}}})
		}
		out, err := c.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{"docs": reqs}})
		if err != nil || len(out.UnprocessedItems) > 0 {
			t.Fatalf("batch write: %v (%d unprocessed)", err, len(out.UnprocessedItems))
		}
	}
}

// TestVectorIndexesRestored: a restore from a backup keeps the source's
// vector indexes, filled from the restored items; VectorIndexOverride
// keeps only those it names, and refuses one the source does not have.
func TestVectorIndexesRestored(t *testing.T) {
	c := overTCP(t)
	createVectorTable(t, c)
	putDocs(t, c, sampleDocs)
	b, err := c.CreateBackup(ctx, &dynamodb.CreateBackupInput{TableName: aws.String("docs"), BackupName: aws.String("nightly")})
	if err != nil {
		t.Fatal(err)
	}
	arn := b.BackupDetails.BackupArn
	if _, err := c.RestoreTableFromBackup(ctx, &dynamodb.RestoreTableFromBackupInput{BackupArn: arn, TargetTableName: aws.String("copy")}); err != nil {
		t.Fatal(err)
	}
	waitTableActive(t, c, "copy")
	q := []float64{0.8, 0.3, 0.1}
	out, err := c.SearchVectors(ctx, &dynamodb.SearchVectorsInput{TableName: aws.String("copy"), IndexName: aws.String("euclid"),
		SearchVector: searchVec(q...), TopK: aws.Int32(3)})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := searchIDs(t, out), bruteForce("EUCLIDEAN", q, sampleDocs, 3, nil); !slices.Equal(got, want) {
		t.Errorf("restored index: got %v, want %v", got, want)
	}
	keep := vectorIndex("dot", "emb", 3, types.VectorDistanceFunctionDotProduct)
	if _, err := c.RestoreTableFromBackup(ctx, &dynamodb.RestoreTableFromBackupInput{BackupArn: arn, TargetTableName: aws.String("some"),
		VectorIndexOverride: []types.VectorIndex{keep}}); err != nil {
		t.Fatal(err)
	}
	waitTableActive(t, c, "some")
	d, err := c.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String("some")})
	if err != nil {
		t.Fatal(err)
	}
	if v := d.Table.VectorIndexes; len(v) != 1 || *v[0].IndexName != "dot" || *v[0].ItemCount != int64(len(sampleDocs)) {
		t.Errorf("with an override: vector indexes %+v, want only dot with %d items", v, len(sampleDocs))
	}
	_, err = c.RestoreTableFromBackup(ctx, &dynamodb.RestoreTableFromBackupInput{BackupArn: arn, TargetTableName: aws.String("none"),
		VectorIndexOverride: []types.VectorIndex{vectorIndex("new", "emb", 3, types.VectorDistanceFunctionCosine)}})
	if !isCode(err, "ValidationException") {
		t.Errorf("an override naming an index the source lacks: %v, want ValidationException", err)
	}
}

func waitTableActive(t *testing.T, c *dynamodb.Client, name string) {
	t.Helper()
	for range 500 {
		d, err := c.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(name)})
		if err == nil && d.Table.TableStatus == types.TableStatusActive {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("table %s never became ACTIVE", name)
}

// overTCP is an SDK client of a fresh server over real HTTP on loopback,
// as an application reaches sortkey serve.
func overTCP(t *testing.T) *dynamodb.Client {
	return dynamodb.NewFromConfig(sortkeytest.New(t).NetworkAWSConfig())
}
