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
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	v4 "github.com/aws/aws-sdk-go-v2/aws/signer/v4"
	"github.com/aws/aws-sdk-go-v2/config"
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
	creds := aws.Credentials{AccessKeyID: "conformance", SecretAccessKey: "conformance"}
	return &target{url: srv.URL, streamsURL: srv.URL, region: h.region, creds: creds, srv: srv}
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
	err = v4.NewSigner().SignHTTP(context.Background(), tg.creds, req, hex.EncodeToString(sum[:]), "dynamodb", tg.region, time.Now())
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
