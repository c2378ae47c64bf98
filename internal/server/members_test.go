package server_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/aws-sdk-go-v2/service/dynamodbstreams"

	"github.com/sortkeydb/sortkey"
	"github.com/sortkeydb/sortkey/internal/protocol"
	"github.com/sortkeydb/sortkey/internal/server"
	"github.com/sortkeydb/sortkey/sortkeytest"
)

// api is one of the two target prefixes the server answers, with the
// operations it serves and the SDK client that speaks it.
type api struct {
	prefix string
	served map[string]reflect.Type // our input struct per operation
	sdk    map[string]reflect.Type // the SDK's input struct per operation
}

func apis() []api {
	dyn, streams := server.OperationInputs()
	return []api{
		{"DynamoDB_20120810.", dyn, sdkInputs(reflect.TypeFor[*dynamodb.Client]())},
		{"DynamoDBStreams_20120810.", streams, sdkInputs(reflect.TypeFor[*dynamodbstreams.Client]())},
	}
}

// sdkInputs maps each operation of an SDK client to its input struct: the
// client has one method per operation, func(ctx, *<Op>Input, ...optFns).
// Reading them from the client means an operation added to the SDK is
// examined without anyone listing it here.
func sdkInputs(client reflect.Type) map[string]reflect.Type {
	ops := map[string]reflect.Type{}
	for i := range client.NumMethod() {
		m := client.Method(i)
		if m.Type.NumIn() != 4 || m.Type.In(2).Kind() != reflect.Pointer {
			continue
		}
		if in := m.Type.In(2).Elem(); in.Name() == m.Name+"Input" {
			ops[m.Name] = in
		}
	}
	return ops
}

// member is a member of an SDK input shape, by its path from the
// operation (CreateTable.GlobalSecondaryIndexes.WarmThroughput).
type member struct {
	path string
	sdk  reflect.Type // the SDK field's type, to build a value of its kind
}

func (m member) name() string { return m.path[strings.LastIndex(m.path, ".")+1:] }

// coverage pairs every member of the SDK struct sdk with the field of ours
// that has its JSON name, through pointers, lists and maps, down to
// AttributeValue (whose codec has tests of its own). A member is handled
// when a typed field decodes it, refused when that field is a
// protocol.Refused; anything else is a member the server would drop.
type coverage struct {
	refused, dropped []member
}

func (c *coverage) walk(path string, sdk, ours reflect.Type) {
	fields := jsonFields(ours)
	for i := range sdk.NumField() {
		f := sdk.Field(i)
		if !f.IsExported() {
			continue
		}
		m := member{path: path + "." + f.Name, sdk: f.Type}
		o, ok := fields[f.Name]
		switch {
		case !ok:
			c.dropped = append(c.dropped, m)
		case o == reflect.TypeFor[protocol.Refused]():
			c.refused = append(c.refused, m)
		default:
			c.nested(m, o)
		}
	}
}

// nested follows a handled member into its elements, which must be typed
// in turn: a field of type any or json.RawMessage decodes a member only to
// drop it.
func (c *coverage) nested(m member, ours reflect.Type) {
	s, o := elem(m.sdk), elem(ours)
	switch {
	case s.Kind() == reflect.Interface && s.Name() == "AttributeValue":
	case untyped(ours):
		c.dropped = append(c.dropped, m)
	case s.Kind() == reflect.Interface:
		c.dropped = append(c.dropped, m) // a union: walk it by hand when one appears
	case s.Kind() == reflect.Struct && s != reflect.TypeFor[time.Time]():
		if o.Kind() != reflect.Struct {
			c.dropped = append(c.dropped, m)
			return
		}
		c.walk(m.path, s, o)
	}
}

// elem strips pointers, lists and maps down to the element type.
func elem(t reflect.Type) reflect.Type {
	for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Map {
		t = t.Elem()
	}
	return t
}

// untyped reports a field that decodes any JSON without reading it.
func untyped(t reflect.Type) bool {
	for {
		switch {
		case t == reflect.TypeFor[json.RawMessage]() || t.Kind() == reflect.Interface:
			return true
		case t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Map:
			t = t.Elem()
		default:
			return false
		}
	}
}

