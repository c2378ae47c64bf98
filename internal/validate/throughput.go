package validate

import (
	"github.com/sortkeydb/sortkey/internal/apierr"
	"github.com/sortkeydb/sortkey/internal/protocol"
)

// forIndex is the tail of a throughput message about an index; index is
// "" for the table itself.
func forIndex(index string) string {
	if index == "" {
		return ""
	}
	return " for index: " + index
}

// OnDemandThroughput checks a maximum on-demand throughput: only an
// on-demand table and its indexes take one, and each member is a number
// of request units (at least 1) or -1, which removes the maximum. A
// request that names neither member is accepted and changes nothing, as
// the service is reported to treat it (its documentation asks for one).
// billing "" is the PROVISIONED default; index is "" for the table.
func OnDemandThroughput(odt *protocol.OnDemandThroughput, billing, index string) error {
	if odt == nil {
		return nil
	}
	if billing != "PAY_PER_REQUEST" {
		return apierr.Validationf(invalid+"OnDemandThroughput cannot be specified%s when BillingMode is PROVISIONED", forIndex(index))
	}
	if err := requestUnits("MaxReadRequestUnits", odt.MaxReadRequestUnits, index); err != nil {
		return err
	}
	return requestUnits("MaxWriteRequestUnits", odt.MaxWriteRequestUnits, index)
}

func requestUnits(member string, n *int64, index string) error {
	if n == nil || *n >= 1 || *n == -1 {
		return nil
	}
	return apierr.Validationf(invalid+"OnDemandThroughput %s%s must be at least 1, or -1 to remove the maximum; requested: %d", member, forIndex(index), *n)
}

// WarmThroughput checks a request's warm throughput against cur, the
// table's or index's current one (for a new table or index, the value it
// would start with). Warm throughput can be raised, never lowered.
func WarmThroughput(w *protocol.WarmThroughput, cur protocol.WarmThroughputDescription, index string) error {
	if w == nil {
		return nil
	}
	if err := notLower("ReadUnitsPerSecond", w.ReadUnitsPerSecond, cur.ReadUnitsPerSecond, index); err != nil {
		return err
	}
	return notLower("WriteUnitsPerSecond", w.WriteUnitsPerSecond, cur.WriteUnitsPerSecond, index)
}

func notLower(member string, n *int64, cur int64, index string) error {
	if n == nil || *n >= cur {
		return nil
	}
	return apierr.Validationf(invalid+"WarmThroughput %s%s cannot be lower than the current %d; warm throughput can only be increased. Requested: %d", member, forIndex(index), cur, *n)
}

// MaxCapacityUnits is DynamoDB's default quota on the read and on the
// write capacity units provisioned for a table, and for each of its
// global secondary indexes (Developer Guide, "Quotas"); DescribeLimits
// reports it. The account-wide quota on their sum is not enforced.
const MaxCapacityUnits = 40000

// quotaText refuses capacity over MaxCapacityUnits; the service's own
// wording is not documented.
const quotaText = "Subscriber limit exceeded: Requested %s %d%s exceeds the per-table maximum of %d"

// CreateTableQuotas checks the provisioned throughput of the table and of
// each of its GSIs against the per-table quota, after every validation.
func CreateTableQuotas(in *protocol.CreateTableInput) error {
	if err := capacityQuota(in.ProvisionedThroughput, ""); err != nil {
		return err
	}
	for _, g := range in.GlobalSecondaryIndexes {
		if err := capacityQuota(g.ProvisionedThroughput, *g.IndexName); err != nil {
			return err
		}
	}
	return nil
}

// UpdateTableQuotas is CreateTableQuotas for an UpdateTable request: the
// table's throughput and that of each index it creates or updates.
func UpdateTableQuotas(in *protocol.UpdateTableInput) error {
	if err := capacityQuota(in.ProvisionedThroughput, ""); err != nil {
		return err
	}
	for _, u := range in.GlobalSecondaryIndexUpdates {
		var err error
		switch {
		case u.Create != nil:
			err = capacityQuota(u.Create.ProvisionedThroughput, *u.Create.IndexName)
		case u.Update != nil:
			err = capacityQuota(u.Update.ProvisionedThroughput, *u.Update.IndexName)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

func capacityQuota(pt *protocol.ProvisionedThroughput, index string) error {
	if pt == nil {
		return nil
	}
	if err := underQuota("ReadCapacityUnits", *pt.ReadCapacityUnits, index); err != nil {
		return err
	}
	return underQuota("WriteCapacityUnits", *pt.WriteCapacityUnits, index)
}

func underQuota(member string, n int64, index string) error {
	if n <= MaxCapacityUnits {
		return nil
	}
	return apierr.New(apierr.LimitExceeded, quotaText, member, n, forIndex(index), MaxCapacityUnits)
}
