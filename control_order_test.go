package sortkey_test

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/sortkeydb/sortkey/sortkeytest"
)

// Each test here sends a request with two faults and checks that the one
// DynamoDB reports is the one its order of checks reaches first: the
// request's shape and model constraints (all of them together), then its
// semantic rules, then quotas, then the table, then the table's state.

const (
	tableNameRequired = "The parameter 'TableName' is required but was not present in the request"
	keyNotDefined     = "Invalid KeySchema: Some index key attribute have no definition"
)

func wantRaw(t *testing.T, srv *sortkeytest.Server, op, body, code, msg string) {
	t.Helper()
	if gotCode, gotMsg := rawCall(t, srv, op, body); gotCode != code || gotMsg != msg {
		t.Fatalf("%s %s:\n got %s %q\nwant %s %q", op, body, gotCode, gotMsg, code, msg)
	}
}

// noRetries is a client that does not retry: the SDKs retry a
// LimitExceededException as they retry throttling.
func noRetries(srv *sortkeytest.Server) *dynamodb.Client {
	return srv.Client(func(o *dynamodb.Options) { o.RetryMaxAttempts = 1 })
}

func keys(names ...string) []types.KeySchemaElement {
	ks := []types.KeySchemaElement{{AttributeName: aws.String(names[0]), KeyType: types.KeyTypeHash}}
	if len(names) > 1 {
		ks = append(ks, types.KeySchemaElement{AttributeName: aws.String(names[1]), KeyType: types.KeyTypeRange})
	}
	return ks
}

func defs(names ...string) []types.AttributeDefinition {
	var ds []types.AttributeDefinition
	for _, n := range names {
		ds = append(ds, types.AttributeDefinition{AttributeName: aws.String(n), AttributeType: types.ScalarAttributeTypeS})
	}
	return ds
}

func capacity(r, w int64) *types.ProvisionedThroughput {
	return &types.ProvisionedThroughput{ReadCapacityUnits: aws.Int64(r), WriteCapacityUnits: aws.Int64(w)}
}

// TestCreateTableWithoutTableNameIsRefusedBeforeModelChecks: the fixed
// required-parameter sentence, not the model's null check, and before the
// bad KeyType.
func TestCreateTableWithoutTableNameIsRefusedBeforeModelChecks(t *testing.T) {
	srv := sortkeytest.New(t)
	wantRaw(t, srv, "CreateTable", `{"KeySchema":[{"AttributeName":"pk","KeyType":"SORT"}],
		"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],"ProvisionedThroughput":{"ReadCapacityUnits":5,"WriteCapacityUnits":5}}`,
		"ValidationException", tableNameRequired)
}

// TestCreateTableModelErrorsComeTogetherBeforeKeySchemaRules: both model
// violations are listed; the duplicated key attribute is not reached.
func TestCreateTableModelErrorsComeTogetherBeforeKeySchemaRules(t *testing.T) {
	c := sortkeytest.New(t).Client()
	_, err := c.CreateTable(ctx, &dynamodb.CreateTableInput{TableName: aws.String("ab"), BillingMode: "FREE",
		KeySchema: keys("pk", "pk"), AttributeDefinitions: defs("pk")})
	wantAPIError(t, err, "ValidationException", "2 validation errors detected: "+
		"Value 'ab' at 'tableName' failed to satisfy constraint: Member must have length greater than or equal to 3; "+
		"Value 'FREE' at 'billingMode' failed to satisfy constraint: Member must satisfy enum value set: [PROVISIONED, PAY_PER_REQUEST]")
}

// TestCreateTableDuplicatedKeyAttribute: a key schema naming one attribute
// as both HASH and RANGE is answered as DynamoDB answers it (fact 9 for the
// table's, facts 19.2 for an index's), before the missing
// ProvisionedThroughput of a provisioned table.
func TestCreateTableDuplicatedKeyAttribute(t *testing.T) {
	c := sortkeytest.New(t).Client()
	_, err := c.CreateTable(ctx, &dynamodb.CreateTableInput{TableName: aws.String("tbl"), KeySchema: keys("pk", "pk"), AttributeDefinitions: defs("pk")})
	wantAPIError(t, err, "ValidationException", keyNotDefined)
	_, err = c.CreateTable(ctx, &dynamodb.CreateTableInput{TableName: aws.String("tbl"), KeySchema: keys("pk"), AttributeDefinitions: defs("pk", "g"),
		ProvisionedThroughput: capacity(1, 1), GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{{IndexName: aws.String("gsi"),
			KeySchema: keys("g", "g"), Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll}}}})
	// facts 19.2: an index key schema naming an attribute twice is "same name".
	wantAPIError(t, err, "ValidationException", "The KeySchema contains multiple key attributes with the same name")
}