// jsonFields maps the JSON names encoding/json decodes into t to their
// field types, members of embedded structs included.
func jsonFields(t reflect.Type) map[string]reflect.Type {
	m := map[string]reflect.Type{}
	for i := range t.NumField() {
		f := t.Field(i)
		if f.Anonymous {
			for k, v := range jsonFields(f.Type) {
				m[k] = v
			}
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "" {
			name = f.Name
		}
		m[name] = f.Type
	}
	return m
}

// coverageOf walks every served operation of every API.
func coverageOf(t *testing.T) (c coverage, ops map[string]string) {
	ops = map[string]string{} // operation -> its target prefix
	for _, a := range apis() {
		for name, ours := range a.served {
			sdk, ok := a.sdk[name]
			if !ok {
				t.Errorf("%s%s is served, but the SDK has no such operation", a.prefix, name)
				continue
			}
			ops[name] = a.prefix
			c.walk(name, sdk, ours)
		}
	}
	return c, ops
}

// TestEverySDKMemberIsHandledOrRefused holds every wire struct to the AWS
// SDK's input shape: a member the SDK can send is either decoded into a
// typed field or refused by name, never accepted and dropped.
func TestEverySDKMemberIsHandledOrRefused(t *testing.T) {
	c, _ := coverageOf(t)
	for _, m := range c.dropped {
		t.Errorf("%s (%s) is neither handled nor refused: decode it into a typed field, or make it a protocol.Refused", m.path, m.sdk)
	}
	if len(c.refused) == 0 {
		t.Fatal("no refused members found: the walk is broken")
	}
}

// TestRefusedMembersAreRefused sends, for every refused member, a valid
// request of its operation with the member set, and expects a
// ValidationException naming it, with nothing changed.
func TestRefusedMembersAreRefused(t *testing.T) {
	cov, ops := coverageOf(t)
	// The bucket lets ExportTableToPointInTime's baseline run.
	srv := sortkeytest.NewWithOptions(t, &sortkey.Options{InMemory: true, S3Dirs: map[string]string{"base": t.TempDir()}})
	baselines := setUpBaselines(t, srv)
	for _, m := range cov.refused {
		op, _, _ := strings.Cut(m.path, ".")
		t.Run(m.path, func(t *testing.T) {
			if strings.Count(m.path, ".") != 1 {
				t.Fatal("validate.Refused checks top-level members only; refuse the member that contains this one")
			}
			base, ok := baselines[op]
			if !ok {
				t.Fatalf("no baseline request for %s: add one to setUpBaselines", op)
			}
			before := snapshot(t, srv.URL)
			wantRefused(t, post(t, srv.URL, ops[op]+op, with(base, m.name(), sample(m.sdk))), m.name())
			if after := snapshot(t, srv.URL); after != before {
				t.Errorf("a refused request changed the tables:\nbefore %s\nafter  %s", before, after)
			}
		})
	}
	for op, base := range baselines { // the baselines are valid without the member
		if r := post(t, srv.URL, ops[op]+op, base); r.status != http.StatusOK {
			t.Errorf("baseline %s: %d %s", op, r.status, r.body)
		}
	}
}

// setUpBaselines creates a streamed table and returns a valid request of
// each operation that has refused members. UpdateTable's turns on
// deletion protection, so a change would show in the snapshot.
func setUpBaselines(t *testing.T, srv *sortkeytest.Server) map[string]map[string]any {
	ctx := context.Background()
	_, err := srv.Client().CreateTable(ctx, &dynamodb.CreateTableInput{
		TableName:            aws.String("base"),
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS}},
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash}},
		BillingMode:          types.BillingModePayPerRequest,
		StreamSpecification:  &types.StreamSpecification{StreamEnabled: aws.Bool(true), StreamViewType: types.StreamViewTypeKeysOnly},
	})
	if err != nil {
		t.Fatal(err)
	}
	streams, err := srv.StreamsClient().ListStreams(ctx, &dynamodbstreams.ListStreamsInput{})
	if err != nil || len(streams.Streams) != 1 {
		t.Fatalf("ListStreams: %v %+v", err, streams)
	}
	arn := *streams.Streams[0].StreamArn
	d, err := srv.StreamsClient().DescribeStream(ctx, &dynamodbstreams.DescribeStreamInput{StreamArn: &arn})
	if err != nil {
		t.Fatal(err)
	}
	bk, err := srv.Client().CreateBackup(ctx, &dynamodb.CreateBackupInput{TableName: aws.String("base"), BackupName: aws.String("base")})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := srv.Client().UpdateContinuousBackups(ctx, &dynamodb.UpdateContinuousBackupsInput{TableName: aws.String("base"),
		PointInTimeRecoverySpecification: &types.PointInTimeRecoverySpecification{PointInTimeRecoveryEnabled: aws.Bool(true)}}); err != nil {
		t.Fatal(err)
	}
	return map[string]map[string]any{
		"RestoreTableToPointInTime": {"SourceTableName": "base", "TargetTableName": "restored2", "UseLatestRestorableTime": true},
		"RestoreTableFromBackup":    {"BackupArn": *bk.BackupDetails.BackupArn, "TargetTableName": "restored"},
		"CreateTable": {"TableName": "created", "BillingMode": "PAY_PER_REQUEST",
			"KeySchema":            []any{map[string]any{"AttributeName": "pk", "KeyType": "HASH"}},
			"AttributeDefinitions": []any{map[string]any{"AttributeName": "pk", "AttributeType": "S"}}},
		"UpdateTable":              {"TableName": "base", "DeletionProtectionEnabled": true},
		"DescribeStream":           {"StreamArn": arn},
		"ExportTableToPointInTime": {"TableArn": arn[:strings.Index(arn, "/stream/")], "S3Bucket": "base"},
		"GetShardIterator":         {"StreamArn": arn, "ShardId": *d.StreamDescription.Shards[0].ShardId, "ShardIteratorType": "TRIM_HORIZON"},
	}
}

