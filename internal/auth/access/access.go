package access

import (
	"errors"
	"reflect"
	"slices"
	"strings"
)

// Check is one authorisation DynamoDB makes for a request.
type Check struct {
	Action   string              // "dynamodb:GetItem", "dynamodb:ConditionCheckItem", "dynamodb:PartiQLSelect", ...
	Resource string              // ARN: table, table/T/index/I, table/T/stream/<label>, or "*" where IAM has no resource
	Table    string              // the table name whose resource policy also applies ("" when none)
	Keys     map[string][]string // condition keys, names lowercased; an absent key is not in the request context; read-only
}

// Schema is what access needs to know about a table.
type Schema struct {
	Partition []string // the table's partition key attribute name (one)
	Sort      string   // its sort key attribute ("" if none)
	Indexes   map[string]IndexSchema
	StreamArn string // latest stream ARN, "" if none
}

// IndexSchema is one secondary index's key: up to four partition and four
// sort attributes for a multi-attribute GSI, one each otherwise.
type IndexSchema struct {
	Partition []string
	Sort      []string
	Local     bool
}

// Catalog looks tables up; the engine implements it. Implementations MUST
// be safe for concurrent use and MUST NOT block on item locks: Describe
// runs before the operation, on every request.
type Catalog interface {
	Schema(table string) (Schema, bool)
	TableArn(table string) string                                      // ARN of a table name in this server's region and account
	TableOfArn(arn string) (string, bool)                              // table name of a table ARN
	StreamOfIterator(shardIterator string) (streamArn string, ok bool) // GetRecords carries only an iterator
}

// The condition keys, lowercased as IAM compares key names
// case-insensitively.
const (
	KeyLeadingKeys        = "dynamodb:leadingkeys"
	KeyAttributes         = "dynamodb:attributes"
	KeySelect             = "dynamodb:select"
	KeyReturnValues       = "dynamodb:returnvalues"
	KeyConsumedCapacity   = "dynamodb:returnconsumedcapacity"
	KeyEnclosingOperation = "dynamodb:enclosingoperation"
	KeyFullTableScan      = "dynamodb:fulltablescan"
)

// Unbounded is the value access puts in dynamodb:LeadingKeys for a request
// that may touch any partition (Scan, a full-scan SELECT) or whose keys it
// cannot read, and in dynamodb:Attributes when an expression does not
// parse. No partition key can be matched by it in a policy: IAM policy text
// allows only TAB, LF, CR and U+0020-U+00FF, and tag values (policy
// variables) cannot hold NUL, so only a wildcard pattern matches it. That
// makes ForAllValues:StringEquals fail for such requests (see doc.go).
const Unbounded = "\x00"

// The Select and ReturnValues values access supplies when a request omits
// them.
const (
	allAttributes      = "ALL_ATTRIBUTES"
	allProjected       = "ALL_PROJECTED_ATTRIBUTES"
	specificAttributes = "SPECIFIC_ATTRIBUTES"
	none               = "NONE"
)

// The keys' common single values, shared (see orDefault).
var (
	noneValue     = []string{none}
	allValue      = []string{allAttributes}
	specificValue = []string{specificAttributes}
)

// Errors Describe returns when it cannot name even the action.
var (
	ErrUnknownOperation = errors.New("access: operation not described")
	ErrInputType        = errors.New("access: request is not the operation's input type")
)

const actionPrefix = "dynamodb:"

// Describe returns the checks for operation op (the X-Amz-Target operation
// name) whose decoded request is in (a pointer to the protocol input
// struct). An error means no action can be named: an unknown operation, a
// request of the wrong type, or a PartiQL statement that does not parse,
// whose error is the engine's own ValidationException for it (nothing is
// read or written for such a statement). DescribeEndpoints is not
// authorised by DynamoDB and yields no checks.
func Describe(op string, in any, c Catalog) ([]Check, error) {
	d, ok := describers[op]
	if !ok {
		return nil, ErrUnknownOperation
	}
	if v := reflect.ValueOf(in); v.Kind() != reflect.Pointer || v.IsNil() {
		return nil, ErrInputType
	}
	return d(op, in, c)
}

type describer func(op string, in any, c Catalog) ([]Check, error)

// target is the table a request names, resolved once.
type target struct {
	name   string // table name; "" when an ARN of another account or region
	schema Schema
	known  bool // schema is the table's
	arn    string
}

// resolve finds the table a TableName parameter names; DynamoDB accepts a
// name or the table's ARN there.
func resolve(ref *string, c Catalog) target {
	s := str(ref)
	t := target{name: s}
	if strings.HasPrefix(s, "arn:") {
		name, ok := c.TableOfArn(s)
		if !ok {
			return target{arn: s}
		}
		t.name = name
	}
	t.arn = c.TableArn(t.name)
	t.schema, t.known = c.Schema(t.name)
	return t
}

// check starts a check of action (the full name, so that it is a constant
// and costs no allocation) on the table, or on one of its indexes.
func (t *target) check(action, index string) Check {
	res := t.arn
	if index != "" {
		res += "/index/" + index
	}
	return Check{Action: action, Resource: res, Table: t.name, Keys: make(map[string][]string, 6)}
}

func str(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

// orDefault is a single-valued key's value: the request's, or def. The
// defaults' slices are shared between checks, which is why a check's Keys
// MUST NOT be modified.
func orDefault(p *string, def []string) []string {
	if p == nil {
		return def
	}
	return []string{*p}
}

// set makes a multivalued key's values a set: sorted, without repeats, so
// that checks compare equal however the request ordered its maps.
func set(vals []string) []string {
	slices.Sort(vals)
	return slices.Compact(vals)
}
