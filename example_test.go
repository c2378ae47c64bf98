package sortkey_test

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/sortkeydb/sortkey"
)

// Open an in-memory database, serve its Handler, and talk to it with the
// AWS SDK for Go v2 as you would to DynamoDB.
func ExampleOpen() {
	db, err := sortkey.Open("", &sortkey.Options{InMemory: true})
	if err != nil {
		panic(err)
	}
	defer db.Close()
	srv := httptest.NewServer(db.Handler()) // or http.Serve(ln, db.Handler())
	defer srv.Close()

	client := dynamodb.New(dynamodb.Options{
		Region:       "us-east-1",
		Credentials:  credentials.NewStaticCredentialsProvider("any", "any", ""),
		BaseEndpoint: aws.String(srv.URL),
	})
	ctx := context.Background()
	_, err = client.CreateTable(ctx, &dynamodb.CreateTableInput{
		TableName:            aws.String("Notes"),
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("id"), AttributeType: types.ScalarAttributeTypeS}},
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("id"), KeyType: types.KeyTypeHash}},
		BillingMode:          types.BillingModePayPerRequest,
	})
	if err != nil {
		panic(err)
	}
	_, err = client.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("Notes"), Item: map[string]types.AttributeValue{
		"id":   &types.AttributeValueMemberS{Value: "n1"},
		"text": &types.AttributeValueMemberS{Value: "hello"},
	}})
	if err != nil {
		panic(err)
	}
	out, err := client.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("Notes"),
		Key: map[string]types.AttributeValue{"id": &types.AttributeValueMemberS{Value: "n1"}}})
	if err != nil {
		panic(err)
	}
	fmt.Println(out.Item["text"].(*types.AttributeValueMemberS).Value)
	// Output: hello
}

// Serve a database with the same connection limits as `sortkey serve`:
// slow and idle clients are cut off, oversized headers refused.
func ExampleDB_HTTPServer() {
	db, err := sortkey.Open("", &sortkey.Options{InMemory: true})
	if err != nil {
		panic(err)
	}
	defer db.Close()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		panic(err)
	}
	srv := db.HTTPServer()
	go srv.Serve(ln)
	defer srv.Shutdown(context.Background()) // before db.Close: requests in flight finish first

	resp, err := http.Get("http://" + ln.Addr().String() + "/")
	if err != nil {
		panic(err)
	}
	resp.Body.Close()
	fmt.Println(resp.Status, srv.ReadTimeout, srv.IdleTimeout, srv.MaxHeaderBytes)
	// Output: 200 OK 1m0s 2m0s 65536
}
