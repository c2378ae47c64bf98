package conformance_test

import (
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/aws-sdk-go-v2/service/dynamodbstreams"

	"github.com/sortkeydb/sortkey"
	"github.com/sortkeydb/sortkey/sortkeytest"
)

const (
	policyNotFound = "PolicyNotFoundException"
	invalidParams  = "One or more parameter values were invalid: "
	defaultArn     = "arn:aws:dynamodb:us-east-1:000000000000:table/"
)

// policyDoc is a resource-based policy document granting GetItem on arn.
func policyDoc(arn string) string {
	return `{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Principal":{"AWS":"arn:aws:iam::111122223333:user/John"},` +
		`"Action":"dynamodb:GetItem","Resource":"` + arn + `"}]}`
}

// networkClients serves a fresh in-memory database over HTTP and returns
// its DynamoDB and Streams clients.
func networkClients(t *testing.T, opts *sortkey.Options) (*sortkeytest.Server, *dynamodb.Client, *dynamodbstreams.Client) {
	t.Helper()
	srv := sortkeytest.NewWithOptions(t, opts)
	return srv, dynamodb.NewFromConfig(srv.NetworkAWSConfig()), dynamodbstreams.NewFromConfig(srv.NetworkAWSConfig())
}

func putPolicy(t *testing.T, c *dynamodb.Client, arn, doc string, expected *string) string {
	t.Helper()
	out, err := c.PutResourcePolicy(ctx, &dynamodb.PutResourcePolicyInput{ResourceArn: &arn, Policy: &doc, ExpectedRevisionId: expected})
	if err != nil {
		t.Fatalf("PutResourcePolicy %s: %v", arn, err)
	}
	if aws.ToString(out.RevisionId) == "" {
		t.Fatalf("PutResourcePolicy %s: no RevisionId", arn)
	}
	return *out.RevisionId
}

// wantPolicy checks that GetResourcePolicy answers doc at revision rev.
func wantPolicy(t *testing.T, c *dynamodb.Client, arn, doc, rev string) {
	t.Helper()
	out, err := c.GetResourcePolicy(ctx, &dynamodb.GetResourcePolicyInput{ResourceArn: &arn})
	if err != nil || aws.ToString(out.Policy) != doc || aws.ToString(out.RevisionId) != rev {
		t.Fatalf("GetResourcePolicy %s: %v %+v\nwant %q at %s", arn, err, out, doc, rev)
	}
}

func wantNoPolicy(t *testing.T, c *dynamodb.Client, arn string) {
	t.Helper()
	_, err := c.GetResourcePolicy(ctx, &dynamodb.GetResourcePolicyInput{ResourceArn: &arn})
	wantAPIError(t, err, policyNotFound, "Resource-based policy not found for the provided ResourceArn: "+arn)
}

func TestResourcePolicyRoundTrip(t *testing.T) {
	_, c, _ := networkClients(t, &sortkey.Options{})
	createSimple(t, c, "tbl")
	arn := defaultArn + "tbl"
	wantNoPolicy(t, c, arn)

	doc := policyDoc(arn)
	rev := putPolicy(t, c, arn, doc, nil)
	wantPolicy(t, c, arn, doc, rev)
	if again := putPolicy(t, c, arn, doc, nil); again != rev {
		t.Fatalf("the same document again got revision %s, want %s", again, rev)
	}
	spaced := strings.ReplaceAll(doc, ",", ", ") // any change, whitespace too, is a new revision
	rev2 := putPolicy(t, c, arn, spaced, nil)
	if rev2 == rev {
		t.Fatal("a new document kept its revision")
	}
	wantPolicy(t, c, arn, spaced, rev2)

	del, err := c.DeleteResourcePolicy(ctx, &dynamodb.DeleteResourcePolicyInput{ResourceArn: &arn})
	if err != nil || aws.ToString(del.RevisionId) != rev2 {
		t.Fatalf("DeleteResourcePolicy: %v %+v, want revision %s", err, del, rev2)
	}
	wantNoPolicy(t, c, arn)
	del, err = c.DeleteResourcePolicy(ctx, &dynamodb.DeleteResourcePolicyInput{ResourceArn: &arn})
	if err != nil || del.RevisionId != nil {
		t.Fatalf("deleting no policy: %v %+v, want success without a revision", err, del)
	}
}

