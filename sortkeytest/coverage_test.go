package sortkeytest_test

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/sortkeydb/sortkey"
	"github.com/sortkeydb/sortkey/sortkeytest"
)

// fakeTB is a test whose failures and cleanups are kept, to observe what
// RequireCoverage does to a test without failing this one.
type fakeTB struct {
	testing.TB
	errors   []string
	cleanups []func()
}

func (f *fakeTB) Helper()           {}
func (f *fakeTB) Cleanup(fn func()) { f.cleanups = append(f.cleanups, fn) }
func (f *fakeTB) Errorf(format string, args ...any) {
	f.errors = append(f.errors, fmt.Sprintf(format, args...))
}
func (f *fakeTB) Fatal(args ...any) { f.errors = append(f.errors, fmt.Sprint(args...)) }

// end runs the fake test's cleanups, last registered first, as testing
// does.
func (f *fakeTB) end() {
	for i := len(f.cleanups) - 1; i >= 0; i-- {
		f.cleanups[i]()
	}
}

func marketDoc(t *testing.T) []byte {
	t.Helper()
	doc, err := os.ReadFile("../internal/design/testdata/market.yaml")
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

func createMarket(t *testing.T, c *dynamodb.Client) {
	t.Helper()
	_, err := c.CreateTable(context.Background(), &dynamodb.CreateTableInput{TableName: aws.String("Market"), BillingMode: types.BillingModePayPerRequest,
		KeySchema: []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash}, {AttributeName: aws.String("sk"), KeyType: types.KeyTypeRange}},
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS},
			{AttributeName: aws.String("sk"), AttributeType: types.ScalarAttributeTypeS}}})
	if err != nil {
		t.Fatal(err)
	}
}

func getUser(t *testing.T, c *dynamodb.Client) {
	t.Helper()
	_, err := c.GetItem(context.Background(), &dynamodb.GetItemInput{TableName: aws.String("Market"),
		Key: map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: "U#1"}, "sk": &types.AttributeValueMemberS{Value: "U#1"}}})
	if err != nil {
		t.Fatal(err)
	}
}

func TestRequireCoverageFailsATestThatMissesPatterns(t *testing.T) {
	fake := &fakeTB{TB: t}
	srv := sortkeytest.NewWithOptions(fake, &sortkey.Options{Design: marketDoc(t)})
	srv.RequireCoverage(fake)
	createMarket(t, srv.Client())
	getUser(t, srv.Client())
	fake.end()
	if len(fake.errors) != 1 || !strings.Contains(fake.errors[0], "never exercised: 2 Get the list of last N orders for user") ||
		strings.Contains(fake.errors[0], "1 Get user profile") {
		t.Errorf("the test's failures: %q", fake.errors)
	}
}

func TestRequireCoverageNeedsADesign(t *testing.T) {
	fake := &fakeTB{TB: t}
	srv := sortkeytest.New(fake)
	srv.RequireCoverage(fake)
	fake.end()
	if len(fake.errors) != 1 {
		t.Errorf("the test's failures: %q", fake.errors)
	}
}

// A package's tests share one Coverage over many servers; TestMain
// reports it once.
func TestSharedCoverageAddsUpServers(t *testing.T) {
	cov, err := sortkeytest.NewCoverage(marketDoc(t))
	if err != nil {
		t.Fatal(err)
	}
	for range 2 {
		srv := sortkeytest.NewWithOptions(t, &sortkey.Options{Coverage: cov})
		createMarket(t, srv.Client())
		getUser(t, srv.Client())
	}
	var out strings.Builder
	err = sortkeytest.ReportCoverage(&out, cov)
	if !strings.Contains(out.String(), "| 1 | Get user profile | GetItem | 2 |") {
		t.Errorf("report:\n%s", out.String())
	}
	if err == nil || !strings.Contains(err.Error(), "4b The order's items") {
		t.Errorf("ReportCoverage = %v, want the patterns never exercised", err)
	}
}
