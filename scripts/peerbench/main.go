// Command peerbench is the harness of scripts/bench-peers.sh, which
// compares sortkey with other DynamoDB servers; the load itself comes from
// `sortkey bench`, the same client for every server.
//
//	peerbench noop ADDR
//	    serve a no-op handler on ADDR: read the body, answer {} (the ceiling)
//	peerbench start --endpoint URL --log FILE -- COMMAND [ARGS...]
//	    start COMMAND in its own process group, wait for its first answered
//	    ListTables, print {"pid":…,"startup_ms":…,"rss_mb":…} and leave it running
//	peerbench report DIR
//	    print the Markdown comparison of the results in DIR, and write them
//	    all to DIR/results.jsonl
//
// and of scripts/bench-pg.sh, which compares sortkey on PostgreSQL with
// plain pgx clients doing the equivalent SQL:
//
//	peerbench pgceiling --url postgres://… [--concurrency 16] [--duration 3s] [--preload 2000] [--item-size 200] [--workload …] [--server-pids PID,…] [--json]
//	    the bare pgx ceiling: per workload, the SQL sortkey's store needs at
//	    the least, from as many clients as sortkey bench's, each with its own
//	    connection, in a schema of its own that it drops at the end
//	peerbench cpu PID...
//	    print the CPU seconds the processes and their descendants have used
//	peerbench pgreport DIR
//	    print the Markdown comparison of scripts/bench-pg.sh's results in DIR
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"

	"github.com/sortkeydb/sortkey/internal/bench"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

const usage = "usage: peerbench noop ADDR | start --endpoint URL --log FILE -- COMMAND... | report DIR | pgceiling --url URL [flags] | cpu PID... | pgreport DIR | clusterreport DIR\n"

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) < 2 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	var err error
	switch args[0] {
	case "noop":
		err = noop(args[1])
	case "start":
		err = start(args[1:], stdout)
	case "report":
		err = report(args[1], stdout)
	case "pgceiling":
		err = pgceiling(args[1:], stdout, stderr)
	case "cpu":
		err = cpu(args[1:], stdout)
	case "pgreport":
		err = pgreport(args[1], stdout)
	case "clusterreport":
		err = clusterreport(args[1], stdout)
	default:
		fmt.Fprint(stderr, usage)
		return 2
	}
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	if err != nil {
		fmt.Fprintln(stderr, "peerbench:", err)
		return 1
	}
	return 0
}

// noop is the ceiling: the least a Go HTTP server can do per request.
func noop(addr string) error {
	srv := &http.Server{Addr: addr, ReadHeaderTimeout: 10 * time.Second, Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/x-amz-json-1.0")
		_, _ = w.Write([]byte("{}"))
	})}
	return srv.ListenAndServe()
}

// start launches a server and times it from just before the process
// starts to its first answered ListTables.
func start(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("start", flag.ContinueOnError)
	endpoint := fs.String("endpoint", "", "the server's endpoint URL")
	logPath := fs.String("log", "", "file for the server's stdout and stderr")
	timeout := fs.Duration("timeout", 3*time.Minute, "how long to wait for the first answer")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *endpoint == "" || *logPath == "" || fs.NArg() == 0 {
		return errors.New("start wants --endpoint, --log and a command")
	}
	logf, err := os.Create(*logPath)
	if err != nil {
		return err
	}
	defer logf.Close()
	target := &bench.Target{Endpoint: *endpoint, Region: "us-east-1", Client: &http.Client{Timeout: 5 * time.Second}}
	if id, secret := os.Getenv("AWS_ACCESS_KEY_ID"), os.Getenv("AWS_SECRET_ACCESS_KEY"); id != "" && secret != "" {
		target.Credentials = &aws.Credentials{AccessKeyID: id, SecretAccessKey: secret}
	}
	if target.Ping(context.Background()) == nil {
		return fmt.Errorf("%s already answers: another server holds the port", *endpoint)
	}

	cmd := exec.Command(fs.Arg(0), fs.Args()[1:]...)
	cmd.Stdout, cmd.Stderr = logf, logf
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	t0 := time.Now()
	if err := cmd.Start(); err != nil {
		return err
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	deadline := t0.Add(*timeout)
	for {
		if target.Ping(context.Background()) == nil {
			break
		}
		select {
		case err := <-exited:
			return fmt.Errorf("%s exited before answering (%v); see %s", fs.Arg(0), err, *logPath)
		case <-time.After(500 * time.Microsecond):
		}
		if time.Now().After(deadline) {
			_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			return fmt.Errorf("%s did not answer ListTables within %s; see %s", fs.Arg(0), *timeout, *logPath)
		}
	}
	startup := time.Since(t0)
	rss, _ := bench.Proc{PID: cmd.Process.Pid}.RSS()
	return json.NewEncoder(stdout).Encode(map[string]any{
		"pid":        cmd.Process.Pid,
		"startup_ms": float64(startup.Microseconds()) / 1000,
		"rss_mb":     float64(rss) / (1 << 20),
		"command":    strings.Join(fs.Args(), " "),
	})
}
