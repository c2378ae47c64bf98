package conformance_test

import (
	"slices"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/sortkeydb/sortkey"
)

func tableStatus(t *testing.T, c *dynamodb.Client, name string) *types.TableDescription {
	t.Helper()
	out, err := c.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(name)})
	if err != nil {
		t.Fatalf("DescribeTable %s: %v", name, err)
	}
	return out.Table
}

func wantTableStatus(t *testing.T, c *dynamodb.Client, name string, want types.TableStatus) {
	t.Helper()
	if got := tableStatus(t, c, name).TableStatus; got != want {
		t.Fatalf("table %s is %s, want %s", name, got, want)
	}
}

// TestRestartFinishesTransientStates: nothing transient is stored, so a
// table being created is ACTIVE after a restart and one being deleted is
// gone, however far the clock has moved.
func TestRestartFinishesTransientStates(t *testing.T) {
	dir, clock := t.TempDir(), newClock()
	opts := &sortkey.Options{Now: clock.Now, TransientDelay: time.Hour}
	c, stop := serveDirWith(t, dir, opts)
	createSimple(t, c, "creating")
	createSimple(t, c, "deleting")
	clock.Advance(time.Hour)
	if _, err := c.DeleteTable(ctx, &dynamodb.DeleteTableInput{TableName: aws.String("deleting")}); err != nil {
		t.Fatal(err)
	}
	createSimple(t, c, "creating2")
	stop()
	c, stop = serveDirWith(t, dir, opts)
	defer stop()
	wantTableStatus(t, c, "creating2", types.TableStatusActive)
	if names := listTables(t, c); !slices.Equal(names, []string{"creating", "creating2"}) {
		t.Fatalf("tables after restart %v", names)
	}
	if err := put(c, "creating2", pk("a")); err != nil {
		t.Fatal(err)
	}
}

func listTables(t *testing.T, c *dynamodb.Client) []string {
	t.Helper()
	out, err := c.ListTables(ctx, &dynamodb.ListTablesInput{})
	if err != nil {
		t.Fatal(err)
	}
	return out.TableNames
}
