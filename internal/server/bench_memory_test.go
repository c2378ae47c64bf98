package server

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"sync"
	"testing"

	"github.com/sortkeydb/sortkey/internal/memlimit"
)

// BenchmarkMemoryMillionItems loads 1,000,000 items of about 200 bytes
// (random padding, which compresses as real data does) into an in-memory
// store with BatchWriteItem from 8 writers, once, and reports where the
// memory went: the items' own bytes by DynamoDB's size rules, Pebble's
// memtables, block cache and in-memory files, the Go heap, and the
// process's resident set, before and after the Go runtime returns what it
// holds free. Run with -benchtime 1x.
// It runs twice: with the runtime's default pacing, and with the soft
// memory limit `sortkey serve --in-memory` keeps (memlimit.Follow with
// the default --heap-headroom, 25, and with 50). Run each alone
// (-bench 'MemoryMillionItems/gc-default$'): one process's earlier store
// would still be in its resident set.
func BenchmarkMemoryMillionItems(b *testing.B) {
	b.Run("gc-default", benchMillionItems)
	for _, headroom := range []int{25, 50} {
		b.Run(fmt.Sprintf("headroom-%d", headroom), func(b *testing.B) {
			defer memlimit.Follow(headroom)()
			benchMillionItems(b)
		})
	}
}

func benchMillionItems(b *testing.B) {
	h, e := benchEngine(b, false)
	const items, writers = 1_000_000, 8
	start := processCPU()
	var wg sync.WaitGroup
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := rand.New(rand.NewPCG(uint64(w), 1))
			for first := w * 25; first < items; first += writers * 25 {
				if rec := do(h, "BatchWriteItem", paddedBatch(r, first)); rec.Code != 200 ||
					bytes.Contains(rec.Body.Bytes(), []byte(`"PutRequest"`)) {
					b.Error(rec.Body)
					return
				}
			}
		}()
	}
	wg.Wait()
	b.ReportMetric(float64((processCPU()-start).Microseconds())/items, "load-cpu-µs/item")
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	hl := e.Health()
	mb := func(n float64) float64 { return n / 1e6 }
	b.ReportMetric(mb(float64(tableSize(b, h))), "item-MB")
	b.ReportMetric(mb(float64(hl.MemtableBytes)), "memtable-MB")
	b.ReportMetric(mb(float64(hl.CacheBytes)), "cache-MB")
	b.ReportMetric(mb(float64(hl.DiskBytes)), "files-MB")
	b.ReportMetric(mb(float64(ms.HeapInuse)), "heap-MB")
	b.ReportMetric(mb(float64(ms.HeapSys-ms.HeapReleased)), "heap-held-MB")
	b.ReportMetric(mb(float64(rss())), "rss-MB")
	debug.FreeOSMemory() // what of the resident set was the collector's headroom
	b.ReportMetric(mb(float64(rss())), "rss-after-free-MB")
	b.ReportMetric(putCPU(b, h, items), "put-cpu-µs/op")
}

// putCPU is the process CPU per PutItem of a new ~200-byte item, from 8
// writers, into the store the caller filled with items: what the
// collector's pace costs a write when the heap is that large.
func putCPU(b *testing.B, h *Handler, items int) float64 {
	const puts, writers = 40_000, 8
	start := processCPU()
	var wg sync.WaitGroup
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < puts; i += writers {
				if rec := do(h, "PutItem", benchItem(int64(items+i))); rec.Code != 200 {
					b.Error(rec.Body)
					return
				}
			}
		}()
	}
	wg.Wait()
	return float64((processCPU() - start).Microseconds()) / puts
}

// paddedBatch is a BatchWriteItem of 25 items numbered from first, each
// about 200 bytes by DynamoDB's size rules.
func paddedBatch(r *rand.Rand, first int) []byte {
	body := []byte(`{"RequestItems":{"Bench":[`)
	pad := make([]byte, 150)
	for i := range 25 {
		for j := range pad {
			pad[j] = 'a' + byte(r.IntN(26))
		}
		if i > 0 {
			body = append(body, ',')
		}
		n := first + i
		body = fmt.Appendf(body, `{"PutRequest":{"Item":{"pk":{"S":"user#%d"},"sk":{"N":"%d"},"pad":{"S":"%s"},"n":{"N":"%d"}}}}`,
			n/100, n, pad, n)
	}
	return append(body, "]}}"...)
}

func tableSize(b *testing.B, h *Handler) int64 {
	rec := do(h, "DescribeTable", []byte(`{"TableName":"Bench"}`))
	var out struct {
		Table struct{ TableSizeBytes int64 }
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &out); err != nil {
		b.Fatal(err, rec.Body)
	}
	return out.Table.TableSizeBytes
}

// rss is the process's resident set in bytes, from /proc (0 elsewhere).
func rss() int64 {
	status, _ := os.ReadFile("/proc/self/status")
	for line := range bytes.Lines(status) {
		if f := bytes.Fields(line); len(f) == 3 && string(f[0]) == "VmRSS:" {
			kb, _ := strconv.ParseInt(string(f[1]), 10, 64)
			return kb << 10
		}
	}
	return 0
}
