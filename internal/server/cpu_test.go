package server

import (
	"syscall"
	"testing"
	"time"
)

// reportCPU adds "cpu-ns/op": the process's CPU time (user and system,
// background goroutines included) per operation. Wall time per op moves
// with whatever else the machine runs; CPU time moves much less, and it
// is what the server-CPU target is about. Use as
// defer reportCPU(b)() after setup.
func reportCPU(b *testing.B) func() {
	start := processCPU()
	return func() {
		if b.N > 0 {
			b.ReportMetric(float64((processCPU()-start).Nanoseconds())/float64(b.N), "cpu-ns/op")
		}
	}
}

func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
