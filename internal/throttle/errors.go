package throttle

import "github.com/sortkeydb/sortkey/internal/apierr"

// The answers of a throttled request. The two provisioned texts are the
// service's own; DynamoDB gives an on-demand table over its maximum a
// ThrottlingException, whose text the documentation does not quote.
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

// refusal is the error for a bucket of r found in debt.
func refusal(r *Resource) error {
	switch {
	case r.Mode == OnDemandMax:
		return apierr.New(apierr.Throttling, msgOnDemand)
	case r.Index != "":
		return apierr.New(apierr.ProvisionedThroughputExceeded, msgIndex)
	}
	return apierr.New(apierr.ProvisionedThroughputExceeded, msgTable)
}

// hotKey is the error for a partition over its ceiling.
func hotKey() error { return apierr.New(apierr.ProvisionedThroughputExceeded, msgHotKey) }
