package bench

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"net/http"
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
// SigV4 needs, computed once.
type prepared struct {
	Request
	hash string
}

func prepare(reqs []Request) []prepared {
	out := make([]prepared, len(reqs))
	for i, r := range reqs {
		sum := sha256.Sum256(r.Body)
		out[i] = prepared{r, hex.EncodeToString(sum[:])}
	}
	return out
}

// Send sends one request and reports whether DynamoDB answered 200.
func (t *Target) Send(ctx context.Context, p *prepared) (ok bool, err error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, t.Endpoint, bytes.NewReader(p.Body))
	if err != nil {
		return false, err
	}
	req.Header.Set("Content-Type", "application/x-amz-json-1.0")
	req.Header.Set("X-Amz-Target", "DynamoDB_20120810."+p.Op)
	if t.Credentials != nil {
		signer := v4.NewSigner()
		if err := signer.SignHTTP(ctx, *t.Credentials, req, p.hash, "dynamodb", t.Region, time.Now()); err != nil {
			return false, err
		}
	}
	resp, err := t.Client.Do(req)
	if err != nil {
		return false, err
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		return false, fmt.Errorf("%s: HTTP %d: %.200s", p.Op, resp.StatusCode, body)
	}
	return true, nil
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

// Setup creates the table (an existing one is fine) and preloads items.
func (t *Target) Setup(ctx context.Context, preload, itemSize int) error {
	create := prepare([]Request{{"CreateTable", []byte(CreateTable)}})[0]
	if _, err := t.Send(ctx, &create); err != nil && !bytes.Contains([]byte(err.Error()), []byte("ResourceInUseException")) {
		return err
	}
	for _, p := range prepare(Preload(preload, itemSize)) {
		if _, err := t.Send(ctx, &p); err != nil {
			return fmt.Errorf("preload: %w", err)
		}
	}
	return nil
}
