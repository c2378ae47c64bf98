// Package bench is sortkey's load generator: it drives any DynamoDB
// endpoint with a workload of prebuilt request bodies over raw HTTP (so the
// client is not what is measured), and reports throughput, latency
// percentiles and errors per operation.
package bench
