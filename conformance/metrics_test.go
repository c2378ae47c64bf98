package conformance_test

import (
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"github.com/sortkeydb/sortkey"
	"github.com/sortkeydb/sortkey/internal/storage"
	"github.com/sortkeydb/sortkey/sortkeytest"
)

// metricsServer is a server with metrics on, its client over real HTTP,
// and a table Orders (pk, sk) with a GSI ByStatus (status, sk).
func metricsServer(t *testing.T, opts *sortkey.Options) (*sortkeytest.Server, *dynamodb.Client) {
	t.Helper()
	srv := sortkeytest.NewWithOptions(t, opts)
	c := dynamodb.NewFromConfig(srv.NetworkAWSConfig())
	key := func(n string, kt types.KeyType) types.KeySchemaElement {
		return types.KeySchemaElement{AttributeName: aws.String(n), KeyType: kt}
	}
	def := func(n string) types.AttributeDefinition {
		return types.AttributeDefinition{AttributeName: aws.String(n), AttributeType: types.ScalarAttributeTypeS}
	}
	_, err := c.CreateTable(ctx, &dynamodb.CreateTableInput{TableName: aws.String("Orders"), BillingMode: types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{def("pk"), def("sk"), def("status")},
		KeySchema:            []types.KeySchemaElement{key("pk", types.KeyTypeHash), key("sk", types.KeyTypeRange)},
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{{IndexName: aws.String("ByStatus"),
			KeySchema:  []types.KeySchemaElement{key("status", types.KeyTypeHash), key("sk", types.KeyTypeRange)},
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll}}}})
	if err != nil {
		t.Fatal(err)
	}
	return srv, c
}

// scrape GETs /metrics and parses Prometheus's text format.
func scrape(t *testing.T, url string) map[string]*dto.MetricFamily {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %d", url, resp.StatusCode)
	}
	p := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := p.TextToMetricFamilies(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return fams
}

// value is the sample of family name with exactly these labels, and
// whether there is one; a histogram's is its count.
func value(fams map[string]*dto.MetricFamily, name string, labels ...string) (float64, bool) {
	f := fams[name]
	if f == nil {
		return 0, false
	}
	for _, m := range f.Metric {
		if !hasLabels(m, labels) {
			continue
		}
		switch {
		case m.Counter != nil:
			return m.Counter.GetValue(), true
		case m.Gauge != nil:
			return m.Gauge.GetValue(), true
		case m.Histogram != nil:
			return float64(m.Histogram.GetSampleCount()), true
		}
	}
	return 0, false
}

func hasLabels(m *dto.Metric, labels []string) bool {
	if len(m.Label) != len(labels)/2 {
		return false
	}
	for i := 0; i < len(labels); i += 2 {
		found := false
		for _, l := range m.Label {
			found = found || (l.GetName() == labels[i] && l.GetValue() == labels[i+1])
		}
		if !found {
			return false
		}
	}
	return true
}

func wantValue(t *testing.T, fams map[string]*dto.MetricFamily, want float64, name string, labels ...string) {
	t.Helper()
	if got, ok := value(fams, name, labels...); !ok || got != want {
		t.Errorf("%s%q = %v (present %v), want %v", name, labels, got, ok, want)
	}
}

func orderItem(id, status string) map[string]types.AttributeValue {
	return map[string]types.AttributeValue{"pk": s("U#1"), "sk": s("O#" + id), "status": s(status)}
}

