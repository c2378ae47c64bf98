package sortkeytest_test

import (
	"context"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/sortkeydb/sortkey/sortkeytest"
)

// In a test, one line gives a fresh in-memory server and a client for it.
func ExampleNew() {
	var t *testing.T // your test's *testing.T
	client := sortkeytest.New(t).Client()
	_, _ = client.ListTables(context.Background(), &dynamodb.ListTablesInput{})
}

func TestNewServesAFreshDatabase(t *testing.T) {
	a, b := sortkeytest.New(t), sortkeytest.New(t)
	if a.URL == b.URL {
		t.Fatal("two servers share a URL")
	}
	out, err := a.Client().ListTables(context.Background(), &dynamodb.ListTablesInput{})
	if err != nil || len(out.TableNames) != 0 {
		t.Fatalf("fresh server lists %v (%v)", out, err)
	}
}
