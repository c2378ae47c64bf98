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
