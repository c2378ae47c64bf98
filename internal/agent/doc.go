// Package agent is sortkey's agent interface: an MCP server (the official
// Go SDK, github.com/modelcontextprotocol/go-sdk) whose tools act on a
// sortkey through its DynamoDB API, so that a coding agent can create
// tables, write and read items and check a single-table design against a
// real engine in milliseconds.
//
// Every data tool sends its input, the operation's request exactly as the
// DynamoDB API Reference defines it, to the database's own HTTP handler in
// process: the agent gets DynamoDB's answers and DynamoDB's error texts,
// and nothing the API refuses is accepted through a side door. The design
// tool runs the checks of `sortkey design check`.
//
// Options bound what an agent can do and see: ReadOnly refuses every tool
// that writes, and MaxItems caps the items one Query or Scan returns (the
// answer then says so and carries the key to continue from).
package agent
