package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// bigItems and bigItemBytes make a BatchGetItem answer of 12 MB: well past
// what the kernel's socket buffers hold (4 MiB of send buffer at most, here
// and on most Linux systems) for a client that reads nothing.
const (
	bigItems     = 40
	bigItemBytes = 300 << 10
)

// A client that asks for a large answer and stops reading has its
// connection closed after --write-timeout, on both HTTP paths: the
// handler writing to it returns, so SIGTERM finds no request in flight
// although --drain-timeout would wait ten minutes, and the client gets
// only part of the answer.
func TestStuckReaderIsCutOff(t *testing.T) {
	for _, fast := range []string{"true", "false"} {
		t.Run("fast-http="+fast, func(t *testing.T) {
			ctx := testContext(t)
			c := startServe(ctx, t, "--in-memory", "--write-timeout", "3s", "--drain-timeout", "10m", "--fast-http="+fast)
			putBigItems(ctx, t, c.client)
			resp := askBigAnswer(t, c)
			sigterm(t, c)
			awaitExit(t, c, "drained: every request in flight finished")
			if resp == nil {
				return // cut off before its head: a loaded machine took the whole timeout to answer
			}
			n, err := io.Copy(io.Discard, resp.Body)
			if err == nil || n >= resp.ContentLength {
				t.Fatalf("read %d bytes of %d, %v: the answer was not cut off", n, resp.ContentLength, err)
			}
			t.Logf("a client not reading a %d-byte answer got %d bytes, then %v", resp.ContentLength, n, err)
		})
	}
}

func putBigItems(ctx context.Context, t *testing.T, c *dynamodb.Client) {
	t.Helper()
	createTable(ctx, t, c, "big")
	pad := strings.Repeat("x", bigItemBytes)
	for i := range bigItems {
		item := map[string]types.AttributeValue{"pk": str(fmt.Sprint(i)), "pad": str(pad)}
		if _, err := c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("big"), Item: item}); err != nil {
			t.Fatal(err)
		}
	}
}

// askBigAnswer sends a BatchGetItem of every big item on a new connection
// and reads the head of its answer only, which shows the handler is
// writing the body. The timeout counts the handler's own work too, so on
// a slow store or a loaded machine the connection may close before the
// head: nil then, which is a cut-off as well.
func askBigAnswer(t *testing.T, c *child) *http.Response {
	t.Helper()
	body := batchGetBigItems()
	conn := dial(t, c)
	fmt.Fprintf(conn, "POST / HTTP/1.1\r\nHost: sortkey\r\nContent-Type: application/x-amz-json-1.0\r\n"+
		"X-Amz-Target: DynamoDB_20120810.BatchGetItem\r\nContent-Length: %d\r\n\r\n%s", len(body), body)
	_ = conn.SetReadDeadline(time.Now().Add(connBound)) // only so that a server that never answers fails
	resp, err := http.ReadResponse(bufio.NewReaderSize(conn, 1<<10), nil)
	if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
		t.Logf("the connection closed before the answer's head: %v", err)
		return nil
	}
	if err != nil || resp.StatusCode != 200 || resp.ContentLength < bigItems*bigItemBytes {
		t.Fatalf("BatchGetItem: %v, %v", resp, err)
	}
	return resp
}

func batchGetBigItems() string {
	keys := make([]string, bigItems)
	for i := range keys {
		keys[i] = fmt.Sprintf(`{"pk":{"S":"%d"}}`, i)
	}
	return `{"RequestItems":{"big":{"Keys":[` + strings.Join(keys, ",") + `]}}}`
}
