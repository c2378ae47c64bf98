package runner

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/sortkeydb/sortkey"
)

// Call is one request as the recorder saw it.
type Call struct {
	Op           string // DynamoDB operation, e.g. Query
	Table        string
	Index        string // "" for the table itself
	KeyCondition string // a Query's KeyConditionExpression
}

// Recorder is an http.RoundTripper that records every DynamoDB request
// passing through it.
type Recorder struct {
	next  http.RoundTripper
	mu    sync.Mutex
	calls []Call
}

// RoundTrip records the request's operation and target, then sends it.
func (r *Recorder) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Body != nil {
		body, err := io.ReadAll(req.Body)
		if err != nil {
			return nil, err
		}
		req.Body = io.NopCloser(bytes.NewReader(body))
		r.record(req.Header.Get("X-Amz-Target"), body)
	}
	return r.next.RoundTrip(req)
}

func (r *Recorder) record(target string, body []byte) {
	var in struct {
		TableName, IndexName, KeyConditionExpression string
	}
	_ = json.Unmarshal(body, &in)
	_, op, _ := strings.Cut(target, ".")
	r.mu.Lock()
	defer r.mu.Unlock()
	r.calls = append(r.calls, Call{Op: op, Table: in.TableName, Index: in.IndexName, KeyCondition: in.KeyConditionExpression})
}

// Take returns the calls recorded since the last Take.
func (r *Recorder) Take() []Call {
	r.mu.Lock()
	defer r.mu.Unlock()
	calls := r.calls
	r.calls = nil
	return calls
}

// Env is a client connected to an endpoint, with its recorder.
type Env struct {
	Client   *dynamodb.Client
	Recorder *Recorder
	Endpoint string
	cfg      aws.Config
	stop     func()
}

// ClientWith is a client of the same endpoint whose requests are
// recorded alike, signed with creds: a client acting as one principal
// of a server with access control on.
func (e *Env) ClientWith(creds aws.CredentialsProvider, optFns ...func(*dynamodb.Options)) *dynamodb.Client {
	cfg := e.cfg.Copy()
	cfg.Credentials = creds
	return dynamodb.NewFromConfig(cfg, optFns...)
}

// AWS says whether the endpoint is AWS itself, where credentials come
// from the usual AWS configuration rather than from the caller.
func (e *Env) AWS() bool { return isAWS(e.Endpoint) }

func isAWS(endpoint string) bool { return strings.Contains(endpoint, "amazonaws.com") }

// Close stops an embedded server, if Start made one.
func (e *Env) Close() {
	if e.stop != nil {
		e.stop()
	}
}

// Start connects to endpoint, or, when it is "", starts an embedded
// in-memory sortkey on a local port and connects to that.
func Start(ctx context.Context, endpoint string) (*Env, error) {
	return StartWith(ctx, endpoint, sortkey.Options{})
}

// StartWith is Start with the options of an embedded sortkey, such as
// Auth to turn its access control on; they are unused with an endpoint.
func StartWith(ctx context.Context, endpoint string, opts sortkey.Options) (*Env, error) {
	env := &Env{Recorder: &Recorder{next: http.DefaultTransport}, Endpoint: endpoint}
	if endpoint == "" {
		var err error
		if env.Endpoint, env.stop, err = embedded(opts); err != nil {
			return nil, err
		}
	}
	cfg, err := clientConfig(ctx, env.Endpoint)
	if err != nil {
		env.Close()
		return nil, err
	}
	cfg.HTTPClient = &http.Client{Transport: env.Recorder}
	env.cfg = cfg
	env.Client = dynamodb.NewFromConfig(cfg)
	return env, nil
}

// clientConfig uses fixed local credentials for a local endpoint, and the
// usual AWS configuration (environment, ~/.aws) for AWS itself.
func clientConfig(ctx context.Context, endpoint string) (aws.Config, error) {
	if isAWS(endpoint) {
		cfg, err := config.LoadDefaultConfig(ctx)
		cfg.BaseEndpoint = aws.String(endpoint)
		return cfg, err
	}
	return aws.Config{Region: "us-east-1", BaseEndpoint: aws.String(endpoint),
		Credentials: credentials.NewStaticCredentialsProvider("local", "local", "")}, nil
}

func embedded(opts sortkey.Options) (endpoint string, stop func(), err error) {
	opts.InMemory = true
	db, err := sortkey.Open("", &opts)
	if err != nil {
		return "", nil, err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		db.Close()
		return "", nil, err
	}
	srv := &http.Server{Handler: db.Handler()}
	go func() {
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			panic(err)
		}
	}()
	return "http://" + ln.Addr().String(), func() { srv.Close(); db.Close() }, nil
}
