package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"sync/atomic"
	"time"
)

// ScanLimit is how many items one page of the scan workload asks for.
const ScanLimit = 100

// RunWorkload runs a workload from concurrency workers for d: a prebuilt
// one (Build, 4096 requests sent round-robin), or scan, whose requests
// depend on the answers before them.
func (t *Target) RunWorkload(ctx context.Context, workload string, s Shape, concurrency int, d time.Duration, seed uint64, progress func(done, errs int64)) ([]Sample, error) {
	return Group{t}.RunWorkload(ctx, workload, s, concurrency, d, seed, progress)
}

// RunWorkload is Target.RunWorkload with the workers spread over the
// group's endpoints.
func (g Group) RunWorkload(ctx context.Context, workload string, s Shape, concurrency int, d time.Duration, seed uint64, progress func(done, errs int64)) ([]Sample, error) {
	if err := CheckWorkload(workload, s); err != nil {
		return nil, err
	}
	if workload == "scan" {
		return g.Scan(ctx, concurrency, d, progress), nil
	}
	reqs, err := Build(workload, s, 4096, seed)
	if err != nil {
		return nil, err
	}
	return g.Run(ctx, reqs, concurrency, d, progress), nil
}

// Scan pages through the table for d as a parallel scan: each of the
// concurrency workers reads its own segment, ScanLimit items a page,
// each page starting where the last ended, and starts its segment again
// at the end. Each sample counts the items its page returned.
func (t *Target) Scan(ctx context.Context, concurrency int, d time.Duration, progress func(done, errs int64)) []Sample {
	return Group{t}.Scan(ctx, concurrency, d, progress)
}

// Scan is Target.Scan with segment w read through the group's endpoint
// w mod len(g).
func (g Group) Scan(ctx context.Context, concurrency int, d time.Duration, progress func(done, errs int64)) []Sample {
	ctx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	var done, errs atomic.Int64
	stop := ticker(ctx, func() { progress(done.Load(), errs.Load()) })
	defer stop()
	results := make([][]Sample, concurrency)
	var wg sync.WaitGroup
	for w := range concurrency {
		wg.Go(func() { results[w] = g.pick(w).scanSegment(ctx, w, concurrency, &done, &errs) })
	}
	wg.Wait()
	var all []Sample
	for _, r := range results {
		all = append(all, r...)
	}
	return all
}

func (t *Target) scanSegment(ctx context.Context, segment, total int, done, errs *atomic.Int64) []Sample {
	s := t.open(ctx)
	defer s.close()
	var out []Sample
	var from json.RawMessage // the page's ExclusiveStartKey; nil: the segment's start
	for ctx.Err() == nil {
		p := t.prepare([]Request{scanRequest(segment, total, from)})[0]
		start := time.Now()
		body, err := s.call(&p, true)
		latency := time.Since(start)
		if ctx.Err() != nil {
			break // cut off by the end of the run: not a result
		}
		var page scanPage
		if err == nil {
			err = page.parse(body)
		}
		out = append(out, Sample{Op: p.Op, Latency: latency, Err: err, Items: page.Count})
		from = page.LastEvaluatedKey
		done.Add(1)
		if err != nil {
			errs.Add(1)
		}
	}
	return out
}

// scanRequest is one page of a segment's scan.
func scanRequest(segment, total int, from json.RawMessage) Request {
	body := fmt.Appendf(nil, `{"TableName":"%s","Limit":%d,"Segment":%d,"TotalSegments":%d`, Table, ScanLimit, segment, total)
	if from != nil {
		body = append(append(append(body, `,"ExclusiveStartKey":`...), from...), '}')
	} else {
		body = append(body, '}')
	}
	return Request{"Scan", body}
}

// scanPage is what the scan workload reads of a Scan answer.
type scanPage struct {
	Count            int
	LastEvaluatedKey json.RawMessage
}

// parse reads a page from an answer. The session reuses the answer's
// bytes, which is safe as json.RawMessage keeps a copy.
func (p *scanPage) parse(body []byte) error {
	if err := json.Unmarshal(body, p); err != nil {
		return fmt.Errorf("Scan answer: %w", err)
	}
	return nil
}