func TestResourcePolicyExpectedRevision(t *testing.T) {
	_, c, _ := networkClients(t, &sortkey.Options{})
	createSimple(t, c, "tbl")
	arn := defaultArn + "tbl"
	doc, doc2 := policyDoc(arn), policyDoc(arn+"/index/*")

	_, err := c.PutResourcePolicy(ctx, &dynamodb.PutResourcePolicyInput{ResourceArn: &arn, Policy: &doc, ExpectedRevisionId: aws.String("1")})
	wantAPIError(t, err, policyNotFound, "Resource-based policy not found for the provided ResourceArn: "+arn)
	rev := putPolicy(t, c, arn, doc, aws.String("NO_POLICY"))
	// facts 37.1-37.3: a revision mismatch names the table and both revisions.
	for _, tc := range []struct{ expected, want string }{
		{"NO_POLICY", "Requested policy update expecting none to be present for table tbl, but a policy exists with revision id " + rev + "."},
		{"stale", "Requested update for policy with revision id stale, but the policy associated to target table tbl has revision id " + rev + "."},
	} {
		_, err = c.PutResourcePolicy(ctx, &dynamodb.PutResourcePolicyInput{ResourceArn: &arn, Policy: &doc2, ExpectedRevisionId: aws.String(tc.expected)})
		wantAPIError(t, err, policyNotFound, "Resource-based policy not found for the provided ResourceArn: "+tc.want)
	}
	wantPolicy(t, c, arn, doc, rev) // refusals changed nothing

	rev2 := putPolicy(t, c, arn, doc2, &rev)
	for _, expected := range []string{rev, "unknown"} {
		_, err = c.DeleteResourcePolicy(ctx, &dynamodb.DeleteResourcePolicyInput{ResourceArn: &arn, ExpectedRevisionId: &expected})
		wantAPIError(t, err, policyNotFound, "Resource-based policy not found for the provided ResourceArn: Requested update for policy with revision id "+
			expected+", but the policy associated to target table tbl has revision id "+rev2+".")
	}
	wantPolicy(t, c, arn, doc2, rev2)
	if _, err := c.DeleteResourcePolicy(ctx, &dynamodb.DeleteResourcePolicyInput{ResourceArn: &arn, ExpectedRevisionId: &rev2}); err != nil {
		t.Fatal(err)
	}
	_, err = c.DeleteResourcePolicy(ctx, &dynamodb.DeleteResourcePolicyInput{ResourceArn: &arn, ExpectedRevisionId: &rev2})
	wantAPIError(t, err, policyNotFound, "Resource-based policy not found for the provided ResourceArn: "+arn)
}

func TestResourcePolicyDocumentChecks(t *testing.T) {
	_, c, _ := networkClients(t, &sortkey.Options{})
	createSimple(t, c, "tbl")
	arn := defaultArn + "tbl"
	put := func(doc string) error {
		_, err := c.PutResourcePolicy(ctx, &dynamodb.PutResourcePolicyInput{ResourceArn: &arn, Policy: &doc})
		return err
	}
	base := policyDoc(arn)
	atLimit := base[:len(base)-1] + strings.Repeat(" ", 20480-len(base)) + "}" // whitespace counts
	if err := put(atLimit); err != nil {
		t.Fatalf("a document of 20480 bytes: %v", err)
	}
	err := put(atLimit[:len(atLimit)-1] + " }")
	wantAPIError(t, err, validation, invalidParams+"Maximum policy size of 20480 bytes exceeded")
	for _, doc := range []string{"", "{", "[]", "null", `"{}"`, `{"a":1} x`} {
		wantAPIError(t, put(doc), validation, invalidParams+"Invalid policy document: This policy contains invalid Json")
	}
	out, err := c.GetResourcePolicy(ctx, &dynamodb.GetResourcePolicyInput{ResourceArn: &arn})
	if err != nil || len(*out.Policy) != 20480 {
		t.Fatalf("after refusals: %v, want the 20480-byte document kept", err)
	}
}

