package bench

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"
)

// TestProcSumsTheProcessTree builds a fake /proc: a launcher (1), the
// server it started (2, with a command name full of spaces and
// parentheses) and an unrelated process (3), which must not count.
func TestProcSumsTheProcessTree(t *testing.T) {
	root := t.TempDir()
	write := func(pid, stat, rss string) {
		dir := filepath.Join(root, pid)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "stat"), []byte(stat), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "status"), []byte("Name:\tx\nVmRSS:\t   "+rss+" kB\nThreads:\t1\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// pid (comm) state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime cutime cstime ...
	write("1", "1 (node) S 0 1 1 0 -1 0 0 0 0 0 100 50 3 2 20 0 1 0", "1000")
	write("2", "2 (java (a) b) R 1 1 1 0 -1 0 0 0 0 0 700 150 0 0 20 0 40 0", "2000")
	write("3", "3 (other) S 0 3 3 0 -1 0 0 0 0 0 9999 9999 0 0 20 0 1 0", "9999")
	p := Proc{PID: 1, root: root}
	cpu, err := p.CPU()
	if err != nil {
		t.Fatal(err)
	}
	if want := (100 + 50 + 3 + 2 + 700 + 150) * clockTick; cpu != want {
		t.Fatalf("CPU %v, want %v", cpu, want)
	}
	rss, err := p.RSS()
	if err != nil {
		t.Fatal(err)
	}
	if rss != 3000<<10 {
		t.Fatalf("RSS %d, want %d", rss, 3000<<10)
	}
	servers := Procs{p, {PID: 3, root: root}}
	if rss, err := servers.RSS(); err != nil || rss != 12999<<10 {
		t.Fatalf("RSS of processes 1 and 3: %d (%v), want %d", rss, err, 12999<<10)
	}
	// The client, this process, and the machine, for Usage.
	write(strconv.Itoa(os.Getpid()), "9 (client) R 0 9 9 0 -1 0 0 0 0 0 30 10 0 0 20 0 1 0", "1")
	if err := os.WriteFile(filepath.Join(root, "stat"), []byte("cpu  9000 0 1000 50000 0 0 0 0 0 0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	u, err := servers.Usage()
	if want := (Usage{Server: (1005 + 19998) * clockTick, Client: 40 * clockTick, Machine: 10000 * clockTick}); err != nil || u != want {
		t.Fatalf("Usage of processes 1 and 3: %+v (%v), want %+v", u, err, want)
	}
	if _, err := (Proc{PID: 4, root: root}).CPU(); err == nil {
		t.Fatal("a missing process was measured")
	}
}

// TestProcReadsThisProcess reads the real /proc for the test itself.
func TestProcReadsThisProcess(t *testing.T) {
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("no /proc")
	}
	p := Proc{PID: os.Getpid()}
	before, err := p.CPU()
	if err != nil {
		t.Fatal(err)
	}
	// Spin until the reading shows 30ms more CPU. On a loaded machine that
	// takes longer than 30ms of wall time, so only a reading that never
	// moves fails, after 30s.
	for deadline := time.Now().Add(30 * time.Second); ; {
		after, err := p.CPU()
		if err != nil {
			t.Fatal(err)
		}
		if after-before >= 30*time.Millisecond {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("30s of spinning measured as %v", after-before)
		}
		spin(5 * time.Millisecond)
	}
	if rss, err := p.RSS(); err != nil || rss < 1<<20 {
		t.Fatalf("RSS %d, %v", rss, err)
	}
}

func TestMachineCPUCountsBusyTime(t *testing.T) {
	root := t.TempDir()
	// user nice system idle iowait irq softirq steal guest guest_nice
	stat := "cpu  100 5 50 1000 20 3 4 2 0 0\ncpu0 50 0 25 500 10 1 2 1 0 0\n"
	if err := os.WriteFile(filepath.Join(root, "stat"), []byte(stat), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := machineCPU(root)
	if err != nil {
		t.Fatal(err)
	}
	if want := (100 + 5 + 50 + 3 + 4 + 2) * clockTick; got != want {
		t.Fatalf("busy %v, want %v", got, want)
	}
}

// spin burns CPU for d of wall time.
func spin(d time.Duration) {
	for start := time.Now(); time.Since(start) < d; {
	}
}