// The calls an application makes show up in /metrics: each under its
// operation and error code, with its latency, the capacity it consumed
// under the table and the GSI, and the table's item count.
func TestMetricsCountTheCallsMade(t *testing.T) {
	srv, c := metricsServer(t, &sortkey.Options{Metrics: true})
	for _, id := range []string{"1", "2", "3"} {
		if _, err := c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("Orders"), Item: orderItem(id, "open")}); err != nil {
			t.Fatal(err)
		}
	}
	for range 2 {
		if _, err := c.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("Orders"),
			Key: map[string]types.AttributeValue{"pk": s("U#1"), "sk": s("O#1")}}); err != nil {
			t.Fatal(err)
		}
	}
	_, err := c.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("Missing"), Key: map[string]types.AttributeValue{"pk": s("x")}})
	var nf *types.ResourceNotFoundException
	if !errors.As(err, &nf) {
		t.Fatalf("GetItem on a missing table: %v", err)
	}
	if _, err := c.Query(ctx, &dynamodb.QueryInput{TableName: aws.String("Orders"), IndexName: aws.String("ByStatus"),
		KeyConditionExpression: aws.String("#s = :s"), ExpressionAttributeNames: map[string]string{"#s": "status"},
		ExpressionAttributeValues: map[string]types.AttributeValue{":s": s("open")}}); err != nil {
		t.Fatal(err)
	}
	fams := scrape(t, srv.URL+"/metrics")
	wantValue(t, fams, 3, "sortkey_requests_total", "operation", "PutItem", "error", "")
	wantValue(t, fams, 2, "sortkey_requests_total", "operation", "GetItem", "error", "")
	wantValue(t, fams, 1, "sortkey_requests_total", "operation", "GetItem", "error", "ResourceNotFoundException")
	wantValue(t, fams, 1, "sortkey_requests_total", "operation", "CreateTable", "error", "")
	wantValue(t, fams, 3, "sortkey_request_duration_seconds", "operation", "GetItem")
	// A put of a small item writes 1 unit to the table and 1 to the GSI
	// it appears in; a GetItem reads 0.5 (eventually consistent), the
	// Query 0.5 on the index for three small items.
	wantValue(t, fams, 3, "sortkey_consumed_write_capacity_units_total", "table", "Orders", "index", "")
	wantValue(t, fams, 3, "sortkey_consumed_write_capacity_units_total", "table", "Orders", "index", "ByStatus")
	wantValue(t, fams, 1, "sortkey_consumed_read_capacity_units_total", "table", "Orders", "index", "")
	wantValue(t, fams, 0.5, "sortkey_consumed_read_capacity_units_total", "table", "Orders", "index", "ByStatus")
	wantValue(t, fams, 3, "sortkey_table_items", "table", "Orders", "index", "")
	wantValue(t, fams, 3, "sortkey_table_items", "table", "Orders", "index", "ByStatus")
	storeMetrics := []string{"sortkey_storage_compactions_total", "sortkey_storage_write_stalls_total", "sortkey_storage_block_cache_hits_total"}
	if storage.UnderTestStore() {
		storeMetrics = []string{"sortkey_storage_round_trips_total", "sortkey_storage_round_trip_seconds_total", "sortkey_storage_connections"}
	}
	for _, name := range append(storeMetrics, "sortkey_table_size_bytes", "go_goroutines", "process_resident_memory_bytes") {
		if fams[name] == nil {
			t.Errorf("no %s in /metrics", name)
		}
	}
}

// Counting capacity does not change what the client receives: none when
// it asked none, the total without a breakdown when it asked TOTAL.
func TestMetricsLeaveTheClientsCapacityAsAsked(t *testing.T) {
	_, c := metricsServer(t, &sortkey.Options{Metrics: true})
	put := func(mode types.ReturnConsumedCapacity) *types.ConsumedCapacity {
		// A new item each time, so that the GSI is written too.
		out, err := c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("Orders"), Item: orderItem(string(mode), "open"), ReturnConsumedCapacity: mode})
		if err != nil {
			t.Fatal(err)
		}
		return out.ConsumedCapacity
	}
	if cc := put(""); cc != nil {
		t.Errorf("asked none, got %+v", cc)
	}
	if cc := put(types.ReturnConsumedCapacityTotal); cc == nil || aws.ToFloat64(cc.CapacityUnits) != 2 || cc.Table != nil || len(cc.GlobalSecondaryIndexes) != 0 {
		t.Errorf("asked TOTAL, got %+v", cc)
	}
	if cc := put(types.ReturnConsumedCapacityIndexes); cc == nil || cc.Table == nil || len(cc.GlobalSecondaryIndexes) != 1 {
		t.Errorf("asked INDEXES, got %+v", cc)
	}
}

