package sortkeytest_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

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

// TestInProcessAndNetworkSeeOneDatabase creates a table in process and
// finds it over TCP, and the reverse.
func TestInProcessAndNetworkSeeOneDatabase(t *testing.T) {
	srv := sortkeytest.New(t)
	inProc, network := srv.Client(), dynamodb.NewFromConfig(srv.NetworkAWSConfig())
	for i, pair := range [][2]*dynamodb.Client{{inProc, network}, {network, inProc}} {
		name := fmt.Sprintf("tbl%d", i)
		_, err := pair[0].CreateTable(context.Background(), &dynamodb.CreateTableInput{TableName: aws.String(name),
			BillingMode:          types.BillingModePayPerRequest,
			AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("pk"), AttributeType: "S"}},
			KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash}}})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := pair[1].DescribeTable(context.Background(), &dynamodb.DescribeTableInput{TableName: aws.String(name)}); err != nil {
			t.Fatalf("table %s made on one path is missing on the other: %v", name, err)
		}
	}
	_, err := inProc.DescribeTable(context.Background(), &dynamodb.DescribeTableInput{TableName: aws.String("nope")})
	var nf *types.ResourceNotFoundException
	if !errors.As(err, &nf) {
		t.Fatalf("errors must come back typed in process too: %v", err)
	}
}
