// streamtail prints a DynamoDB table's changes as they happen,
// from its stream, with the AWS SDK for Go v2. It works against sortkey
// and against AWS alike:
//
//	go run ./cmd/sortkey serve --in-memory &
//	go run ./examples/streamtail --endpoint http://127.0.0.1:8000 --table Music

package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodbstreams"
	"github.com/aws/aws-sdk-go-v2/service/dynamodbstreams/types"
)

func main() {
	endpoint := flag.String("endpoint", "", "endpoint URL, e.g. http://127.0.0.1:8000 for sortkey serve (empty: AWS)")
	table := flag.String("table", "", "table whose stream to tail")
	flag.Parse()
	if *table == "" {
		fmt.Fprintln(os.Stderr, "streamtail: --table is required")
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, *endpoint, *table); err != nil {
		fmt.Fprintln(os.Stderr, "streamtail:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, endpoint, table string) error {
	cfg, err := config.LoadDefaultConfig(ctx)
	if err != nil {
		return err
	}
	if endpoint != "" {
		cfg.BaseEndpoint = aws.String(endpoint)
		if cfg.Region == "" {
			cfg.Region = "us-east-1"
		}
		cfg.Credentials = credentials.NewStaticCredentialsProvider("local", "local", "")
	}
	arn, err := streamOf(ctx, dynamodb.NewFromConfig(cfg), table)
	if err != nil {
		return err
	}
	enc := newPrinter(os.Stdout)
	return Tail(ctx, dynamodbstreams.NewFromConfig(cfg), arn, func(r types.Record) {
		_ = printRecord(enc, r)
	})
}
