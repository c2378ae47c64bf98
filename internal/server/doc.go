// Package server is sortkey's HTTP front: it reads DynamoDB's JSON 1.0
// protocol (POST, Content-Type application/x-amz-json-1.0 or
// application/json, X-Amz-Target: DynamoDB_20120810.<Operation>), undoes a
// gzip or deflate Content-Encoding, limits the body, hands the decoded
// request to the engine, and writes every response and every error itself,
// with x-amzn-RequestId, X-Amz-Crc32 and Server, gzip- or
// deflate-compressed when large and accepted. It also answers what
// DynamoDB's endpoint answers besides the API: the GET / health check,
// browsers' CORS preflights, a 400 for a request line or headers over 16
// KB, and a 404 page.
package server
