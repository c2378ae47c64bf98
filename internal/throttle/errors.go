package throttle

import "github.com/sortkeydb/sortkey/internal/apierr"

// The answers of a throttled request. The table's text is the one
// DynamoDB's clients quote; the index's and the hot key's are the
// service's as reported of it; DynamoDB answers an on-demand table over
// its maximum with a ThrottlingException whose text the documentation
// does not give, so that one is sortkey's.
const (
	msgTable = "The level of configured provisioned throughput for the table was exceeded. " +
		"Consider increasing your provisioning level with the UpdateTable API."
	msgIndex = "The level of configured provisioned throughput for one or more global secondary indexes of the table was exceeded. " +
		"Consider increasing your provisioning level for the under-provisioned global secondary indexes with the UpdateTable API"
	msgOnDemand = "Throughput exceeds the maximum OnDemandThroughput configured on the table or index."
	msgHotKey   = "Throughput exceeds the current capacity of your table or index. " +
		"DynamoDB is automatically scaling your table or index so please try again shortly. " +
		"If exceptions persist, check if you have a hot key: " +
		"https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/bp-partition-key-design.html"
)

// Reason is one entry of an error's ThrottlingReasons, as the API
// Reference's ThrottlingReason: <Table|Index><Read|Write><limit> and the
// ARN of the table or index throttled.
type Reason struct {
	Reason   string `json:"reason"`
	Resource string `json:"resource"`
}

// The limits a ThrottlingReason names.
const (
	limitProvisioned = "ProvisionedThroughputExceeded"
	limitOnDemand    = "MaxOnDemandThroughputExceeded"
	limitKeyRange    = "KeyRangeThroughputExceeded"
)

// refusal is the error for a bucket of r found in debt.
func refusal(r *Resource, write bool) error {
	var e *apierr.Error
	limit := limitProvisioned
	switch {
	case r.Mode == OnDemandMax:
		e, limit = apierr.New(apierr.Throttling, msgOnDemand), limitOnDemand
	case r.Index != "":
		e = apierr.New(apierr.ProvisionedThroughputExceeded, msgIndex)
	default:
		e = apierr.New(apierr.ProvisionedThroughputExceeded, msgTable)
	}
	e.ThrottlingReasons = []Reason{{Reason: reason(r, write, limit), Resource: r.ARN}}
	return e
}

// hotKey is the error for a partition of r's table over its ceiling.
func hotKey(r *Resource, write bool) error {
	e := apierr.New(apierr.ProvisionedThroughputExceeded, msgHotKey)
	e.ThrottlingReasons = []Reason{{Reason: reason(r, write, limitKeyRange), Resource: r.ARN}}
	return e
}

// reason is a ThrottlingReason's reason: resource type, operation type,
// limit type.
func reason(r *Resource, write bool, limit string) string {
	kind, op := "Table", "Read"
	if r.Index != "" {
		kind = "Index"
	}
	if write {
		op = "Write"
	}
	return kind + op + limit
}
