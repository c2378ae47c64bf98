package sortkey_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/sortkeydb/sortkey"
	"github.com/sortkeydb/sortkey/sortkeytest"
)

func setTTL(c *dynamodb.Client, enabled bool) error {
	_, err := c.UpdateTimeToLive(ctx, &dynamodb.UpdateTimeToLiveInput{TableName: aws.String("app"),
		TimeToLiveSpecification: &types.TimeToLiveSpecification{Enabled: aws.Bool(enabled), AttributeName: aws.String("ttl")}})
	return err
}

func ttlStatus(t *testing.T, c *dynamodb.Client) string {
	t.Helper()
	out, err := c.DescribeTimeToLive(ctx, &dynamodb.DescribeTimeToLiveInput{TableName: aws.String("app")})
	if err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("%s %s", out.TimeToLiveDescription.TimeToLiveStatus, aws.ToString(out.TimeToLiveDescription.AttributeName))
}

func TestTimeToLiveSettings(t *testing.T) {
	clock := newClock()
	c := sortkeytest.NewWithOptions(t, &sortkey.Options{InMemory: true, Now: clock.Now, TTLInterval: -1}).Client()
	createSingleTable(t, c)
	if got := ttlStatus(t, c); got != "DISABLED " {
		t.Fatalf("new table: %q", got)
	}
	wantAPIError(t, setTTL(c, false), "ValidationException", "TimeToLive is already disabled")
	if err := setTTL(c, true); err != nil {
		t.Fatal(err)
	}
	if got := ttlStatus(t, c); got != "ENABLED ttl" {
		t.Fatalf("after enabling: %q", got)
	}
	// facts 35.1: another attribute is refused before the rate limit; the
	// enabled one then meets the limit.
	for _, tc := range []struct {
		enabled    bool
		attr, want string
	}{
		{true, "ttl", "TimeToLive is already enabled"},
		{false, "dog", "TimeToLive is active on a different AttributeName: current AttributeName is ttl"},
		{false, "ttl", "Time to live has been modified multiple times within a fixed interval"},
	} {
		_, err := c.UpdateTimeToLive(ctx, &dynamodb.UpdateTimeToLiveInput{TableName: aws.String("app"),
			TimeToLiveSpecification: &types.TimeToLiveSpecification{Enabled: aws.Bool(tc.enabled), AttributeName: aws.String(tc.attr)}})
		wantAPIError(t, err, "ValidationException", tc.want)
	}
	clock.Advance(61 * time.Minute)
	if err := setTTL(c, false); err != nil || ttlStatus(t, c) != "DISABLED " {
		t.Fatalf("disable after an hour: %v, %s", err, ttlStatus(t, c))
	}
}

// TestExpiredItemsAreDeleted moves the injected clock and sweeps: only
// items whose ttl is a past Number, and not over five years past, go, and
// their index entries go with them.
func TestExpiredItemsAreDeleted(t *testing.T) {
	clock := newClock()
	srv := sortkeytest.NewWithOptions(t, &sortkey.Options{InMemory: true, Now: clock.Now, TTLInterval: -1})
	c := srv.Client()
	createSingleTable(t, c)
	now := clock.Now().Unix()
	for sk, ttl := range map[string]types.AttributeValue{
		"expired": n(fmt.Sprint(now - 10)), "later": n(fmt.Sprint(now + 100)), "string": s(fmt.Sprint(now - 10)),
		"ancient": n(fmt.Sprint(now - 6*365*24*3600)), "none": nil,
	} {
		extra := map[string]types.AttributeValue{"PendingId": s("p-" + sk)}
		if ttl != nil {
			extra["ttl"] = ttl
		}
		if err := put(c, "app", item("P", sk, extra)); err != nil {
			t.Fatal(err)
		}
	}
	if err := setTTL(c, true); err != nil {
		t.Fatal(err)
	}
	if len(query(t, c, "", "PK = :p AND SK = :s", map[string]types.AttributeValue{":p": s("P"), ":s": s("expired")})) != 1 {
		t.Fatal("an expired item must stay readable until it is swept")
	}
	sweep := func() int {
		n, err := srv.DB.SweepExpired()
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	if n := sweep(); n != 1 {
		t.Fatalf("first sweep deleted %d items, want 1", n)
	}
	left := query(t, c, "", "PK = :p", map[string]types.AttributeValue{":p": s("P")})
	if strs(left, "SK") != "ancient,later,none,string" {
		t.Fatalf("after sweep: %s", strs(left, "SK"))
	}
	if got := query(t, c, "Pending", "PendingId = :p", map[string]types.AttributeValue{":p": s("p-expired")}); len(got) != 0 {
		t.Fatal("the expired item's index entry is still there")
	}
	clock.Advance(101 * time.Second)
	if n := sweep(); n != 1 {
		t.Fatalf("after the clock passed 'later', sweep deleted %d, want 1", n)
	}
}

// TestBackgroundSweeper relies on the sweeper alone, with a short interval
// and the real clock; the deadline only bounds a sweeper that never runs.
func TestBackgroundSweeper(t *testing.T) {
	c := sortkeytest.NewWithOptions(t, &sortkey.Options{InMemory: true, TTLInterval: 10 * time.Millisecond}).Client()
	createSingleTable(t, c)
	if err := setTTL(c, true); err != nil {
		t.Fatal(err)
	}
	past := n(fmt.Sprint(time.Now().Unix() - 1))
	for i := range 30 {
		if err := put(c, "app", item("P", fmt.Sprintf("S%02d", i), map[string]types.AttributeValue{"ttl": past})); err != nil {
			t.Fatal(err)
		}
	}
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if len(query(t, c, "", "PK = :p", map[string]types.AttributeValue{":p": s("P")})) == 0 {
			return
		}
	}
	t.Fatal("the background sweeper never deleted the expired items")
}
