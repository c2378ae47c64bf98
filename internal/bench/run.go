package bench

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
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

// prepared is a request ready to send many times: for net/http, its body
// and the hash SigV4 needs, computed once, and its latest signature; for
// raw HTTP, its bytes on the wire.
type prepared struct {
	Request
	hash string
	sig  *atomic.Pointer[signature]
	wire []byte
}

// signature is the headers SigV4 added to a request, valid for every send
// of the same request within the same second (X-Amz-Date's resolution):
// reusing them keeps signing from dominating the client's CPU, which
// shares the machine with the server it measures.
type signature struct {
	second int64
	header http.Header
	wire   []byte // the raw request with these headers, for raw targets
}

// prepare readies reqs for this target's way of sending.
func (t *Target) prepare(reqs []Request) []prepared {
	raw, isRaw := t.rawEndpoint()
	out := make([]prepared, len(reqs))
	for i, r := range reqs {
		out[i] = prepared{Request: r, sig: new(atomic.Pointer[signature])}
		if isRaw && t.Credentials == nil {
			out[i].wire, out[i].Body = raw.wire(r)
		} else if t.Credentials != nil {
			sum := sha256.Sum256(r.Body)
			out[i].hash = hex.EncodeToString(sum[:])
		}
	}
	return out
}

// rawEndpoint reports whether requests go over raw HTTP/1.1 rather than
// net/http: those to http:// endpoints, which is how local servers are
// loaded. TLS stays with net/http.
func (t *Target) rawEndpoint() (rawEndpoint, bool) {
	return parseRaw(t.Endpoint)
}

// rawWire is what a raw session writes for p: its prebuilt bytes or, for
// a signed target, bytes rebuilt with a new signature once a second.
// DynamoDB Local refuses unsigned requests, so the peer comparison needs
// signed requests on the raw path too.
func (t *Target) rawWire(ctx context.Context, p *prepared) ([]byte, error) {
	if t.Credentials == nil {
		return p.wire, nil
	}
	now := time.Now().UTC()
	if s := p.sig.Load(); s != nil && s.second == now.Unix() && s.wire != nil {
		return s.wire, nil
	}
	req, err := t.newRequest(ctx, p, nil)
	if err != nil {
		return nil, err
	}
	req.ContentLength = int64(len(p.Body)) // signed as httpCall's would be
	if err := signer.SignHTTP(ctx, *t.Credentials, req, p.hash, "dynamodb", t.Region, now); err != nil {
		return nil, err
	}
	e, _ := t.rawEndpoint()
	wire, _ := e.signedWire(p.Request, signedHeaders(req.Header))
	p.sig.Store(&signature{second: now.Unix(), wire: wire})
	return wire, nil
}

// signedHeaders is what signing added: every header but the two the
// wire bytes always carry.
func signedHeaders(h http.Header) http.Header {
	out := h.Clone()
	out.Del("Content-Type")
	out.Del("X-Amz-Target")
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
	p.sig.Store(&signature{second: now.Unix(), header: added})
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
	p := t.prepare([]Request{{"ListTables", []byte("{}")}})[0]
	_, err := t.call(ctx, &p)
	return err
}

// call sends one request on a session of its own and returns the body of
// a 200 answer.
func (t *Target) call(ctx context.Context, p *prepared) ([]byte, error) {
	s := t.open(ctx)
	defer s.close()
	return s.call(p, true)
}

// session sends one goroutine's requests: over a connection of its own
// for raw targets, so no pool or goroutine stands between a worker and
// its socket, and through t.Client otherwise.
type session struct {
	t    *Target
	ctx  context.Context
	raw  *rawConn // nil: net/http
	stop func() bool
}

// open starts a session whose requests fail as soon as ctx ends.
func (t *Target) open(ctx context.Context) *session {
	s := &session{t: t, ctx: ctx}
	if e, ok := t.rawEndpoint(); ok {
		s.raw = &rawConn{addr: e.addr, timeout: t.timeout()}
		s.stop = context.AfterFunc(ctx, s.raw.abort)
	}
	return s
}

// timeout bounds each raw request as t.Client bounds its own.
func (t *Target) timeout() time.Duration {
	if t.Client == nil {
		return 0
	}
	return t.Client.Timeout
}

func (s *session) close() {
	if s.raw != nil {
		s.stop()
		s.raw.close()
	}
}

