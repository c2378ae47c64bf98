// Package awscli reads one `aws dynamodb <command> --option value ...`
// command line, as AWS's dynamodb_data_model.json files write each access
// pattern's implementation, into the DynamoDB operation and the request
// the AWS CLI would send for it.
//
// The line is split into words as a POSIX shell splits them (single
// quotes, double quotes with backslash escapes, backslash-newline
// continuations), and nothing a shell would expand or redirect is
// accepted: a tool that runs these commands reaches only its own engine.
// Options are the CLI's: the API's parameter names in kebab case, JSON
// for structures, whole numbers for --limit and the segment options,
// --flag and --no-flag for booleans. The CLI's own pagination options
// (--max-items, --page-size, --starting-token) are returned as Paging for
// the caller to follow; the CLI's global options that only choose an
// endpoint or shape its output (--region, --output, ...) are ignored.
//
// Format goes the other way: it writes the command line that sends a
// request, one that Parse reads back as the same request.
package awscli