// Metrics off (the zero Options) leave /metrics not found, as any path but
// / is (facts 22.2), and MetricsHandler answers 404; MetricsApart serves
// them only there.
func TestMetricsOffAndApart(t *testing.T) {
	off, _ := metricsServer(t, &sortkey.Options{})
	rec := httptest.NewRecorder()
	off.DB.MetricsHandler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/metrics", nil))
	if code, body := getBody(t, off.URL+"/metrics"); code != http.StatusNotFound || rec.Code != http.StatusNotFound {
		t.Errorf("metrics off: GET /metrics %d %q, MetricsHandler %d", code, body, rec.Code)
	}
	apart, c := metricsServer(t, &sortkey.Options{Metrics: true, MetricsApart: true})
	if _, err := c.ListTables(ctx, &dynamodb.ListTablesInput{}); err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(apart.DB.MetricsHandler())
	defer hs.Close()
	wantValue(t, scrape(t, hs.URL+"/metrics"), 1, "sortkey_requests_total", "operation", "ListTables", "error", "")
	if code, body := getBody(t, apart.URL+"/metrics"); code != http.StatusNotFound {
		t.Errorf("MetricsApart still serves /metrics on the API port: %d %.200s", code, body)
	}
}

func getBody(t *testing.T, url string) (int, string) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, string(b)
}

// The stream and TTL backlog: records kept until they are a day old,
// items the TTL sweeper deleted, and when it last swept, by the
// database's clock.
func TestMetricsStreamAndTTLBacklog(t *testing.T) {
	srv := sortkeytest.NewWithOptions(t, &sortkey.Options{Metrics: true, Clock: sortkey.NewVirtualClock(clockStart), TTLInterval: -1})
	c := dynamodb.NewFromConfig(srv.NetworkAWSConfig())
	createStreamed(t, c, "events", types.StreamViewTypeKeysOnly)
	enableTTL(t, c, "events", "ttl")
	inAnHour := n(strconv.FormatInt(clockStart.Add(time.Hour).Unix(), 10))
	for _, it := range []map[string]types.AttributeValue{{"pk": s("a")}, {"pk": s("b")}, {"pk": s("c"), "ttl": inAnHour}} {
		if err := put(c, "events", it); err != nil {
			t.Fatal(err)
		}
	}
	fams := scrape(t, srv.URL+"/metrics")
	wantValue(t, fams, 3, "sortkey_stream_records", "table", "events")
	wantValue(t, fams, 0, "sortkey_ttl_deleted_total", "table", "events")
	if _, ok := value(fams, "sortkey_ttl_last_sweep_timestamp_seconds"); ok {
		t.Error("a last sweep time before any sweep")
	}

	swept := srv.Advance(2 * time.Hour) // c expires: deleted, with a REMOVE record
	fams = scrape(t, srv.URL+"/metrics")
	wantValue(t, fams, 4, "sortkey_stream_records", "table", "events")
	wantValue(t, fams, 1, "sortkey_ttl_deleted_total", "table", "events")
	wantValue(t, fams, float64(swept.Unix()), "sortkey_ttl_last_sweep_timestamp_seconds")

	swept = srv.Advance(25 * time.Hour) // every record is now over a day old
	if err := put(c, "events", map[string]types.AttributeValue{"pk": s("d")}); err != nil {
		t.Fatal(err)
	}
	fams = scrape(t, srv.URL+"/metrics")
	wantValue(t, fams, 1, "sortkey_stream_records", "table", "events")
	wantValue(t, fams, 1, "sortkey_ttl_deleted_total", "table", "events")
	wantValue(t, fams, float64(swept.Unix()), "sortkey_ttl_last_sweep_timestamp_seconds")
}
