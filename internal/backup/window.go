package backup

import "time"

// DefaultWindow is how far back point-in-time recovery reaches unless the
// server is told otherwise: DynamoDB's 35 days.
const DefaultWindow = 35 * 24 * time.Hour

// Day is the unit of RecoveryPeriodInDays.
const Day = 24 * time.Hour

// Earliest is the earliest restorable moment of a table whose recovery
// was enabled at enabled and keeps period: the later of the two bounds.
func Earliest(enabled, now time.Time, period time.Duration) time.Time {
	if from := now.Add(-period); from.After(enabled) {
		return from
	}
	return enabled
}

// Within reports whether at is restorable: not before the earliest moment
// and not after now.
func Within(at, enabled, now time.Time, period time.Duration) bool {
	return !at.Before(Earliest(enabled, now, period)) && !at.After(now)
}
