package bench

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
	"sync"
	"sync/atomic"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	v4 "github.com/aws/aws-sdk-go-v2/aws/signer/v4"
)

// Target is where requests go: an endpoint and, for AWS, credentials to
// sign with (nil sends unsigned requests, which local servers accept).
type Target struct {
	Endpoint    string
	Region      string
	Credentials *aws.Credentials
	Client      *http.Client
}

// prepared is a request ready to send many times: its body and the hash
// SigV4 needs, computed once, and its latest signature.
type prepared struct {
	Request
	hash string
	sig  *atomic.Pointer[signature]
}

// signature is the headers SigV4 added to a request, valid for every send
// of the same request within the same second (X-Amz-Date's resolution):
// reusing them keeps signing from dominating the client's CPU, which
// shares the machine with the server it measures.
type signature struct {
	second int64
	header http.Header
}

func prepare(reqs []Request) []prepared {
	out := make([]prepared, len(reqs))
	for i, r := range reqs {
		sum := sha256.Sum256(r.Body)
		out[i] = prepared{r, hex.EncodeToString(sum[:]), new(atomic.Pointer[signature])}
	}
	return out
}

// sign signs req, or reuses the signature p got earlier this second.
func (t *Target) sign(ctx context.Context, req *http.Request, p *prepared) error {
	now := time.Now().UTC()
	if s := p.sig.Load(); s != nil && s.second == now.Unix() {
		for k, v := range s.header {
			req.Header[k] = v
		}
		return nil
	}
	before := len(req.Header)
	unsigned := make(map[string]bool, before)
	for k := range req.Header {
		unsigned[k] = true
	}
	if err := signer.SignHTTP(ctx, *t.Credentials, req, p.hash, "dynamodb", t.Region, now); err != nil {
		return err
	}
	added := make(http.Header, len(req.Header)-before)
	for k, v := range req.Header {
		if !unsigned[k] {
			added[k] = v
		}
	}
	p.sig.Store(&signature{now.Unix(), added})
	return nil
}

// signer signs every target's requests; it caches derived signing keys,
// so one shared signer keeps the client's cost per request low.
var signer = v4.NewSigner()

// Send sends one request and reports whether DynamoDB answered 200.
func (t *Target) Send(ctx context.Context, p *prepared) (ok bool, err error) {
	_, err = t.call(ctx, p)
	return err == nil, err
}

// Ping sends one ListTables request: nil once the endpoint answers it.
func (t *Target) Ping(ctx context.Context) error {
	p := prepare([]Request{{"ListTables", []byte("{}")}})[0]
	_, err := t.call(ctx, &p)
	return err
}

// call sends one request and returns the body of a 200 answer.
func (t *Target) call(ctx context.Context, p *prepared) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, t.Endpoint, bytes.NewReader(p.Body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/x-amz-json-1.0")
	req.Header.Set("X-Amz-Target", "DynamoDB_20120810."+p.Op)
	if t.Credentials != nil {
		if err := t.sign(ctx, req, p); err != nil {
			return nil, err
		}
	}
	resp, err := t.Client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("%s: HTTP %d: %.200s", p.Op, resp.StatusCode, body)
	}
	return body, err
}

// Sample is one request's outcome.
type Sample struct {
	Op      string
	Latency time.Duration
	Err     error
}

// Run sends reqs round-robin from concurrency workers for d, calling
// progress every second with the count so far.
func (t *Target) Run(ctx context.Context, reqs []Request, concurrency int, d time.Duration, progress func(done, errs int64)) []Sample {
	ps := prepare(reqs)
	ctx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	var done, errs atomic.Int64
	stop := ticker(ctx, func() { progress(done.Load(), errs.Load()) })
	defer stop()
	results := make([][]Sample, concurrency)
	var wg sync.WaitGroup
	for w := range concurrency {
		wg.Go(func() { results[w] = t.worker(ctx, ps, w, concurrency, &done, &errs) })
	}
	wg.Wait()
	var all []Sample
	for _, r := range results {
		all = append(all, r...)
	}
	return all
}

func (t *Target) worker(ctx context.Context, ps []prepared, w, n int, done, errs *atomic.Int64) []Sample {
	var out []Sample
	for i := w; ctx.Err() == nil; i += n {
		p := &ps[i%len(ps)]
		start := time.Now()
		_, err := t.Send(ctx, p)
		if ctx.Err() != nil {
			break // cut off by the end of the run: not a result
		}
		out = append(out, Sample{Op: p.Op, Latency: time.Since(start), Err: err})
		done.Add(1)
		if err != nil {
			errs.Add(1)
		}
	}
	return out
}

// ticker calls fn every second until ctx ends or stop is called.
func ticker(ctx context.Context, fn func()) (stop func()) {
	ctx, cancel := context.WithCancel(ctx)
	go func() {
		t := time.NewTicker(time.Second)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				fn()
			}
		}
	}()
	return cancel
}

// Setup creates the table (an existing one is fine), waits until it is
// ACTIVE, and preloads items from a few concurrent writers.
func (t *Target) Setup(ctx context.Context, preload, itemSize int) error {
	create := prepare([]Request{{"CreateTable", []byte(CreateTable)}})[0]
	if _, err := t.Send(ctx, &create); err != nil && !strings.Contains(err.Error(), "ResourceInUseException") {
		return err
	}
	if err := t.waitActive(ctx); err != nil {
		return err
	}
	return t.load(ctx, prepare(Preload(preload, itemSize)), preloadWriters)
}

// preloadWriters is how many preload requests are in flight at once.
const preloadWriters = 8

// waitActive polls DescribeTable until the table is ACTIVE, as DynamoDB
// (and some of its emulators) create tables asynchronously. An answer
// without a status (a server that answers every request with {}) counts
// as ready.
func (t *Target) waitActive(ctx context.Context) error {
	describe := prepare([]Request{{"DescribeTable", []byte(`{"TableName":"` + Table + `"}`)}})[0]
	deadline := time.Now().Add(2 * time.Minute)
	for {
		body, err := t.call(ctx, &describe)
		if err != nil {
			return err
		}
		var d struct{ Table struct{ TableStatus string } }
		if err := json.Unmarshal(body, &d); err != nil {
			return fmt.Errorf("DescribeTable: %w", err)
		}
		if s := d.Table.TableStatus; s == "" || s == "ACTIVE" {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("table %s still %s after 2 minutes", Table, d.Table.TableStatus)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// load sends every request from n writers and returns the first error.
func (t *Target) load(ctx context.Context, ps []prepared, n int) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var next atomic.Int64
	var first error
	var once sync.Once
	var wg sync.WaitGroup
	for range n {
		wg.Go(func() {
			for i := next.Add(1) - 1; i < int64(len(ps)) && ctx.Err() == nil; i = next.Add(1) - 1 {
				if _, err := t.call(ctx, &ps[i]); err != nil {
					once.Do(func() { first = fmt.Errorf("preload: %w", err); cancel() })
				}
			}
		})
	}
	wg.Wait()
	if first != nil {
		return first
	}
	return ctx.Err()
}
