package engine

import (
	"context"
	"time"

	"github.com/sortkeydb/sortkey/internal/apierr"
	"github.com/sortkeydb/sortkey/internal/protocol"
	"github.com/sortkeydb/sortkey/internal/validate"
)

// ttlConfig is a table's Time to Live setting.
type ttlConfig struct {
	Attr    string `json:"attr"`
	Enabled bool   `json:"enabled"`
	Changed int64  `json:"changed"` // Unix milliseconds of the last UpdateTimeToLive
}

// ttlLockout is how long DynamoDB refuses another UpdateTimeToLive on a
// table after one succeeded.
const ttlLockout = time.Hour

// UpdateTimeToLive enables or disables TTL on a table. The change is in
// effect at once (DynamoDB takes up to an hour), but a second change
// within the hour is refused, as DynamoDB refuses it.
func (e *Engine) UpdateTimeToLive(_ context.Context, in *protocol.UpdateTimeToLiveInput) (*protocol.UpdateTimeToLiveOutput, error) {
	if err := validate.UpdateTimeToLive(in); err != nil {
		return nil, err
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	t, err := e.changingTable(*in.TableName)
	if err != nil {
		return nil, err
	}
	spec := in.TimeToLiveSpecification
	if err := e.canChangeTTL(t.meta.TTL, spec); err != nil {
		return nil, err
	}
	meta := t.meta
	meta.TTL = &ttlConfig{Attr: *spec.AttributeName, Enabled: *spec.Enabled, Changed: e.now().UnixMilli()}
	if err := e.publish(t, meta, 0); err != nil {
		return nil, err
	}
	return &protocol.UpdateTimeToLiveOutput{TimeToLiveSpecification: spec}, nil
}

// canChangeTTL applies the rules on the table's TTL state; disabling
// another attribute than the enabled one is refused before the rate
// limit (facts 35.1).
func (e *Engine) canChangeTTL(cur *ttlConfig, spec *protocol.TimeToLiveSpecification) error {
	enable := *spec.Enabled
	enabled := cur != nil && cur.Enabled
	switch {
	case enable && enabled:
		return apierr.Validationf("TimeToLive is already enabled")
	case !enable && !enabled:
		return apierr.Validationf("TimeToLive is already disabled")
	case !enable && cur.Attr != *spec.AttributeName:
		return apierr.Validationf("TimeToLive is active on a different AttributeName: current AttributeName is %s", cur.Attr)
	case cur != nil && e.now().Sub(time.UnixMilli(cur.Changed)) < ttlLockout:
		return apierr.Validationf("Time to live has been modified multiple times within a fixed interval")
	}
	return nil
}

// DescribeTimeToLive reports ENABLED or DISABLED: a change is complete at
// once, so sortkey never reports ENABLING or DISABLING.
func (e *Engine) DescribeTimeToLive(_ context.Context, in *protocol.DescribeTimeToLiveInput) (*protocol.DescribeTimeToLiveOutput, error) {
	if err := validate.TableRequest(in.TableName); err != nil {
		return nil, err
	}
	t, err := e.controlTable(*in.TableName)
	if err != nil {
		return nil, err
	}
	d := &protocol.TimeToLiveDescription{TimeToLiveStatus: "DISABLED"}
	if c := t.meta.TTL; c != nil && c.Enabled {
		d.TimeToLiveStatus, d.AttributeName = "ENABLED", c.Attr
	}
	return &protocol.DescribeTimeToLiveOutput{TimeToLiveDescription: d}, nil
}