// TestCreateTableAttributeDefinitionsBeforeIndexes: an undefined index key
// is reported before the index's Projection without a ProjectionType.
func TestCreateTableAttributeDefinitionsBeforeIndexes(t *testing.T) {
	c := sortkeytest.New(t).Client()
	_, err := c.CreateTable(ctx, &dynamodb.CreateTableInput{TableName: aws.String("tbl"), KeySchema: keys("pk"), AttributeDefinitions: defs("pk"),
		BillingMode: types.BillingModePayPerRequest, GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{{IndexName: aws.String("gsi"),
			KeySchema: keys("g"), Projection: &types.Projection{}}}})
	wantAPIError(t, err, "ValidationException", "One or more parameter values were invalid: Some index key attributes are not defined in AttributeDefinitions. Keys: [g, pk], AttributeDefinitions: [pk]")
}

// TestCreateTableProjectionWithoutProjectionType: refused as a semantic
// rule (the model lets ProjectionType out), before the throughput quota.
func TestCreateTableProjectionWithoutProjectionType(t *testing.T) {
	c := noRetries(sortkeytest.New(t))
	_, err := c.CreateTable(ctx, &dynamodb.CreateTableInput{TableName: aws.String("tbl"), KeySchema: keys("pk"), AttributeDefinitions: defs("pk", "g"),
		ProvisionedThroughput: capacity(40001, 1), GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{{IndexName: aws.String("gsi"),
			KeySchema: keys("g"), Projection: &types.Projection{}, ProvisionedThroughput: capacity(1, 1)}}})
	wantAPIError(t, err, "ValidationException", "One or more parameter values were invalid: Unknown ProjectionType: null")
}

// TestCreateTableThroughputAbovePerTableQuota: a table or GSI may have at
// most 40,000 read and 40,000 write capacity units, the quota DescribeLimits
// reports; the quota is judged before the table's name is looked up.
func TestCreateTableThroughputAbovePerTableQuota(t *testing.T) {
	c := noRetries(sortkeytest.New(t))
	create := func(table, index *types.ProvisionedThroughput) error {
		_, err := c.CreateTable(ctx, &dynamodb.CreateTableInput{TableName: aws.String("tbl"), KeySchema: keys("pk"), AttributeDefinitions: defs("pk", "g"),
			ProvisionedThroughput: table, GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{{IndexName: aws.String("gsi"),
				KeySchema: keys("g"), Projection: &types.Projection{ProjectionType: types.ProjectionTypeKeysOnly}, ProvisionedThroughput: index}}})
		return err
	}
	wantAPIError(t, create(capacity(40001, 1), capacity(1, 1)), "LimitExceededException",
		"Subscriber limit exceeded: Requested ReadCapacityUnits 40001 exceeds the per-table maximum of 40000")
	wantAPIError(t, create(capacity(1, 1), capacity(1, 40001)), "LimitExceededException",
		"Subscriber limit exceeded: Requested WriteCapacityUnits 40001 for index: gsi exceeds the per-table maximum of 40000")
	if err := create(capacity(40000, 40000), capacity(40000, 40000)); err != nil {
		t.Fatalf("the quota itself: %v", err)
	}
	wantAPIError(t, create(capacity(40001, 1), capacity(1, 1)), "LimitExceededException",
		"Subscriber limit exceeded: Requested ReadCapacityUnits 40001 exceeds the per-table maximum of 40000")
}

// TestCreateTableValidatedBeforeExistingTable: a request naming a table
// that exists is judged on its own first.
func TestCreateTableValidatedBeforeExistingTable(t *testing.T) {
	c := sortkeytest.New(t).Client()
	createSimple(t, c, "tbl")
	_, err := c.CreateTable(ctx, &dynamodb.CreateTableInput{TableName: aws.String("tbl"), KeySchema: keys("pk", "pk"), AttributeDefinitions: defs("pk"),
		BillingMode: types.BillingModePayPerRequest})
	wantAPIError(t, err, "ValidationException", keyNotDefined)
}

// TestUpdateTableWithoutTableNameIsRefusedBeforeModelChecks: as for
// CreateTable, before the bad BillingMode.
func TestUpdateTableWithoutTableNameIsRefusedBeforeModelChecks(t *testing.T) {
	srv := sortkeytest.New(t)
	wantRaw(t, srv, "UpdateTable", `{"BillingMode":"FREE"}`, "ValidationException", tableNameRequired)
}

// TestUpdateTableModelErrorsBeforeRequestRules: a zero capacity is
// reported, not the index update that names no action.
func TestUpdateTableModelErrorsBeforeRequestRules(t *testing.T) {
	c := sortkeytest.New(t).Client()
	provisionedSimple(t, c, "tbl")
	_, err := c.UpdateTable(ctx, &dynamodb.UpdateTableInput{TableName: aws.String("tbl"), ProvisionedThroughput: capacity(0, 1),
		GlobalSecondaryIndexUpdates: []types.GlobalSecondaryIndexUpdate{{}}})
	wantAPIError(t, err, "ValidationException", "1 validation error detected: Value '0' at 'provisionedThroughput.readCapacityUnits' failed to satisfy constraint: Member must have value greater than or equal to 1")
}