// with is base plus one member.
func with(base map[string]any, name string, v any) map[string]any {
	m := map[string]any{name: v}
	for k, x := range base {
		m[k] = x
	}
	return m
}

// sample is a JSON value of the kind an SDK field of type t is sent as.
func sample(t reflect.Type) any {
	switch t.Kind() {
	case reflect.Pointer:
		return sample(t.Elem())
	case reflect.String:
		return "x"
	case reflect.Bool:
		return true
	case reflect.Int, reflect.Int32, reflect.Int64:
		return 1
	case reflect.Slice:
		return []any{sample(t.Elem())}
	case reflect.Map:
		return map[string]any{"x": sample(t.Elem())}
	case reflect.Struct:
		if t == reflect.TypeFor[time.Time]() {
			return 1767323045 // timestamps travel as epoch seconds
		}
	}
	return map[string]any{}
}

// snapshot is every table's description, as JSON.
func snapshot(t *testing.T, url string) string {
	var list struct{ TableNames []string }
	decodeBody(t, post(t, url, "DynamoDB_20120810.ListTables", map[string]any{}), &list)
	var out []string
	for _, name := range list.TableNames {
		out = append(out, string(post(t, url, "DynamoDB_20120810.DescribeTable", map[string]any{"TableName": name}).body))
	}
	return strings.Join(out, "\n")
}

type response struct {
	status int
	body   []byte
}

// post sends one request as an SDK would, over HTTP.
func post(t *testing.T, url, target string, body any) response {
	t.Helper()
	b, _ := json.Marshal(body)
	req, _ := http.NewRequest(http.MethodPost, url, bytes.NewReader(b))
	req.Header.Set("Content-Type", "application/x-amz-json-1.0")
	req.Header.Set("X-Amz-Target", target)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return response{resp.StatusCode, raw}
}

func decodeBody(t *testing.T, r response, v any) {
	t.Helper()
	if r.status != http.StatusOK || json.Unmarshal(r.body, v) != nil {
		t.Fatalf("%d %s", r.status, r.body)
	}
}

type apiError struct {
	Type    string `json:"__type"`
	Message string `json:"message"`
}

func wantRefused(t *testing.T, r response, name string) {
	t.Helper()
	var e apiError
	_ = json.Unmarshal(r.body, &e)
	if r.status != http.StatusBadRequest || !strings.HasSuffix(e.Type, "#ValidationException") ||
		!strings.HasPrefix(e.Message, name+" ") || !strings.Contains(e.Message, "not supported by sortkey") {
		t.Fatalf("want a ValidationException naming %s, got %d %s", name, r.status, r.body)
	}
}

// TestUnservedOperationsAreUnknown sends every operation the SDK has and
// the server does not serve, and expects UnknownOperationException saying
// that sortkey does not support it: an operation new in the SDK is
// noticed here.
func TestUnservedOperationsAreUnknown(t *testing.T) {
	srv := sortkeytest.New(t)
	n := 0
	for _, a := range apis() {
		for name := range a.sdk {
			if _, ok := a.served[name]; ok {
				continue
			}
			n++
			r := post(t, srv.URL, a.prefix+name, map[string]any{})
			var e apiError
			_ = json.Unmarshal(r.body, &e)
			want := "sortkey does not support the DynamoDB operation " + name
			if r.status != http.StatusBadRequest || !strings.HasSuffix(e.Type, "#UnknownOperationException") || e.Message != want {
				t.Errorf("%s%s: %d %s, want UnknownOperationException %q", a.prefix, name, r.status, r.body, want)
			}
		}
	}
	if _, ok := apis()[0].sdk["ExecuteStatement"]; n == 0 || !ok {
		t.Fatal("no unserved operations found: the SDK walk is broken")
	}
}
