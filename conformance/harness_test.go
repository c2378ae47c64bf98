package conformance_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	v4 "github.com/aws/aws-sdk-go-v2/aws/signer/v4"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/sortkeydb/sortkey"
	"github.com/sortkeydb/sortkey/sortkeytest"
)

// target is where one transcript's calls go: a sortkey started for the
// file, or the endpoint -endpoint names.
type target struct {
	url        string
	streamsURL string // DynamoDB Streams' endpoint: on AWS a host of its own
	region     string
	creds      aws.Credentials
	remote     bool                // -endpoint: the file's tables are deleted after it
	created    []string            // tables the file created, for remote clean-up
	srv        *sortkeytest.Server // nil on -endpoint
}

// startSortkey starts a sortkey for one file, in memory, with the
// header's options. Metrics are on, as `sortkey serve` has them: their
// observer asks the engine for capacity on the client's behalf, and a
// transcript must see the answers a served client sees.
func startSortkey(t *testing.T, h header) *target {
	opts := &h.opts
	opts.Region, opts.Metrics = h.region, true
	if !h.clock.IsZero() {
		// Time moves only at advance, which sweeps expired items itself:
		// no background sweep races a block reading an expired item.
		opts.Clock, opts.TTLInterval = sortkey.NewVirtualClock(h.clock), -1
	}
	srv := sortkeytest.NewWithOptions(t, opts)
	tg := &target{url: srv.URL, streamsURL: srv.URL, region: h.region, srv: srv,
		creds: aws.Credentials{AccessKeyID: "conformance", SecretAccessKey: "conformance"}}
	if opts.Auth != nil {
		tg.creds = tg.principal(t, firstPrincipal(t, opts.Auth))
	}
	return tg
}

// firstPrincipal is the ARN of an auth file's first principal: with
// access control on, calls without as= act as it.
func firstPrincipal(t *testing.T, authFile []byte) string {
	var f struct{ Principals []struct{ Arn string } }
	if err := json.Unmarshal(authFile, &f); err != nil || len(f.Principals) == 0 {
		t.Fatalf("server auth: an auth file with principals, not %s (%v)", authFile, err)
	}
	return f.Principals[0].Arn
}

// principal is the keys of the auth file's principal arn, for call as=.
func (tg *target) principal(t *testing.T, arn string) aws.Credentials {
	if tg.srv == nil {
		t.Fatalf("as=%s: only a sortkey-only file with server auth has principals", arn)
	}
	id, secret, token, err := tg.srv.DB.Credentials(arn)
	if err != nil {
		t.Fatalf("as=%s: %v", arn, err)
	}
	return aws.Credentials{AccessKeyID: id, SecretAccessKey: secret, SessionToken: token}
}

// remoteTarget is the -endpoint, signed with the credentials the AWS SDK
// finds in the environment, as any client's would be.
func remoteTarget(t *testing.T, url, streamsURL, region string) *target {
	cfg, err := config.LoadDefaultConfig(context.Background(), config.WithRegion(region))
	if err != nil {
		t.Fatal(err)
	}
	creds, err := cfg.Credentials.Retrieve(context.Background())
	if err != nil {
		t.Fatalf("-endpoint needs credentials (AWS_ACCESS_KEY_ID, a profile): %v", err)
	}
	tg := &target{url: url, streamsURL: streamsURL, region: region, creds: creds, remote: true}
	t.Cleanup(tg.dropCreated)
	return tg
}

// reply is one call's answer.
type reply struct {
	status int
	body   []byte
}

// streamsPrefix marks an operation of DynamoDB Streams: call
// streams:GetRecords.
const streamsPrefix = "streams:"

// call sends op with body, signed with SigV4, as an SDK sends it.
func (tg *target) call(op string, body []byte) (reply, error) {
	return tg.callAs(tg.creds, op, body)
}

// callAs is call signed with creds.
func (tg *target) callAs(creds aws.Credentials, op string, body []byte) (reply, error) {
	url, amzTarget := tg.url, "DynamoDB_20120810."+op
	if name, ok := strings.CutPrefix(op, streamsPrefix); ok {
		url, amzTarget = tg.streamsURL, "DynamoDBStreams_20120810."+name
	}
	req, err := http.NewRequest(http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return reply{}, err
	}
	req.Header.Set("Content-Type", "application/x-amz-json-1.0")
	req.Header.Set("X-Amz-Target", amzTarget)
	sum := sha256.Sum256(body)
	err = v4.NewSigner().SignHTTP(context.Background(), creds, req, hex.EncodeToString(sum[:]), "dynamodb", tg.region, time.Now())
	if err != nil {
		return reply{}, err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return reply{}, err
	}
	defer resp.Body.Close()
	out, err := io.ReadAll(resp.Body)
	return reply{status: resp.StatusCode, body: out}, err
}

