package engine

import (
	"strings"

	"github.com/sortkeydb/sortkey/internal/apierr"
	"github.com/sortkeydb/sortkey/internal/validate"
)

// The resource-based policy operations' answers about their ResourceArn
// (observed on AWS; see shared research notes, section 2).
const (
	msgArnNotArn      = invalidParam + "ARNs must start with 'arn:': %s"
	msgArnNotDynamoDB = invalidParam + "Provided Arn is not a DynamoDB resource arn: %s"
	msgArnNotPolicy   = invalidParam + "Invalid resource arn provided, only table or stream is accepted. Provided resource arn: %s"
	msgForeignAccount = "This action is only supported by accounts that match the resource owner’s account."
)

// resourceRef is what a DynamoDB resource ARN names: a table, one of its
// indexes, or one of its streams.
type resourceRef struct {
	region, account, table string
	index                  string // set for an index ARN
	stream                 string // the stream label, for a stream ARN
}

// parseResourceArn reads arn:aws:dynamodb:<region>:<account>:table/<name>,
// optionally followed by /index/<name> or /stream/<label>. It allocates
// nothing for a good ARN: access control parses one per request.
func parseResourceArn(arn string) (resourceRef, error) {
	rest, ok := strings.CutPrefix(arn, "arn:")
	if !ok {
		return resourceRef{}, apierr.Validationf(msgArnNotArn, arn)
	}
	var ref resourceRef
	var partition, service string
	partition, rest, _ = strings.Cut(rest, ":")
	service, rest, _ = strings.Cut(rest, ":")
	ref.region, rest, _ = strings.Cut(rest, ":")
	ref.account, rest, ok = strings.Cut(rest, ":")
	if !ok || partition != "aws" || service != "dynamodb" {
		return resourceRef{}, apierr.Validationf(msgArnNotDynamoDB, arn)
	}
	if !ref.resource(rest) || ref.region == "" || !accountID(ref.account) {
		return resourceRef{}, apierr.Validationf(msgArnNotPolicy, arn)
	}
	return ref, nil
}

// resource reads the part after the account into ref and reports whether
// it is a table, index or stream.
func (ref *resourceRef) resource(s string) bool {
	s, ok := strings.CutPrefix(s, "table/")
	if !ok {
		return false
	}
	name, sub, nested := strings.Cut(s, "/")
	ref.table = name
	if !validate.Name(name) {
		return false
	}
	if !nested {
		return true
	}
	kind, id, _ := strings.Cut(sub, "/")
	switch {
	case id == "" || strings.Contains(id, "/"):
		return false
	case kind == "index":
		ref.index = id
		return validate.Name(id)
	case kind == "stream":
		ref.stream = id
		return true
	}
	return false
}

// String renders the ARN ref was read from.
func (ref resourceRef) String() string {
	s := "arn:aws:dynamodb:" + ref.region + ":" + ref.account + ":table/" + ref.table
	switch {
	case ref.index != "":
		s += "/index/" + ref.index
	case ref.stream != "":
		s += "/stream/" + ref.stream
	}
	return s
}

// policyRef reads the ResourceArn of a policy operation: a table or a
// stream of this database's account. Indexes have no policy of their own
// (the table's policy names them).
func (e *Engine) policyRef(arn string) (resourceRef, error) {
	ref, err := parseResourceArn(arn)
	switch {
	case err != nil:
		return resourceRef{}, err
	case ref.index != "":
		return resourceRef{}, apierr.Validationf(msgArnNotPolicy, arn)
	case ref.account != e.account:
		return resourceRef{}, apierr.Validationf(msgForeignAccount)
	}
	return ref, nil
}
