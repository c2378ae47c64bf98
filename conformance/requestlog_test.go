package conformance_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	awsmiddleware "github.com/aws/aws-sdk-go-v2/aws/middleware"
	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/sortkeydb/sortkey"
	"github.com/sortkeydb/sortkey/sortkeytest"
)

// logBuffer collects a server's log lines, written from its goroutines.
type logBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *logBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *logBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// lines decodes the buffer's JSON lines.
func (b *logBuffer) lines(t *testing.T) []map[string]any {
	t.Helper()
	var out []map[string]any
	for line := range strings.Lines(b.String()) {
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("log line %q: %v", line, err)
		}
		out = append(out, m)
	}
	return out
}

// lineOf is the line with request id rid, nil if none.
func lineOf(lines []map[string]any, rid string) map[string]any {
	for _, l := range lines {
		if l["requestId"] == rid {
			return l
		}
	}
	return nil
}

// logServer serves with request logs as JSON at level, into the buffer,
// and a client signed with keys the test can look for in the log.
func logServer(t *testing.T, level slog.Level, slow time.Duration) (*sortkeytest.Server, *dynamodb.Client, *logBuffer) {
	t.Helper()
	logs := &logBuffer{}
	log := slog.New(slog.NewJSONHandler(logs, &slog.HandlerOptions{Level: level}))
	srv := sortkeytest.NewWithOptions(t, &sortkey.Options{RequestLog: log, SlowRequest: slow})
	c := dynamodb.NewFromConfig(srv.NetworkAWSConfig(), oneAttempt, func(o *dynamodb.Options) {
		o.Credentials = credentials.NewStaticCredentialsProvider("AKIDLOGTEST", "logTestSecretKey", "logTestSessionToken")
	})
	return srv, c, logs
}

// At debug level, each call's line carries the request id the client
// received, the operation, status, error code and duration, and nothing
// secret: no keys, signature or item values.
func TestRequestLogNamesEachCall(t *testing.T) {
	_, c, logs := logServer(t, slog.LevelDebug, 0)
	createSimple(t, c, "Logged")
	out, err := c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("Logged"),
		Item: avMap{"pk": s("a"), "secret": s("itemValueNotForLogs")}})
	if err != nil {
		t.Fatal(err)
	}
	putID, _ := awsmiddleware.GetRequestIDMetadata(out.ResultMetadata)
	_, err = c.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String("Missing")})
	var re *awshttp.ResponseError
	if !errors.As(err, &re) {
		t.Fatalf("DescribeTable of a missing table: %v", err)
	}
	lines := logs.lines(t)
	wantLine(t, lineOf(lines, putID), map[string]any{"level": "DEBUG", "msg": "request", "op": "PutItem", "status": 200.0})
	wantLine(t, lineOf(lines, re.ServiceRequestID()), map[string]any{"level": "DEBUG", "op": "DescribeTable", "status": 400.0, "error": "ResourceNotFoundException"})
	for _, secret := range []string{"logTestSecretKey", "logTestSessionToken", "Signature", "itemValueNotForLogs"} {
		if strings.Contains(logs.String(), secret) {
			t.Errorf("the log holds %q:\n%s", secret, logs)
		}
	}
}

func wantLine(t *testing.T, line map[string]any, want map[string]any) {
	t.Helper()
	if line == nil {
		t.Fatalf("no log line with the request id, want %v", want)
	}
	for k, v := range want {
		if line[k] != v {
			t.Errorf("log line %v: %s is %v, want %v", line, k, line[k], v)
		}
	}
	if took, ok := line["took"].(float64); !ok || took <= 0 {
		t.Errorf("log line %v: no duration", line)
	}
}

// At the default level, info, no call is logged; one slower than
// SlowRequest is, at WARN.
func TestRequestLogWarnsOfSlowCallsOnly(t *testing.T) {
	srv, c, logs := logServer(t, slog.LevelInfo, 50*time.Millisecond)
	createSimple(t, c, "Slow")
	if err := putPK(c, "Slow", "a"); err != nil {
		t.Fatal(err)
	}
	for _, l := range logs.lines(t) {
		if l["msg"] == "request" {
			t.Errorf("logged at info level: %v", l)
		}
	}
	srv.SetFaults(t, `{"rules": [{"operation": "GetItem", "latency": "60ms"}]}`)
	out, err := c.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("Slow"), Key: pk("a")})
	if err != nil {
		t.Fatal(err)
	}
	rid, _ := awsmiddleware.GetRequestIDMetadata(out.ResultMetadata)
	wantLine(t, lineOf(logs.lines(t), rid), map[string]any{"level": "WARN", "msg": "slow request", "op": "GetItem", "status": 200.0})
}

// A call naming no operation logs the target the client sent.
func TestRequestLogNamesAnUnknownTarget(t *testing.T) {
	_, c, logs := logServer(t, slog.LevelDebug, 0)
	_, err := c.CreateGlobalTable(ctx, &dynamodb.CreateGlobalTableInput{GlobalTableName: aws.String("T"),
		ReplicationGroup: []types.Replica{{RegionName: aws.String("us-east-1")}}})
	var re *awshttp.ResponseError
	if !errors.As(err, &re) {
		t.Fatalf("CreateGlobalTable: %v", err)
	}
	line := lineOf(logs.lines(t), re.ServiceRequestID())
	wantLine(t, line, map[string]any{"target": "DynamoDB_20120810.CreateGlobalTable", "status": 400.0, "error": "UnknownOperationException"})
	if _, ok := line["op"]; ok {
		t.Errorf("log line %v names an op", line)
	}
}