// waitActive polls DescribeTable until the table and its indexes are
// ACTIVE: at once on sortkey, a while on DynamoDB.
func (tg *target) waitActive(table string) error {
	body := fmt.Appendf(nil, `{"TableName":%q}`, table)
	for deadline := time.Now().Add(10 * time.Minute); time.Now().Before(deadline); time.Sleep(tg.pause()) {
		r, err := tg.call("DescribeTable", body)
		if err != nil || r.status != http.StatusOK {
			return fmt.Errorf("DescribeTable %s: %v %s", table, err, r.body)
		}
		if active(r.body) {
			return nil
		}
	}
	return fmt.Errorf("table %s is not ACTIVE after 10 minutes", table)
}

// waitJob polls DescribeExport or DescribeImport (kind "export" or
// "import") until the job at arn is no longer IN_PROGRESS, and returns
// the status it ended in.
func (tg *target) waitJob(kind, arn string) (string, error) {
	j := jobs[kind]
	body := fmt.Appendf(nil, `{%q:%q}`, j.arnMember, arn)
	for deadline := time.Now().Add(30 * time.Minute); time.Now().Before(deadline); time.Sleep(tg.pause()) {
		r, err := tg.call(j.op, body)
		if err != nil || r.status != http.StatusOK {
			return "", fmt.Errorf("%s %s: %v %s", j.op, arn, err, r.body)
		}
		var d map[string]map[string]any
		_ = json.Unmarshal(r.body, &d)
		if status, _ := d[j.described][j.status].(string); status != "" && status != "IN_PROGRESS" {
			return status, nil
		}
	}
	return "", fmt.Errorf("%s %s is still IN_PROGRESS after 30 minutes", kind, arn)
}

// jobs are the members waitJob asks for and reads, by kind of job.
var jobs = map[string]struct{ op, arnMember, described, status string }{
	"export": {"DescribeExport", "ExportArn", "ExportDescription", "ExportStatus"},
	"import": {"DescribeImport", "ImportArn", "ImportTableDescription", "ImportStatus"},
}

// pause is how long waitActive waits between polls.
func (tg *target) pause() time.Duration {
	if tg.remote {
		return 2 * time.Second
	}
	return 10 * time.Millisecond
}

// active reports whether a DescribeTable answer shows the table and every
// global secondary index ACTIVE.
func active(body []byte) bool {
	var d struct {
		Table struct {
			TableStatus            string
			GlobalSecondaryIndexes []struct{ IndexStatus string }
		}
	}
	if json.Unmarshal(body, &d) != nil || d.Table.TableStatus != "ACTIVE" {
		return false
	}
	for _, g := range d.Table.GlobalSecondaryIndexes {
		if g.IndexStatus != "ACTIVE" {
			return false
		}
	}
	return true
}

// dropCreated deletes, on a remote endpoint, the tables the file created.
func (tg *target) dropCreated() {
	for _, name := range tg.created {
		_, _ = tg.call("DeleteTable", fmt.Appendf(nil, `{"TableName":%q}`, name))
	}
}

// The Go tests' own servers. Most start theirs with sortkeytest, as the
// transcripts do (in memory, on the store SORTKEY_TEST_STORE names);
// these serve a data directory across restarts, and send what an SDK
// would not.

// serveDir opens an on-disk database in dir and serves it; stop closes both.
func serveDir(t *testing.T, dir string) (c *dynamodb.Client, stop func()) {
	t.Helper()
	return serveDirWith(t, dir, nil)
}

// serveDirWith is serveDir with options.
func serveDirWith(t *testing.T, dir string, opts *sortkey.Options) (c *dynamodb.Client, stop func()) {
	t.Helper()
	db, err := sortkey.Open(dir, opts)
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(db.Handler())
	return clientOf(hs.URL), func() {
		hs.Close()
		if err := db.Close(); err != nil {
			t.Fatal(err)
		}
	}
}

// clientOf is an SDK client of the endpoint url, with dummy keys.
func clientOf(url string) *dynamodb.Client {
	return dynamodb.New(dynamodb.Options{
		Region:       "us-east-1",
		Credentials:  credentials.NewStaticCredentialsProvider("a", "b", ""),
		BaseEndpoint: aws.String(url),
	})
}

// rawReply is what a client sees of the answer to a raw request.
type rawReply struct {
	status  int
	body    []byte
	Type    string `json:"__type"`
	Message string `json:"message"` // also takes coral's "Message": encoding/json matches keys without case
}

// postRaw sends body byte for byte to the target over HTTP: the SDKs never
// send invalid UTF-8 or lone surrogate escapes, so these tests cannot use
// them.
func postRaw(t *testing.T, url, target, body string) rawReply {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("X-Amz-Target", target)
	req.Header.Set("Content-Type", "application/x-amz-json-1.0")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	r := rawReply{status: resp.StatusCode}
	if r.body, err = io.ReadAll(resp.Body); err != nil {
		t.Fatal(err)
	}
	_ = json.Unmarshal(r.body, &r) // only error bodies have the members
	return r
}
