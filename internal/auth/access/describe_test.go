package access

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/sortkeydb/sortkey/internal/protocol"
)

// kv is a check's condition keys, as a test writes them.
type kv = map[string][]string

// U is Unbounded, short for the tables below.
const U = Unbounded

// tcase is one request and the checks DynamoDB makes for it.
type tcase struct {
	name string
	op   string
	body string
	want []Check
}

// decode turns a JSON body into the operation's input, as the server does.
func decode(t testing.TB, op, body string) any {
	t.Helper()
	in := inputs[op]()
	if err := protocol.Decode([]byte(body), in); err != nil {
		t.Fatalf("decode %s %s: %v", op, body, err)
	}
	return in
}

func runCases(t *testing.T, cases []tcase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.op+"/"+tc.name, func(t *testing.T) {
			got, err := Describe(tc.op, decode(t, tc.op, tc.body), testCatalog{})
			if err != nil {
				t.Fatalf("Describe: %v", err)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("checks differ\n got: %s\nwant: %s", show(got), show(tc.want))
			}
		})
	}
}

func show(cs []Check) string {
	s := ""
	for _, c := range cs {
		s += fmt.Sprintf("\n  {%s %s table=%q keys=%q}", c.Action, c.Resource, c.Table, c.Keys)
	}
	return s
}

// orders is a check on the Orders table.
func orders(action string, keys kv) Check {
	return Check{Action: "dynamodb:" + action, Resource: ordersArn, Table: "Orders", Keys: keys}
}

func onIndex(action, index string, keys kv) Check {
	c := orders(action, keys)
	c.Resource += "/index/" + index
	return c
}

func one(c Check) []Check { return []Check{c} }

func TestDescribeErrors(t *testing.T) {
	if _, err := Describe("CreateGlobalTable", &protocol.Empty{}, testCatalog{}); !errors.Is(err, ErrUnknownOperation) {
		t.Errorf("unknown operation: got %v", err)
	}
	readsNothing := map[string]bool{"ListTables": true, "ListStreams": true, "ListBackups": true, "ListExports": true}
	for op, mk := range inputs {
		wrong := any(&protocol.Empty{})
		if _, isEmpty := mk().(*protocol.Empty); isEmpty || readsNothing[op] {
			continue
		}
		if _, err := Describe(op, wrong, testCatalog{}); !errors.Is(err, ErrInputType) {
			t.Errorf("%s with the wrong input: got %v, want ErrInputType", op, err)
		}
		// Another operation's input, of the same family, is refused too.
		if _, err := Describe(op, &protocol.DescribeTableInput{}, testCatalog{}); op != "DescribeTable" && !errors.Is(err, ErrInputType) {
			t.Errorf("%s with DescribeTable's input: got %v, want ErrInputType", op, err)
		}
	}
	for op, mk := range inputs {
		typedNil := reflect.Zero(reflect.TypeOf(mk())).Interface()
		for _, in := range []any{nil, typedNil} {
			if _, err := Describe(op, in, testCatalog{}); !errors.Is(err, ErrInputType) {
				t.Errorf("%s with a nil %T: got %v, want ErrInputType", op, in, err)
			}
		}
	}
}

// Every operation the server serves is described (internal/server/ops.go
// lists them), plus the resource-policy operations.
func TestEveryOperationDescribed(t *testing.T) {
	for op, mk := range inputs {
		if _, err := Describe(op, mk(), testCatalog{}); err != nil && op != "ExecuteStatement" {
			t.Errorf("%s with an empty request: %v", op, err)
		}
	}
	if len(describers) != len(inputs) {
		t.Errorf("describers has %d operations, the test's inputs %d", len(describers), len(inputs))
	}
}

// TestSearchVectorsIsOnTheIndex: SearchVectors is authorised on the vector
// index's ARN, with no DynamoDB condition keys (fine-grained access
// control does not apply to it).
func TestSearchVectorsIsOnTheIndex(t *testing.T) {
	name, index := "docs", "byEmbedding"
	checks, err := Describe("SearchVectors", &protocol.SearchVectorsInput{TableName: &name, IndexName: &index}, testCatalog{})
	if err != nil {
		t.Fatal(err)
	}
	if len(checks) != 1 || checks[0].Action != "dynamodb:SearchVectors" || !strings.HasSuffix(checks[0].Resource, ":table/docs/index/byEmbedding") {
		t.Fatalf("checks %+v, want dynamodb:SearchVectors on the index", checks)
	}
	if len(checks[0].Keys) != 0 {
		t.Errorf("condition keys %v, want none", checks[0].Keys)
	}
}