// call sends p and returns the body of a 200 answer when keep is set;
// over raw HTTP that body is only valid until the session's next call.
func (s *session) call(p *prepared, keep bool) ([]byte, error) {
	if s.raw == nil {
		return s.t.httpCall(s.ctx, p)
	}
	wire, err := s.t.rawWire(s.ctx, p)
	if err != nil {
		return nil, err
	}
	status, body, err := s.raw.do(s.ctx, wire, keep)
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w", p.Op, s.t.Endpoint, err)
	}
	if status != http.StatusOK {
		return nil, httpError(p.Op, status, body)
	}
	return body, nil
}

// httpCall sends one request with net/http, signed when t has credentials.
func (t *Target) httpCall(ctx context.Context, p *prepared) ([]byte, error) {
	req, err := t.newRequest(ctx, p, bytes.NewReader(p.Body))
	if err != nil {
		return nil, err
	}
	if t.Credentials != nil {
		if err := t.sign(ctx, req, p); err != nil {
			return nil, err
		}
	}
	client := t.Client
	if client == nil {
		client = http.DefaultClient
	}
	resp, err := client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		return nil, httpError(p.Op, resp.StatusCode, body)
	}
	return body, err
}

// newRequest is p as a net/http request with DynamoDB's headers.
func (t *Target) newRequest(ctx context.Context, p *prepared, body io.Reader) (*http.Request, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, t.Endpoint, body)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/x-amz-json-1.0")
	req.Header.Set("X-Amz-Target", "DynamoDB_20120810."+p.Op)
	return req, nil
}

// Group is several endpoints of one store loaded as one, such as the
// nodes of a sortkey cluster on one PostgreSQL: worker w of a run, and
// writer w of a preload, send to g[w mod len(g)], so that each endpoint
// takes its share of the clients. The endpoints must serve the same data,
// as the table is created through the first one only.
type Group []*Target

// pick is worker w's endpoint.
func (g Group) pick(w int) *Target { return g[w%len(g)] }

// String is the group's endpoints, separated by commas.
func (g Group) String() string {
	urls := make([]string, len(g))
	for i, t := range g {
		urls[i] = t.Endpoint
	}
	return strings.Join(urls, ",")
}

// Sample is one request's outcome.
type Sample struct {
	Op      string
	Latency time.Duration
	Err     error
	Items   int // items a Scan page returned
}

// Run sends reqs round-robin from concurrency workers for d, calling
// progress every second with the count so far.
func (t *Target) Run(ctx context.Context, reqs []Request, concurrency int, d time.Duration, progress func(done, errs int64)) []Sample {
	return Group{t}.Run(ctx, reqs, concurrency, d, progress)
}

// Run is Target.Run with worker w sending to the group's endpoint w mod
// len(g): each worker sends the same requests, in the same order, as it
// would to one endpoint.
func (g Group) Run(ctx context.Context, reqs []Request, concurrency int, d time.Duration, progress func(done, errs int64)) []Sample {
	ps := make([][]prepared, len(g)) // the wire bytes name the endpoint's host
	for i, t := range g {
		ps[i] = t.prepare(reqs)
	}
	ctx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	var done, errs atomic.Int64
	stop := ticker(ctx, func() { progress(done.Load(), errs.Load()) })
	defer stop()
	results := make([][]Sample, concurrency)
	var wg sync.WaitGroup
	for w := range concurrency {
		wg.Go(func() { results[w] = g.pick(w).worker(ctx, ps[w%len(g)], w, concurrency, &done, &errs) })
	}
	wg.Wait()
	var all []Sample
	for _, r := range results {
		all = append(all, r...)
	}
	return all
}