func TestResourcePolicyArns(t *testing.T) {
	srv, c, _ := networkClients(t, &sortkey.Options{})
	createMusic(t, c, "Music")
	doc := policyDoc("*")
	put := func(arn string) error {
		_, err := c.PutResourcePolicy(ctx, &dynamodb.PutResourcePolicyInput{ResourceArn: &arn, Policy: &doc})
		return err
	}
	index := defaultArn + "Music/index/ByGenre"
	wantAPIError(t, put(index), validation, invalidParams+
		"Invalid resource arn provided, only table or stream is accepted. Provided resource arn: "+index)
	wantAPIError(t, put("arn:aws:s3:::bucket"), validation, invalidParams+"Provided Arn is not a DynamoDB resource arn: arn:aws:s3:::bucket")
	wantAPIError(t, put("Music"), validation, invalidParams+"ARNs must start with 'arn:': Music")
	wantAPIError(t, put("arn:aws:dynamodb:us-east-1:123456789012:table/Music"), validation,
		"This action is only supported by accounts that match the resource owner’s account.")
	wantAPIError(t, put(defaultArn+"Missing"), notFound, "Requested resource not found: Table: Missing not found")
	wantAPIError(t, put("arn:aws:dynamodb:eu-west-1:000000000000:table/Music"), notFound, "Requested resource not found: Table: Music not found")
	stream := defaultArn + "Music/stream/2024-02-12T18:57:26.492"
	wantAPIError(t, put(stream), notFound, "Requested resource not found: Stream: "+stream+" not found")
	_, err := c.GetResourcePolicy(ctx, &dynamodb.GetResourcePolicyInput{ResourceArn: aws.String(index)})
	wantAPIErrorPrefix(t, err, validation, invalidParams+"Invalid resource arn provided")
	_, err = c.DeleteResourcePolicy(ctx, &dynamodb.DeleteResourcePolicyInput{ResourceArn: aws.String(defaultArn + "Missing")})
	wantAPIError(t, err, notFound, "Requested resource not found: Table: Missing not found")

	code, msg := rawCall(t, srv, "PutResourcePolicy", `{"ResourceArn":"`+defaultArn+`Music"}`)
	if code != validation || msg != oneError+"Value null at 'policy' failed to satisfy constraint: Member must not be null" {
		t.Fatalf("no Policy: %s %s", code, msg)
	}
	code, msg = rawCall(t, srv, "DeleteResourcePolicy", `{"ResourceArn":"`+defaultArn+`Music","ExpectedRevisionId":""}`)
	if code != validation || !strings.Contains(msg, "'expectedRevisionId' failed to satisfy constraint: Member must have length greater than or equal to 1") {
		t.Fatalf("empty ExpectedRevisionId: %s %s", code, msg)
	}
}

// streamTable creates tbl with a stream and returns the stream's ARN.
func streamTable(t *testing.T, c *dynamodb.Client) string {
	t.Helper()
	out, err := c.CreateTable(ctx, &dynamodb.CreateTableInput{
		TableName:            aws.String("tbl"),
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS}},
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash}},
		BillingMode:          types.BillingModePayPerRequest,
		StreamSpecification:  &types.StreamSpecification{StreamEnabled: aws.Bool(true), StreamViewType: types.StreamViewTypeKeysOnly},
	})
	if err != nil {
		t.Fatal(err)
	}
	return *out.TableDescription.LatestStreamArn
}

// switchStream turns tbl's stream off or on (a new stream).
func switchStream(t *testing.T, c *dynamodb.Client, on bool) {
	t.Helper()
	spec := &types.StreamSpecification{StreamEnabled: aws.Bool(on)}
	if on {
		spec.StreamViewType = types.StreamViewTypeNewImage
	}
	if _, err := c.UpdateTable(ctx, &dynamodb.UpdateTableInput{TableName: aws.String("tbl"), StreamSpecification: spec}); err != nil {
		t.Fatal(err)
	}
}

// TestStreamResourcePolicy: a stream's policy is its own, stays with the
// stream once disabled (DynamoDB lets it be changed then), and a stream
// enabled anew starts without one.
func TestStreamResourcePolicy(t *testing.T) {
	_, c, sc := networkClients(t, &sortkey.Options{})
	stream := streamTable(t, c)
	doc := policyDoc(stream)
	rev := putPolicy(t, c, stream, doc, nil)
	wantPolicy(t, c, stream, doc, rev)
	wantNoPolicy(t, c, defaultArn+"tbl")

	switchStream(t, c, false)
	wantPolicy(t, c, stream, doc, rev)
	switchStream(t, c, true)
	streams, err := sc.ListStreams(ctx, &dynamodbstreams.ListStreamsInput{TableName: aws.String("tbl")})
	if err != nil || len(streams.Streams) != 2 || *streams.Streams[0].StreamArn != stream {
		t.Fatalf("ListStreams: %v %+v", err, streams)
	}
	wantNoPolicy(t, c, *streams.Streams[1].StreamArn)
	wantPolicy(t, c, stream, doc, rev)
	if _, err := c.DeleteResourcePolicy(ctx, &dynamodb.DeleteResourcePolicyInput{ResourceArn: &stream}); err != nil {
		t.Fatal(err)
	}
	wantNoPolicy(t, c, stream)
}

