package faults

import (
	"slices"
	"strings"
	"time"
)

// The operations an effect is limited to; a rule with that effect and no
// operation matches only these.
var (
	batchOps    = []string{"BatchWriteItem", "BatchGetItem"}
	transactOps = []string{"TransactWriteItems", "TransactGetItems", "ExecuteTransaction"}
)

// maxTransactMembers is DynamoDB's limit on a transaction's actions.
const maxTransactMembers = 100

// check refuses a rule whose values cannot work, naming the member.
func (r *Rule) check(path string, ops []string) error {
	for _, c := range []func(string, []string) error{r.checkMatch, r.checkTrigger, r.checkEffect, r.checkEffectOp} {
		if err := c(path, ops); err != nil {
			return err
		}
	}
	return nil
}

func (r *Rule) checkMatch(path string, ops []string) error {
	if r.Operation != "" && ops != nil && !slices.Contains(ops, r.Operation) {
		return refuse(path+".operation", msgUnknownOp, r.Operation)
	}
	return nil
}

func (r *Rule) checkTrigger(path string, _ []string) error {
	switch {
	case r.Probability != nil && !fraction(*r.Probability):
		return refuse(path+".probability", msgProbability)
	case r.Every != nil && *r.Every < 1:
		return refuse(path+".every", msgAtLeastOne)
	case r.Count != nil && *r.Count < 1:
		return refuse(path+".count", msgAtLeastOne)
	case r.After < 0:
		return refuse(path+".after", msgNotNegative)
	}
	if r.Window != nil {
		return r.Window.check(path + ".window")
	}
	return nil
}

func fraction(f float64) bool { return f > 0 && f <= 1 }

func (w *Window) check(path string) error {
	from, err := parseTime(w.From, path+".from")
	if err != nil {
		return err
	}
	until, err := parseTime(w.Until, path+".until")
	if err != nil {
		return err
	}
	if w.For != "" {
		if w.Until != "" {
			return refuse(path, msgUntilAndFor)
		}
		_, err = parseDuration(w.For, path+".for", 0)
		return err
	}
	if !from.IsZero() && !until.IsZero() && !until.After(from) {
		return refuse(path+".until", msgEmptyWindow)
	}
	return nil
}

func parseTime(s, path string) (time.Time, error) {
	if s == "" {
		return time.Time{}, nil
	}
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		return time.Time{}, refuse(path, msgTime)
	}
	return t, nil
}

// parseDuration reads a positive duration, at most limit when limit is
// not 0.
func parseDuration(s, path string, limit time.Duration) (time.Duration, error) {
	d, err := time.ParseDuration(s)
	if err != nil || d <= 0 || (limit > 0 && d > limit) {
		shown := "any length"
		if limit > 0 {
			shown = limit.String()
		}
		return 0, refuse(path, msgDuration, shown)
	}
	return d, nil
}

func (r *Rule) checkEffect(path string, _ []string) error {
	n := 0
	for _, set := range []bool{r.Error != "", r.Unprocessed != nil, r.Drop, r.Hold != ""} {
		if set {
			n++
		}
	}
	switch {
	case n > 1:
		return refuse(path, msgTwoEffects)
	case n == 0 && r.Latency == "":
		return refuse(path, msgNoEffect)
	}
	return r.checkEffectValues(path)
}

func (r *Rule) checkEffectValues(path string) error {
	if _, ok := errorMessages[r.Error]; r.Error != "" && !ok {
		return refuse(path+".error", msgUnknownError, r.Error, errorNames())
	}
	if r.Unprocessed != nil && !fraction(*r.Unprocessed) {
		return refuse(path+".unprocessed", msgFraction)
	}
	if r.Latency != "" {
		if _, err := parseDuration(r.Latency, path+".latency", maxLatency); err != nil {
			return err
		}
	}
	if r.Hold != "" {
		if _, err := parseDuration(r.Hold, path+".hold", maxHold); err != nil {
			return err
		}
	}
	return r.checkConflict(path)
}

func (r *Rule) checkConflict(path string) error {
	if r.Conflict == nil {
		return nil
	}
	if r.Error != "TransactionCanceledException" {
		return refuse(path+".conflict", msgConflictError)
	}
	for _, i := range r.Conflict {
		if i < 0 || i >= maxTransactMembers {
			return refuse(path+".conflict", msgConflictIndex)
		}
	}
	return nil
}

// checkEffectOp refuses an effect the named operation cannot have.
func (r *Rule) checkEffectOp(path string, _ []string) error {
	if ok, member := r.effectOps(); ok != nil && r.Operation != "" && !slices.Contains(ok, r.Operation) {
		return refuse(path+"."+member, msgEffectOp, member, strings.Join(ok, ", "), r.Operation)
	}
	return nil
}

// effectOps is the operations the rule's effect is limited to (nil: any)
// and the member that limits it.
func (r *Rule) effectOps() ([]string, string) {
	switch {
	case r.Unprocessed != nil:
		return batchOps, "unprocessed"
	case r.Error == "TransactionCanceledException":
		return transactOps, "error"
	case r.Hold != "":
		return holdOps, "hold"
	}
	return nil, ""
}
