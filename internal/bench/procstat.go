package bench

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// clockTick is the unit of the CPU times in /proc/PID/stat: USER_HZ,
// which is 100 on every Linux architecture Go supports.
const clockTick = 10 * time.Millisecond

// Proc is a server process to observe while it is loaded: Linux only, as
// it reads /proc. Every figure covers the process and its live
// descendants, so a launcher (a shell, npm, a JVM wrapper) is no hiding
// place for the server's work.
type Proc struct {
	PID  int
	root string // /proc, replaced in tests
}

// CPU is the CPU time (user and system, including children already
// waited for) the process tree has used so far.
func (p Proc) CPU() (time.Duration, error) {
	var ticks int64
	err := p.walk(func(fields []string, _ string) error {
		// fields[0] is the state (stat's field 3); utime, stime, cutime
		// and cstime are fields 14 to 17.
		for _, f := range fields[11:15] {
			n, err := strconv.ParseInt(f, 10, 64)
			if err != nil {
				return err
			}
			ticks += n
		}
		return nil
	})
	return time.Duration(ticks) * clockTick, err
}

// Usage is a snapshot of CPU time used so far: by the server's process
// tree, by this process (the client), and by the whole machine.
type Usage struct {
	Server, Client, Machine time.Duration
}

// Usage reads the three CPU times at once.
func (p Proc) Usage() (Usage, error) {
	var u Usage
	var err error
	if u.Server, err = p.CPU(); err != nil {
		return u, err
	}
	if u.Client, err = (Proc{PID: os.Getpid(), root: p.root}).CPU(); err != nil {
		return u, err
	}
	u.Machine, err = machineCPU(p.root)
	return u, err
}

// Procs are several servers observed as one, such as the nodes of a
// sortkey cluster: their CPU and RSS are the sums over their trees. (A
// process listed beside one of its ancestors would be counted twice.)
type Procs []Proc

// Usage is Proc.Usage with Server summed over the processes.
func (ps Procs) Usage() (Usage, error) {
	u, err := ps[0].Usage()
	if err != nil {
		return u, err
	}
	for _, p := range ps[1:] {
		cpu, err := p.CPU()
		if err != nil {
			return u, err
		}
		u.Server += cpu
	}
	return u, nil
}

// RSS is the sum of the processes' RSS, in bytes.
func (ps Procs) RSS() (int64, error) {
	var total int64
	for _, p := range ps {
		n, err := p.RSS()
		if err != nil {
			return total, err
		}
		total += n
	}
	return total, nil
}

// machineCPU is the time every processor has been busy since boot, from
// /proc/stat: user, nice, system, irq, softirq and steal (time the
// hypervisor gave to other guests, which is load this machine did not
// choose either).
func machineCPU(root string) (time.Duration, error) {
	if root == "" {
		root = "/proc"
	}
	b, err := os.ReadFile(filepath.Join(root, "stat"))
	if err != nil {
		return 0, err
	}
	line, _, _ := strings.Cut(string(b), "\n")
	f := strings.Fields(line)
	if len(f) < 9 || f[0] != "cpu" {
		return 0, fmt.Errorf("%s/stat: unexpected first line %q", root, line)
	}
	var ticks int64
	for _, i := range []int{1, 2, 3, 6, 7, 8} { // user nice system [idle iowait] irq softirq steal
		n, err := strconv.ParseInt(f[i], 10, 64)
		if err != nil {
			return 0, err
		}
		ticks += n
	}
	return time.Duration(ticks) * clockTick, nil
}

// RSS is the resident set size (VmRSS) of the process tree, in bytes.
func (p Proc) RSS() (int64, error) {
	var total int64
	err := p.walk(func(_ []string, dir string) error {
		status, err := os.ReadFile(filepath.Join(dir, "status"))
		if errors.Is(err, os.ErrNotExist) {
			return nil // exited since the scan
		}
		if err != nil {
			return err
		}
		for line := range strings.Lines(string(status)) {
			if rest, ok := strings.CutPrefix(line, "VmRSS:"); ok {
				kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
				if err != nil {
					return err
				}
				total += kb << 10
			}
		}
		return nil
	})
	return total, err
}

// walk calls fn with the stat fields after the command name, and the
// /proc directory, of the process and each live descendant.
func (p Proc) walk(fn func(fields []string, dir string) error) error {
	root := p.root
	if root == "" {
		root = "/proc"
	}
	dirs, err := filepath.Glob(filepath.Join(root, "[0-9]*"))
	if err != nil {
		return err
	}
	stats := map[int][]string{}
	children := map[int][]int{}
	for _, dir := range dirs {
		pid, err := strconv.Atoi(filepath.Base(dir))
		if err != nil {
			continue
		}
		fields, err := statFields(filepath.Join(dir, "stat"))
		if err != nil {
			continue // exited since the glob, or not readable
		}
		ppid, _ := strconv.Atoi(fields[1])
		stats[pid] = fields
		children[ppid] = append(children[ppid], pid)
	}
	if _, ok := stats[p.PID]; !ok {
		return fmt.Errorf("process %d: not running", p.PID)
	}
	for todo := []int{p.PID}; len(todo) > 0; {
		pid := todo[0]
		todo = append(todo[1:], children[pid]...)
		if err := fn(stats[pid], filepath.Join(root, strconv.Itoa(pid))); err != nil {
			return fmt.Errorf("process %d: %w", pid, err)
		}
	}
	return nil
}

// statFields reads /proc/PID/stat and returns its fields after the
// command name (which may hold spaces and parentheses).
func statFields(path string) ([]string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return nil, fmt.Errorf("%s: no command name", path)
	}
	fields := strings.Fields(string(b[i+1:]))
	if len(fields) < 15 {
		return nil, fmt.Errorf("%s: %d fields", path, len(fields))
	}
	return fields, nil
}
