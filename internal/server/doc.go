// Package server is sortkey's HTTP front: it reads DynamoDB's JSON 1.0
// protocol (POST, Content-Type application/x-amz-json-1.0 or
// application/json, X-Amz-Target: DynamoDB_20120810.<Operation>), undoes a
// gzip or deflate Content-Encoding, limits the body, hands the decoded
// request to the engine, and writes every response and every error itself,
// with x-amzn-RequestId and X-Amz-Crc32, gzip-compressed when large and
// accepted. It also answers what DynamoDB's endpoint answers besides the
// API: the GET health check, browsers' CORS preflights, and a 404 page.
package server
