package httpfast

import (
	"bytes"
	"io"
	"log"
	"net"
	"net/http"
	"sync"
	"syscall"
	"testing"
	"time"
)

// BenchmarkNoOp serves a no-op handler to 16 keep-alive connections, each
// sending an SDK-shaped PutItem of a 200-byte item and waiting for the
// answer, through httpfast and through net/http alone. cpu-µs/op is the
// process's CPU (server and clients, which are the same in both) per
// request.
func BenchmarkNoOp(b *testing.B) {
	noop := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/x-amz-json-1.0")
		w.Write([]byte("{}"))
	})
	b.Run("httpfast", func(b *testing.B) {
		s := &Server{Handler: noop, Fallback: &http.Server{Handler: noop, IdleTimeout: time.Minute, ReadTimeout: time.Minute}}
		benchServe(b, s.Serve, func() { s.Close() })
	})
	b.Run("net-http", func(b *testing.B) {
		s := &http.Server{Handler: noop, IdleTimeout: time.Minute, ReadTimeout: time.Minute, ErrorLog: log.New(io.Discard, "", 0)}
		benchServe(b, s.Serve, func() { s.Close() })
	})
}

func benchServe(b *testing.B, serve func(net.Listener) error, stop func()) {
	b.ReportAllocs()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	go serve(ln)
	defer stop()
	req := []byte(putItemRequest(200))
	const clients = 16
	conns := make([]net.Conn, clients)
	for i := range conns {
		if conns[i], err = net.Dial("tcp", ln.Addr().String()); err != nil {
			b.Fatal(err)
		}
		defer conns[i].Close()
	}
	var next sync.WaitGroup
	work := make(chan struct{}, b.N)
	for range b.N {
		work <- struct{}{}
	}
	close(work)
	before := cpuTime()
	b.ResetTimer()
	for _, c := range conns {
		next.Go(func() { roundTrips(b, c, req, work) })
	}
	next.Wait()
	b.StopTimer()
	b.ReportMetric(float64((cpuTime()-before).Microseconds())/float64(b.N), "cpu-µs/op")
}

// roundTrips sends req and reads its answer (ending in "{}") per work item.
func roundTrips(b *testing.B, c net.Conn, req []byte, work <-chan struct{}) {
	buf := make([]byte, 4096)
	for range work {
		if _, err := c.Write(req); err != nil {
			b.Error(err)
			return
		}
		n := 0
		for !bytes.HasSuffix(buf[:n], []byte("\r\n\r\n{}")) {
			m, err := c.Read(buf[n:])
			if err != nil {
				b.Error(err)
				return
			}
			n += m
		}
	}
}

func putItemRequest(itemBytes int) string {
	body := `{"TableName":"bench","Item":{"pk":{"S":"` + string(bytes.Repeat([]byte("x"), itemBytes)) + `"}}}`
	return sdkRequestHead(len(body)) + body
}

func sdkRequestHead(n int) string {
	h := sdkRequest[:bytes.Index([]byte(sdkRequest), []byte("\r\n\r\n"))+4]
	return string(bytes.Replace([]byte(h), []byte("Content-Length: 17"), []byte("Content-Length: "+itoa(n)), 1))
}

func itoa(n int) string { return string(appendInt(nil, n)) }

func appendInt(b []byte, n int) []byte {
	if n >= 10 {
		b = appendInt(b, n/10)
	}
	return append(b, byte('0'+n%10))
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
