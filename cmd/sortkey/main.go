// Command sortkey is a DynamoDB-compatible database server.
//
//	sortkey serve [--addr 127.0.0.1:8000] [--data-dir ./sortkey-data] [--in-memory] [--region us-east-1] [--auth FILE]
//	sortkey auth check --auth FILE --as ARN --request FILE.json [--region us-east-1]
//	sortkey version
//	sortkey export --table T --out DIR [--endpoint URL] [--format DYNAMODB_JSON]
//	sortkey import --table NAME --in DIR (--partition-key NAME:TYPE [--sort-key NAME:TYPE] | --schema-from TABLE) [--endpoint URL]
//	sortkey dump --out DIR [--endpoint URL]; sortkey load --in DIR [--endpoint URL]
//	sortkey health [--addr 127.0.0.1:8000]
//	sortkey upgrade [--data-dir ./sortkey-data | --store URL]
//	sortkey mcp [--data-dir DIR] [--read-only] [--max-items 100] [--http ADDR [--http-token TOKEN]]
//	sortkey bench [--endpoint URL] [--workload put,get,...] [--concurrency 1,16] [--duration 5s] [--server-pid PID] [--json]
package main

import (
	"fmt"
	"io"
	"os"
)

const usage = `usage: sortkey <command> [flags]

commands:
  serve        serve the DynamoDB API over HTTP (--auth FILE turns access control on)
  bench        load a DynamoDB endpoint (default: an embedded sortkey) and report throughput and latency
  export       write a table's items in DynamoDB's S3 export layout to a folder (from sortkey or DynamoDB)
  import       create a table and load an export's folder (DynamoDB JSON, CSV; gzip, zstd) into it, as ImportTable does
  dump         write a whole server, every table's settings and items, to a folder (a fixture)
  load         create a dump's tables and items on a server (sortkey serve --seed DIR does it at start)
  auth check   decide a request as a principal of an auth file would have it decided by serve --auth,
               print ALLOW or DENY and the statement that decided, and exit 0 or 1
  design       single-table design files: check, doc, apply, and NoSQL Workbench models
  version      print sortkey's version, the commit it was built from and the Go that built it
  health       exit 0 if the server at --addr (or SORTKEY_ADDR) answers its health check, 1 if not
  upgrade      convert a data directory or PostgreSQL store an earlier sortkey wrote (serve names it when needed)
  mcp          serve tools for coding agents over MCP (stdio, or HTTP with a bearer token): DynamoDB operations and design checks (docs/AGENTS.md)

Run "sortkey <command> -h" for a command's flags.
`

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	switch args[0] {
	case "serve":
		return serve(args[1:], stdout, stderr)
	case "bench":
		return benchCmd(args[1:], stdout, stderr)
	case "export":
		return exportCmd(args[1:], stdout, stderr)
	case "import":
		return importCmd(args[1:], stdout, stderr)
	case "dump":
		return dumpCmd(args[1:], stdout, stderr)
	case "load":
		return loadCmd(args[1:], stdout, stderr)
	case "auth":
		return authCmd(args[1:], stdout, stderr)
	case "design":
		return designCmd(args[1:], stdout, stderr)
	case "version":
		return versionCmd(args[1:], stdout, stderr)
	case "health":
		return healthCmd(args[1:], stdout, stderr)
	case "upgrade":
		return upgradeCmd(args[1:], stdout, stderr)
	case "mcp":
		return mcpCmd(args[1:], stdout, stderr)
	}
	if isHelp(args[0]) {
		fmt.Fprint(stdout, usage)
		return 0
	}
	fmt.Fprintf(stderr, "sortkey: unknown command %q\n\n%s", args[0], usage)
	return 2
}

func isHelp(arg string) bool {
	return arg == "help" || arg == "-h" || arg == "--help"
}