// TestUpdateTableRequestRulesBeforeTableLookup: a request that changes
// nothing is refused as such even when its table does not exist.
func TestUpdateTableRequestRulesBeforeTableLookup(t *testing.T) {
	c := sortkeytest.New(t).Client()
	_, err := c.UpdateTable(ctx, &dynamodb.UpdateTableInput{TableName: aws.String("nope")})
	wantAPIError(t, err, "ValidationException", "At least one of ProvisionedThroughput, BillingMode, UpdateStreamEnabled, GlobalSecondaryIndexUpdates or SSESpecification or ReplicaUpdates is required")
}

// TestUpdateTableThroughputAbovePerTableQuota: the quota applies to the
// table's and to each index's new throughput, before the table lookup.
func TestUpdateTableThroughputAbovePerTableQuota(t *testing.T) {
	c := noRetries(sortkeytest.New(t))
	_, err := c.UpdateTable(ctx, &dynamodb.UpdateTableInput{TableName: aws.String("nope"), ProvisionedThroughput: capacity(1, 40001)})
	wantAPIError(t, err, "LimitExceededException", "Subscriber limit exceeded: Requested WriteCapacityUnits 40001 exceeds the per-table maximum of 40000")
	createProvisionedWithGSI(t, c, "tbl")
	_, err = c.UpdateTable(ctx, &dynamodb.UpdateTableInput{TableName: aws.String("tbl"), GlobalSecondaryIndexUpdates: []types.GlobalSecondaryIndexUpdate{
		{Update: &types.UpdateGlobalSecondaryIndexAction{IndexName: aws.String("gsi1"), ProvisionedThroughput: capacity(50000, 1)}}}})
	wantAPIError(t, err, "LimitExceededException", "Subscriber limit exceeded: Requested ReadCapacityUnits 50000 for index: gsi1 exceeds the per-table maximum of 40000")
}

// TestUpdateTableStateBeforeStateRules: a table being updated refuses the
// request before the request is judged against the table (here, asking
// for the throughput it already has).
func TestUpdateTableStateBeforeStateRules(t *testing.T) {
	c, clock := delayed(t)
	provisionedSimple(t, c, "tbl")
	clock.Advance(transientDelay)
	if _, err := c.UpdateTable(ctx, &dynamodb.UpdateTableInput{TableName: aws.String("tbl"), ProvisionedThroughput: capacity(6, 6)}); err != nil {
		t.Fatal(err)
	}
	_, err := c.UpdateTable(ctx, &dynamodb.UpdateTableInput{TableName: aws.String("tbl"), ProvisionedThroughput: capacity(6, 6)})
	wantAPIError(t, err, "ResourceInUseException", "Attempt to change a resource which is still in use: Table is being updated: tbl")
}

// TestUpdateTimeToLiveWithoutTableNameIsRefusedBeforeModelChecks: as for
// CreateTable, before the empty attribute name.
func TestUpdateTimeToLiveWithoutTableNameIsRefusedBeforeModelChecks(t *testing.T) {
	srv := sortkeytest.New(t)
	wantRaw(t, srv, "UpdateTimeToLive", `{"TimeToLiveSpecification":{"AttributeName":"","Enabled":true}}`, "ValidationException", tableNameRequired)
}

// TestUpdateTimeToLiveModelErrorsBeforeTableLookup: the empty attribute
// name is reported, not the missing table.
func TestUpdateTimeToLiveModelErrorsBeforeTableLookup(t *testing.T) {
	c := sortkeytest.New(t).Client()
	_, err := c.UpdateTimeToLive(ctx, &dynamodb.UpdateTimeToLiveInput{TableName: aws.String("nope"),
		TimeToLiveSpecification: &types.TimeToLiveSpecification{AttributeName: aws.String(""), Enabled: aws.Bool(true)}})
	wantAPIError(t, err, "ValidationException", "1 validation error detected: Value '' at 'timeToLiveSpecification.attributeName' failed to satisfy constraint: Member must have length greater than or equal to 1")
}

// TestUpdateTimeToLiveTableStateBeforeTTLRules: a table being created
// refuses the change before TTL's own rules (disabling a TTL that is not
// enabled) are applied.
func TestUpdateTimeToLiveTableStateBeforeTTLRules(t *testing.T) {
	c, _ := delayed(t)
	createSimple(t, c, "tbl")
	_, err := c.UpdateTimeToLive(ctx, &dynamodb.UpdateTimeToLiveInput{TableName: aws.String("tbl"),
		TimeToLiveSpecification: &types.TimeToLiveSpecification{AttributeName: aws.String("exp"), Enabled: aws.Bool(false)}})
	wantAPIError(t, err, "ResourceInUseException", "Attempt to change a resource which is still in use: Table is being created: tbl")
}
