package console

import (
	"context"
	"encoding/json"
	"math"
	"net/http"
	"sort"
	"strconv"
	"time"
)

func init() {
	routes = append(routes, func(c *Console) { c.mux.HandleFunc("GET /console/tables/{table}/ttl", c.ttlPage) })
}

// clock is the server's clock; nil is time.Now.
type clock func() time.Time

// SetClock makes the console tell time by now, the server's injected
// clock (sortkey.Options.Now), so the TTL view agrees with the sweeper.
func (c *Console) SetClock(now func() time.Time) { c.now = now }

func (c *Console) clockNow() time.Time {
	if c.now == nil {
		return time.Now()
	}
	return c.now()
}

const (
	// ttlReadBound caps the items the TTL view reads: it scans at most
	// this many, so a large table costs one bounded read, and says so.
	ttlReadBound = 1000
	// ttlShown is how many of the soonest expiries the page lists.
	ttlShown = 100
	// maxTTLAge is how far in the past a TTL value may be and still
	// expire; DynamoDB ignores older ones.
	maxTTLAge = 5 * 365 * 24 * time.Hour
	maxEpoch  = 1e13 // seconds, some 300,000 years either side of 1970
)

// expiring is one item with a TTL on the TTL page.
type expiring struct {
	Key             []cell
	Value, At, Left string
	Expired, Never  bool
	epoch           float64
}

// ttlView is the data of the TTL page.
type ttlView struct {
	Table, Attribute, Status, Now string
	Keys                          []string
	Items                         []expiring
	Read, WithTTL, Expired        int
	Bound, Shown                  int
	Partial                       bool
}

func (c *Console) ttlPage(w http.ResponseWriter, r *http.Request) {
	table := r.PathValue("table")
	d, err := c.api.describe(r.Context(), table)
	if err != nil {
		failed(w, err)
		return
	}
	t, err := c.api.ttl(r.Context(), table)
	if err != nil {
		failed(w, err)
		return
	}
	now := c.clockNow()
	v := ttlView{Table: table, Attribute: t.TimeToLiveDescription.AttributeName, Status: t.TimeToLiveDescription.TimeToLiveStatus,
		Now: now.UTC().Format(time.RFC3339), Bound: ttlReadBound, Shown: ttlShown}
	v.Keys = append(keyNames(d.KeySchema, "HASH"), keyNames(d.KeySchema, "RANGE")...)
	if v.Status == "ENABLED" {
		if err := c.fillExpiring(r.Context(), &v, now); err != nil {
			failed(w, err)
			return
		}
	}
	page(w, http.StatusOK, "ttl", v)
}

// fillExpiring reads at most ttlReadBound items and keeps those with a
// numeric TTL value, soonest first.
func (c *Console) fillExpiring(ctx context.Context, v *ttlView, now time.Time) error {
	var start item
	for v.Read < ttlReadBound {
		out, err := c.api.scan(ctx, scanIn{TableName: v.Table, Limit: ttlReadBound - v.Read, ExclusiveStartKey: start})
		if err != nil {
			return err
		}
		v.Read += len(out.Items)
		for _, it := range out.Items {
			if e, ok := expiry(it, v.Attribute, v.Keys, now); ok {
				v.Items = append(v.Items, e)
			}
		}
		if start = out.LastEvaluatedKey; len(start) == 0 {
			break
		}
	}
	v.Partial = len(start) > 0
	sort.SliceStable(v.Items, func(i, j int) bool { return v.Items[i].epoch < v.Items[j].epoch })
	v.WithTTL = len(v.Items)
	for _, e := range v.Items {
		if e.Expired {
			v.Expired++
		}
	}
	v.Items = v.Items[:min(len(v.Items), ttlShown)]
	return nil
}

// expiry is an item's TTL entry, when its TTL attribute is a Number of
// epoch seconds (any other type never expires, as in DynamoDB).
func expiry(it item, attr string, keys []string, now time.Time) (expiring, bool) {
	var s string
	if err := json.Unmarshal(it[attr]["N"], &s); err != nil {
		return expiring{}, false
	}
	sec, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsInf(sec, 0) || math.IsNaN(sec) {
		return expiring{}, false
	}
	// Clamped so that milliseconds fit an int64; such values are shown as
	// far past or far future either way.
	at := time.UnixMilli(int64(max(min(sec, maxEpoch), -maxEpoch) * 1000)).UTC()
	e := expiring{Key: keyCells(keys, it), Value: s, At: at.Format(time.RFC3339), epoch: sec}
	left := at.Sub(now)
	switch {
	case left < -maxTTLAge:
		e.Never, e.Left = true, "never: over five years past, ignored"
	case left < 0:
		e.Expired, e.Left = true, "expired "+span(-left)+" ago, awaiting the sweeper"
	default:
		e.Left = "in " + span(left)
	}
	return e, true
}

// span is a duration as a person reads it, to the second.
func span(d time.Duration) string {
	d = d.Round(time.Second)
	if d >= 48*time.Hour {
		days := d / (24 * time.Hour)
		return strconv.Itoa(int(days)) + "d " + (d - days*24*time.Hour).String()
	}
	return d.String()
}
