// Package bench is sortkey's load generator: it drives any DynamoDB
// endpoint with a workload of prebuilt request bodies over raw HTTP (so the
// client is not what is measured), or with a parallel scan whose pages
// follow each other, and reports throughput, latency percentiles and
// errors per operation. It also preloads the table as it goes, so a
// table of millions of items costs the client no memory, and reports the
// load rate and the server's disk use against the raw data.
package bench
