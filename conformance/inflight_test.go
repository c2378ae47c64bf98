package conformance_test

import (
	"bufio"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/sortkeydb/sortkey"
)

// Close waits for a request still inside the Handler: a PutItem whose body
// is half sent when Close is called is answered 200 once the rest comes,
// and its item is there when the database opens again, rather than cut
// off by the storage closing under it.
func TestCloseWaitsForRequestInFlight(t *testing.T) {
	dir := t.TempDir()
	db, err := sortkey.Open(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(db.Handler())
	t.Cleanup(hs.Close) // after halfSentPut's connection closes: it waits for the request
	createSimple(t, clientOf(hs.URL), "inflight")
	conn, br, rest := halfSentPut(t, hs.Listener.Addr(), "inflight", "late")
	closed := make(chan error, 1)
	go func() { closed <- db.Close() }()
	select {
	case err := <-closed:
		t.Fatalf("Close returned (%v) with a request in flight", err)
	case <-time.After(200 * time.Millisecond): // Close is waiting, not done
	}
	fmt.Fprint(conn, rest)
	if resp, err := http.ReadResponse(br, nil); err != nil || resp.StatusCode != 200 {
		t.Fatalf("the PutItem in flight at Close: %v, %v", resp, err)
	}
	select {
	case err := <-closed:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(time.Minute): // only so that a Close that never returns fails
		t.Fatal("Close did not return once the request in flight finished")
	}
	c, stop := serveDir(t, dir)
	defer stop()
	out, err := c.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("inflight"), Key: map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: "late"}}, ConsistentRead: aws.Bool(true)})
	if err != nil || out.Item == nil {
		t.Fatalf("the item of the PutItem in flight at Close: %v, %v", out, err)
	}
}

// halfSentPut starts a PutItem of key on a new connection and returns once
// its handler runs, reading a body half sent: net/http answers 100 Continue
// only when the handler reads the body. rest is the body's other half.
func halfSentPut(t *testing.T, addr net.Addr, table, key string) (conn net.Conn, br *bufio.Reader, rest string) {
	t.Helper()
	conn, err := net.Dial("tcp", addr.String())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	body := `{"TableName":"` + table + `","Item":{"pk":{"S":"` + key + `"}}}`
	fmt.Fprintf(conn, "POST / HTTP/1.1\r\nHost: sortkey\r\nContent-Type: application/x-amz-json-1.0\r\n"+
		"X-Amz-Target: DynamoDB_20120810.PutItem\r\nContent-Length: %d\r\nExpect: 100-continue\r\n\r\n", len(body))
	br = awaitContinue(t, conn)
	fmt.Fprint(conn, body[:len(body)/2])
	return conn, br, body[len(body)/2:]
}

// awaitContinue reads the 100 Continue answer on conn.
func awaitContinue(t *testing.T, conn net.Conn) *bufio.Reader {
	t.Helper()
	_ = conn.SetReadDeadline(time.Now().Add(time.Minute)) // only so that a server that never answers fails
	br := bufio.NewReader(conn)
	if line, err := br.ReadString('\n'); err != nil || !strings.HasPrefix(line, "HTTP/1.1 100") {
		t.Fatalf("want 100 Continue, got %q, %v", line, err)
	}
	if _, err := br.ReadString('\n'); err != nil { // the blank line after it
		t.Fatal(err)
	}
	return br
}