func TestCreateTableWithResourcePolicy(t *testing.T) {
	_, c, _ := networkClients(t, &sortkey.Options{})
	create := func(name, doc string) error {
		_, err := c.CreateTable(ctx, &dynamodb.CreateTableInput{
			TableName:            aws.String(name),
			AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS}},
			KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash}},
			BillingMode:          types.BillingModePayPerRequest,
			ResourcePolicy:       &doc,
		})
		return err
	}
	doc := policyDoc(defaultArn + "good")
	if err := create("good", doc); err != nil {
		t.Fatal(err)
	}
	out, err := c.GetResourcePolicy(ctx, &dynamodb.GetResourcePolicyInput{ResourceArn: aws.String(defaultArn + "good")})
	if err != nil || *out.Policy != doc || aws.ToString(out.RevisionId) == "" {
		t.Fatalf("policy of a table created with one: %v %+v", err, out)
	}

	wantAPIError(t, create("bad", "not json"), validation, invalidParams+"Invalid policy document: This policy contains invalid Json")
	wantAPIError(t, create("big", "{"+strings.Repeat(" ", 20480)+"}"), validation, invalidParams+"Maximum policy size of 20480 bytes exceeded")
	tables, err := c.ListTables(ctx, &dynamodb.ListTablesInput{})
	if err != nil || len(tables.TableNames) != 1 {
		t.Fatalf("a refused policy created a table: %v %v", err, tables.TableNames)
	}
}

// TestResourcePolicySurvivesReopen: policies are stored with their table,
// on disk, and go when it is deleted.
func TestResourcePolicySurvivesReopen(t *testing.T) {
	dir := t.TempDir()
	c, stop := serveDir(t, dir)
	stream := streamTable(t, c)
	arn := defaultArn + "tbl"
	tableRev := putPolicy(t, c, arn, policyDoc(arn), nil)
	streamRev := putPolicy(t, c, stream, policyDoc(stream), nil)
	stop()

	c, stop = serveDir(t, dir)
	defer stop()
	wantPolicy(t, c, arn, policyDoc(arn), tableRev)
	wantPolicy(t, c, stream, policyDoc(stream), streamRev)
	if _, err := c.DeleteTable(ctx, &dynamodb.DeleteTableInput{TableName: aws.String("tbl")}); err != nil {
		t.Fatal(err)
	}
	_, err := c.GetResourcePolicy(ctx, &dynamodb.GetResourcePolicyInput{ResourceArn: &arn})
	wantAPIError(t, err, notFound, "Requested resource not found: Table: tbl not found")
	createSimple(t, c, "tbl")
	wantNoPolicy(t, c, arn)
}

// TestAccountOption: the account names every ARN, and a database reopened
// under another account names its tables there.
func TestAccountOption(t *testing.T) {
	const acct = "123456789012"
	prefix := "arn:aws:dynamodb:us-east-1:" + acct + ":table/"
	dir := t.TempDir()
	c, stop := serveDirWith(t, dir, &sortkey.Options{Account: acct})
	d := createMusic(t, c, "Music")
	stream := streamTable(t, c)
	if *d.TableArn != prefix+"Music" || *d.GlobalSecondaryIndexes[0].IndexArn != prefix+"Music/index/ByGenre" ||
		*d.LocalSecondaryIndexes[0].IndexArn != prefix+"Music/index/ByYear" || !strings.HasPrefix(stream, prefix+"tbl/stream/") {
		t.Fatalf("ARNs under account %s: %s %s %s %s", acct, *d.TableArn, *d.GlobalSecondaryIndexes[0].IndexArn,
			*d.LocalSecondaryIndexes[0].IndexArn, stream)
	}
	rev := putPolicy(t, c, prefix+"Music", policyDoc(prefix+"Music"), nil)
	_, err := c.GetResourcePolicy(ctx, &dynamodb.GetResourcePolicyInput{ResourceArn: aws.String(defaultArn + "Music")})
	wantAPIError(t, err, validation, "This action is only supported by accounts that match the resource owner’s account.")
	stop()

	c, stop = serveDir(t, dir) // the default account
	defer stop()
	got, err := c.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(defaultArn + "tbl")})
	if err != nil || *got.Table.TableArn != defaultArn+"tbl" || *got.Table.LatestStreamArn != defaultArn+strings.TrimPrefix(stream, prefix) {
		t.Fatalf("reopened under the default account: %v %+v", err, got)
	}
	wantPolicy(t, c, defaultArn+"Music", policyDoc(prefix+"Music"), rev) // the document is kept as written
}

func TestAccountOptionMustBeAnAccountID(t *testing.T) {
	for _, bad := range []string{"12345", "12345678901a", "1234567890123"} {
		if db, err := sortkey.Open("", &sortkey.Options{InMemory: true, Account: bad}); err == nil {
			db.Close()
			t.Errorf("account %q accepted", bad)
		}
	}
	srv := sortkeytest.NewWithOptions(t, &sortkey.Options{Account: "210987654321"})
	if srv.DB.Account() != "210987654321" {
		t.Fatalf("Account() = %s", srv.DB.Account())
	}
}
