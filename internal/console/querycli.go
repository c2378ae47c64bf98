package console

import (
	"encoding/json"
	"strconv"
	"strings"
)

// cliCommand is in as an `aws dynamodb query` command line for a POSIX
// shell, each argument quoted so that it reaches the CLI as it is.
func cliCommand(endpoint string, in queryIn) string {
	args := []string{"aws", "dynamodb", "query", "--endpoint-url", endpoint, "--table-name", in.TableName}
	opt := func(flag, v string) {
		if v != "" {
			args = append(args, flag, v)
		}
	}
	opt("--index-name", in.IndexName)
	opt("--key-condition-expression", in.KeyConditionExpression)
	opt("--filter-expression", in.FilterExpression)
	opt("--projection-expression", in.ProjectionExpression)
	opt("--expression-attribute-names", compact(in.ExpressionAttributeNames))
	opt("--expression-attribute-values", compact(in.ExpressionAttributeValues))
	opt("--exclusive-start-key", compact(in.ExclusiveStartKey))
	if in.ScanIndexForward != nil && !*in.ScanIndexForward {
		args = append(args, "--no-scan-index-forward")
	}
	args = append(args, "--limit", strconv.Itoa(in.Limit))
	if in.ConsistentRead {
		args = append(args, "--consistent-read")
	}
	args = append(args, "--return-consumed-capacity", in.ReturnConsumedCapacity)
	for i, a := range args {
		args[i] = shellQuote(a)
	}
	return strings.Join(args, " ")
}

// compact is v as one-line JSON, or "" when v is empty.
func compact[M ~map[K]V, K comparable, V any](v M) string {
	if len(v) == 0 {
		return ""
	}
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
	return strings.TrimSpace(b.String())
}

// shellQuote leaves a word of safe characters bare and single-quotes
// anything else, the only quoting in which a shell expands nothing.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./:=@,+%") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
