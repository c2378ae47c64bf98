// Package sortkeytest starts an in-memory sortkey server for a Go test, in
// one line, and gives the test an AWS SDK client for it:
//
//	srv := sortkeytest.New(t)
//	client := srv.Client() // *dynamodb.Client
//
// Each call gets a fresh, empty database, closed with the test. Client and
// AWSConfig hand requests to the server in process (the SDK still builds,
// signs and parses real HTTP messages, but no socket is used), which makes
// a request about 2.5 times cheaper; the server also listens on
// 127.0.0.1 (URL, NetworkAWSConfig) for tools and other languages.
//
// With access control on (sortkey.Options.Auth, an auth file's JSON), a
// client acts as one of the file's principals in one line:
//
//	srv := sortkeytest.NewWithOptions(t, &sortkey.Options{Auth: authFile})
//	alice := srv.ClientAs(t, "arn:aws:iam::123456789012:user/alice")
//
// # Time
//
// On a virtual clock (sortkey.Options.Clock), a test moves time instead of
// waiting for it; when Advance returns, expired items are deleted and
// stream records past 24 hours trimmed (docs/TESTING-FAILURES.md, "Time"):
//
//	srv := sortkeytest.NewWithOptions(t, &sortkey.Options{Clock: sortkey.NewVirtualClock(start)})
//	srv.Advance(25 * time.Hour)
//
// # Regions and global tables
//
// With regions kept apart (sortkey.Options.Regions "separate"), ClientIn
// gives a client of one region; global tables replicate between them after
// the replication lag, by the virtual clock when there is one
// (docs/GLOBAL-TABLES.md):
//
//	srv := sortkeytest.NewWithOptions(t, &sortkey.Options{Regions: sortkey.RegionsSeparate, Clock: clock})
//	east, west := srv.ClientIn("us-east-1"), srv.ClientIn("us-west-2")
//	srv.Advance(sortkey.DefaultReplicationLag) // what was written is now in every replica
//
// # Fault rules
//
// Fault rules (docs/TESTING-FAILURES.md) make the server throttle, fail,
// cancel transactions, return partial batches, slow down or drop the
// connection on demand, the same way on every run, so that a test reaches
// the application's retry paths:
//
//	srv := sortkeytest.NewWithOptions(t, &sortkey.Options{Faults: rules})
//	srv.SetFaults(t, `{"rules": [{"operation": "PutItem", "error": "ThrottlingException", "count": 1}]}`)
//
// # Capacity
//
// With capacity enforced (sortkey.Options.EnforceCapacity), tables throttle
// at their provisioned or maximum throughput, refilled by Options.Now, so
// a test drives its retry and UnprocessedItems loops by moving its clock;
// turn the SDK's own retries off to see every throttle
// (docs/TESTING-FAILURES.md, "Capacity"):
//
//	srv := sortkeytest.NewWithOptions(t, &sortkey.Options{EnforceCapacity: true, Now: clock.Now})
//	client := srv.Client(func(o *dynamodb.Options) { o.Retryer = aws.NopRetryer{} })
//
// # Design coverage
//
// With a design file (sortkey.Options.Design, its YAML or JSON bytes;
// docs/DESIGN-FILES.md, "Coverage in CI"), every request the test makes is counted under
// the access or write pattern it serves. The report is logged, as
// Markdown, when the test ends (go test -v, or on failure), and
// RequireCoverage fails the test unless every pattern was exercised and
// no request fit none:
//
//	srv := sortkeytest.NewWithOptions(t, &sortkey.Options{Design: designDoc})
//	srv.RequireCoverage(t)
//
// A package whose tests each start their own server, or share one,
// counts them all in one Coverage and checks it once, in TestMain:
//
//	var cov *sortkey.Coverage // each test: NewWithOptions(t, &sortkey.Options{Coverage: cov})
//
//	func TestMain(m *testing.M) {
//		var err error
//		if cov, err = sortkeytest.NewCoverage(designDoc); err != nil {
//			log.Fatal(err)
//		}
//		code := m.Run()
//		if err := sortkeytest.ReportCoverage(os.Stdout, cov); err != nil && code == 0 {
//			fmt.Println(err)
//			code = 1
//		}
//		os.Exit(code)
//	}
package sortkeytest