func (t *Target) worker(ctx context.Context, ps []prepared, w, n int, done, errs *atomic.Int64) []Sample {
	s := t.open(ctx)
	defer s.close()
	var out []Sample
	for i := w; ctx.Err() == nil; i += n {
		p := &ps[i%len(ps)]
		start := time.Now()
		_, err := s.call(p, false)
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

// Setup creates the table (an existing one is fine), with Index when
// s.GSI is set, waits until it is ACTIVE, and writes items 0..s.Keys-1
// from a few concurrent writers, reporting how long the writing took.
// progress, when not nil, is called every second with the items sent so
// far (in requests that may still be in flight) and the total.
func (t *Target) Setup(ctx context.Context, s Shape, progress func(done, total int64)) (Load, error) {
	return Group{t}.Setup(ctx, s, progress)
}

// Setup is Target.Setup through every endpoint of the group: the table
// is created through the first, must be ACTIVE on each, and the preload's
// writers are spread over them as a run's workers are.
func (g Group) Setup(ctx context.Context, s Shape, progress func(done, total int64)) (Load, error) {
	body := CreateTable
	if s.GSI {
		body = CreateTableGSI
	}
	for i, t := range g {
		if err := t.ensureTable(ctx, body, i == 0); err != nil {
			return Load{}, err
		}
	}
	start := time.Now()
	batches := preloadBatches(s.Keys)
	var sent atomic.Int64
	if progress != nil {
		stop := ticker(ctx, func() { progress(sent.Load(), int64(s.Keys)) })
		defer stop()
	}
	mk := func(b int) Request {
		sent.Add(int64(min(preloadBatch, s.Keys-b*preloadBatch)))
		return preloadRequest(b, s.Keys, s)
	}
	err := g.load(ctx, batches, mk, preloadWriters)
	return NewLoad(s.Keys, batches, preloadWriters, time.Since(start)), err
}

// ensureTable waits until the table, created by this call when create
// is set (an existing one is fine), is ACTIVE on t's endpoint.
func (t *Target) ensureTable(ctx context.Context, body string, create bool) error {
	sess := t.open(ctx)
	defer sess.close()
	if create {
		req := t.prepare([]Request{{"CreateTable", []byte(body)}})[0]
		if _, err := sess.call(&req, false); err != nil && !strings.Contains(err.Error(), "ResourceInUseException") {
			return err
		}
	}
	return t.waitActive(ctx, sess)
}

// preloadWriters is how many preload requests are in flight at once.
const preloadWriters = 8

// waitActive polls DescribeTable until the table is ACTIVE, as DynamoDB
// (and some of its emulators) create tables asynchronously. An answer
// without a status (a server that answers every request with {}) counts
// as ready.
func (t *Target) waitActive(ctx context.Context, s *session) error {
	describe := t.prepare([]Request{{"DescribeTable", []byte(`{"TableName":"` + Table + `"}`)}})[0]
	deadline := time.Now().Add(2 * time.Minute)
	for {
		body, err := s.call(&describe, true)
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

// load sends requests 0..count-1, each made by mk when a writer takes
// it, from n writers spread over the group, and returns the first error.
// Items a BatchWriteItem leaves unprocessed are sent again.
func (g Group) load(ctx context.Context, count int, mk func(int) Request, n int) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var next atomic.Int64
	var first error
	var once sync.Once
	var wg sync.WaitGroup
	for w := range n {
		wg.Go(func() {
			t := g.pick(w)
			s := t.open(ctx)
			defer s.close()
			for i := next.Add(1) - 1; i < int64(count) && ctx.Err() == nil; i = next.Add(1) - 1 {
				if err := t.write(s, mk(int(i))); err != nil {
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

// errConflict marks an answer that names TransactionConflict anywhere in
// its body, which the error's text may cut off.
var errConflict = errors.New("TransactionConflict")

// httpError is an answer other than 200, its body cut to 200 bytes.
func httpError(op string, status int, body []byte) error {
	err := fmt.Errorf("%s: HTTP %d: %.200s", op, status, body)
	if bytes.Contains(body, []byte("TransactionConflict")) {
		return errors.Join(err, errConflict)
	}
	return err
}

// maxUnprocessedRetries bounds how often one batch's leftovers are sent
// again before the preload gives up.
const maxUnprocessedRetries = 20

// write sends one BatchWriteItem until nothing is left unprocessed,
// backing off between tries as DynamoDB asks of its clients.
func (t *Target) write(s *session, r Request) error {
	for try := 0; ; try++ {
		p := t.prepare([]Request{r})[0]
		body, err := s.call(&p, true)
		if err != nil {
			return err
		}
		left, err := unprocessed(body)
		if err != nil || left == nil {
			return err
		}
		if try == maxUnprocessedRetries {
			return fmt.Errorf("BatchWriteItem: items still unprocessed after %d tries", try+1)
		}
		r = Request{"BatchWriteItem", left}
		select {
		case <-s.ctx.Done():
			return s.ctx.Err()
		case <-time.After(time.Duration(10<<min(try, 6)) * time.Millisecond):
		}
	}
}

// unprocessed is the request that sends a BatchWriteItem answer's
// UnprocessedItems again, or nil when every item was written. An answer
// without the field (a server that answers {}) counts as all written.
func unprocessed(body []byte) ([]byte, error) {
	var a struct{ UnprocessedItems map[string]json.RawMessage }
	if err := json.Unmarshal(body, &a); err != nil {
		return nil, fmt.Errorf("BatchWriteItem answer: %w", err)
	}
	if len(a.UnprocessedItems) == 0 {
		return nil, nil
	}
	left, err := json.Marshal(a.UnprocessedItems)
	return append(append([]byte(`{"RequestItems":`), left...), '}'), err
}
