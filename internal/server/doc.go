// Package server is sortkey's HTTP front: it reads DynamoDB's JSON 1.0
// protocol (POST /, X-Amz-Target: DynamoDB_20120810.<Operation>), limits the
// body, hands the decoded request to the engine, and writes every response
// and every error itself, with x-amzn-RequestId and X-Amz-Crc32.
package server
