package console

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"strings"

	"github.com/sortkeydb/sortkey/internal/server"
)

const (
	targetPrefix = "DynamoDB_20120810."
	jsonType     = "application/x-amz-json-1.0"
)

// apiError is an error the API answered, with its DynamoDB type (the part
// of __type after '#') and message, shown to the user as they are.
type apiError struct {
	Type    string
	Message string
	Status  int
}

func (e *apiError) Error() string { return e.Type + ": " + e.Message }

// client calls the DynamoDB API in process, through the same handler the
// server's clients reach over HTTP.
type client struct{ api http.Handler }

// call POSTs op with in as its JSON body and decodes the answer into out.
func (c client) call(ctx context.Context, op string, in, out any) error {
	body, err := json.Marshal(in)
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(server.Unobserved(ctx), http.MethodPost, "/", bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("X-Amz-Target", targetPrefix+op)
	req.Header.Set("Content-Type", jsonType)
	req.RemoteAddr = "127.0.0.1:0"
	rec := newRecorder()
	c.api.ServeHTTP(rec, req)
	if rec.status != http.StatusOK {
		return decodeError(rec)
	}
	return json.Unmarshal(rec.body.Bytes(), out)
}

func decodeError(rec *recorder) error {
	var e struct {
		Type    string `json:"__type"`
		Message string `json:"message"`
		Upper   string `json:"Message"`
	}
	_ = json.Unmarshal(rec.body.Bytes(), &e)
	msg := e.Message
	if msg == "" {
		msg = e.Upper
	}
	return &apiError{Type: e.Type[strings.LastIndexByte(e.Type, '#')+1:], Message: msg, Status: rec.status}
}

// recorder is the ResponseWriter an in-process call answers into.
type recorder struct {
	header http.Header
	body   bytes.Buffer
	status int
}

func newRecorder() *recorder { return &recorder{header: http.Header{}, status: http.StatusOK} }

func (r *recorder) Header() http.Header { return r.header }

func (r *recorder) Write(p []byte) (int, error) { return r.body.Write(p) }

func (r *recorder) WriteHeader(status int) { r.status = status }

// Attribute values stay raw DynamoDB JSON: the console renders them, it
// never computes with them.
type (
	item     = map[string]map[string]json.RawMessage
	keyElem  struct{ AttributeName, KeyType string }
	indexDoc struct {
		IndexName      string
		KeySchema      []keyElem
		ItemCount      int64
		IndexSizeBytes int64
		IndexStatus    string
		Projection     struct{ ProjectionType string }
	}
	tableDoc struct {
		TableName              string
		TableStatus            string
		ItemCount              int64
		TableSizeBytes         int64
		KeySchema              []keyElem
		GlobalSecondaryIndexes []indexDoc
		LocalSecondaryIndexes  []indexDoc
		BillingModeSummary     *struct{ BillingMode string }
		StreamSpecification    *struct {
			StreamEnabled  bool
			StreamViewType string
		}
	}
	ttlDoc struct {
		TimeToLiveDescription struct {
			TimeToLiveStatus string
			AttributeName    string
		}
	}
	scanIn struct {
		TableName         string
		IndexName         string `json:",omitempty"`
		Limit             int
		ExclusiveStartKey item `json:",omitempty"`
	}
	scanOut struct {
		Items            []item
		LastEvaluatedKey item
	}
)

func (c client) listTables(ctx context.Context) ([]string, error) {
	var names []string
	in := map[string]any{}
	for {
		var out struct {
			TableNames             []string
			LastEvaluatedTableName string
		}
		if err := c.call(ctx, "ListTables", in, &out); err != nil {
			return nil, err
		}
		names = append(names, out.TableNames...)
		if out.LastEvaluatedTableName == "" {
			return names, nil
		}
		in["ExclusiveStartTableName"] = out.LastEvaluatedTableName
	}
}

func (c client) describe(ctx context.Context, name string) (*tableDoc, error) {
	var out struct{ Table tableDoc }
	err := c.call(ctx, "DescribeTable", map[string]string{"TableName": name}, &out)
	return &out.Table, err
}

func (c client) ttl(ctx context.Context, name string) (*ttlDoc, error) {
	var out ttlDoc
	err := c.call(ctx, "DescribeTimeToLive", map[string]string{"TableName": name}, &out)
	return &out, err
}

func (c client) scan(ctx context.Context, in scanIn) (*scanOut, error) {
	var out scanOut
	err := c.call(ctx, "Scan", in, &out)
	return &out, err
}
