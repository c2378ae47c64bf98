package sortkeytest

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodbstreams"

	"github.com/sortkeydb/sortkey"
	"github.com/sortkeydb/sortkey/internal/inproc"
)

// Server is a running in-memory sortkey.
type Server struct {
	// URL is the endpoint, e.g. http://127.0.0.1:41234.
	URL string
	// DB is the database behind the server.
	DB *sortkey.DB

	tb testing.TB // the test that started the server, for Advance
}

// New starts a server on 127.0.0.1 with a fresh in-memory database. It is
// shut down and closed when tb ends.
func New(tb testing.TB) *Server {
	tb.Helper()
	return NewWithOptions(tb, &sortkey.Options{})
}

// NewWithOptions is New with options; InMemory is always set.
func NewWithOptions(tb testing.TB, opts *sortkey.Options) *Server {
	tb.Helper()
	o := *opts
	o.InMemory = true
	db, err := sortkey.Open("", &o)
	if err != nil {
		tb.Fatalf("sortkeytest: open: %v", err)
	}
	hs := httptest.NewServer(db.Handler())
	tb.Cleanup(func() {
		hs.Close()
		if err := db.Close(); err != nil {
			tb.Errorf("sortkeytest: close: %v", err)
		}
	})
	logCoverage(tb, db, &o)
	return &Server{URL: hs.URL, DB: db, tb: tb}
}

// AWSConfig is an aws.Config for the server, in the database's region; it
// reads nothing from the environment or ~/.aws, so tests behave the same
// on every machine. Its HTTP client hands requests to the server in
// process, without a socket; clients that cannot take a Go transport use
// URL instead (see NetworkAWSConfig). Its requests are not signed
// (aws.AnonymousCredentials): without access control sortkey checks no
// signature, and signing was a sixth of the CPU of an SDK call in
// process. With access control on, use AWSConfigAs.
func (s *Server) AWSConfig() aws.Config {
	cfg := s.NetworkAWSConfig()
	cfg.HTTPClient = &http.Client{Transport: inproc.Transport{Handler: s.DB.Handler()}}
	cfg.Credentials = aws.AnonymousCredentials{}
	return cfg
}

// NetworkAWSConfig is AWSConfig over the server's TCP listener, for tests
// that want the network path too; its requests are signed with fixed
// dummy credentials, as a client of DynamoDB's would be. Its HTTP client
// is the SDK's default, shielded from a race between the SDK and net/http
// that a server this close loses (see shieldedBodies).
func (s *Server) NetworkAWSConfig() aws.Config {
	return aws.Config{
		HTTPClient:   networkClient(),
		Region:       s.DB.Region(),
		Credentials:  credentials.NewStaticCredentialsProvider("sortkey", "sortkey", ""),
		BaseEndpoint: aws.String(s.URL),
	}
}

// AWSConfigAs is AWSConfig signed with the keys of the auth file's
// principal arn, for servers opened with access control on
// (sortkey.Options.Auth): its clients act as that principal, and what its
// policies deny answers AccessDeniedException. tb fails if the auth file
// names no such principal.
func (s *Server) AWSConfigAs(tb testing.TB, arn string) aws.Config {
	tb.Helper()
	id, secret, token, err := s.DB.Credentials(arn)
	if err != nil {
		tb.Fatalf("sortkeytest: %v", err)
	}
	cfg := s.AWSConfig()
	cfg.Credentials = credentials.NewStaticCredentialsProvider(id, secret, token)
	return cfg
}

// ClientAs is a DynamoDB client acting as the auth file's principal arn
// (see AWSConfigAs).
func (s *Server) ClientAs(tb testing.TB, arn string, optFns ...func(*dynamodb.Options)) *dynamodb.Client {
	tb.Helper()
	return dynamodb.NewFromConfig(s.AWSConfigAs(tb, arn), optFns...)
}

// StreamsClientAs is a DynamoDB Streams client acting as the auth file's
// principal arn (see AWSConfigAs).
func (s *Server) StreamsClientAs(tb testing.TB, arn string, optFns ...func(*dynamodbstreams.Options)) *dynamodbstreams.Client {
	tb.Helper()
	return dynamodbstreams.NewFromConfig(s.AWSConfigAs(tb, arn), optFns...)
}

// Client is a DynamoDB client for the server.
func (s *Server) Client(optFns ...func(*dynamodb.Options)) *dynamodb.Client {
	return dynamodb.NewFromConfig(s.AWSConfig(), optFns...)
}

// StreamsClient is a DynamoDB Streams client for the server, which serves
// the Streams API on the same endpoint.
func (s *Server) StreamsClient(optFns ...func(*dynamodbstreams.Options)) *dynamodbstreams.Client {
	return dynamodbstreams.NewFromConfig(s.AWSConfig(), optFns...)
}

// SetFaults replaces the server's fault rules with rules, a rule file's
// JSON or YAML (docs/TESTING-FAILURES.md); "" removes them. tb fails if
// the rules are refused.
func (s *Server) SetFaults(tb testing.TB, rules string) {
	tb.Helper()
	if err := s.DB.SetFaults([]byte(rules)); err != nil {
		tb.Fatalf("sortkeytest: %v", err)
	}
}

// AwaitHeld waits until a fault rule's hold keeps n transactions in
// flight, each holding its items (docs/TESTING-FAILURES.md, Conflicts);
// tb fails if that does not happen within a minute.
func (s *Server) AwaitHeld(tb testing.TB, n int) {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := s.DB.AwaitHeld(ctx, n); err != nil {
		tb.Fatalf("sortkeytest: %d transactions not held: %v", n, err)
	}
}

// ReleaseHeld lets the transactions hold rules keep in flight run on and
// returns how many there were.
func (s *Server) ReleaseHeld() int { return s.DB.ReleaseHeld() }

// AWSConfigIn is AWSConfig in region: its requests are signed (with dummy
// credentials) for region, so that on a server opened with
// sortkey.Options.Regions "separate" they act in region's tables
// (docs/GLOBAL-TABLES.md).
func (s *Server) AWSConfigIn(region string) aws.Config {
	cfg := s.AWSConfig()
	cfg.Region = region
	cfg.Credentials = credentials.NewStaticCredentialsProvider("sortkey", "sortkey", "")
	return cfg
}

// ClientIn is a DynamoDB client acting in region (see AWSConfigIn).
func (s *Server) ClientIn(region string, optFns ...func(*dynamodb.Options)) *dynamodb.Client {
	return dynamodb.NewFromConfig(s.AWSConfigIn(region), optFns...)
}

// StreamsClientIn is a DynamoDB Streams client acting in region.
func (s *Server) StreamsClientIn(region string, optFns ...func(*dynamodbstreams.Options)) *dynamodbstreams.Client {
	return dynamodbstreams.NewFromConfig(s.AWSConfigIn(region), optFns...)
}
