package protocol

import (
	"fmt"
	"strings"
	"testing"
)

// benchItemJSON mirrors the server benchmarks' ~200-byte item of mixed types.
const benchItemJSON = `{"pk":{"S":"user#42"},"sk":{"N":"42"},"name":{"S":"Ada Lovelace"},` +
	`"email":{"S":"ada@example.com"},"age":{"N":"36"},"tags":{"SS":["math","poetry"]},"active":{"BOOL":true},` +
	`"address":{"M":{"city":{"S":"London"},"zip":{"S":"W1"}}}}`

func batchWriteBody(n int) string {
	puts := make([]string, n)
	for i := range puts {
		puts[i] = `{"PutRequest":{"Item":` + strings.Replace(benchItemJSON, "42", fmt.Sprint(i), 2) + `}}`
	}
	return `{"RequestItems":{"Bench":[` + strings.Join(puts, ",") + `]}}`
}

var decodeBenchmarks = []struct {
	name string
	body string
	in   func() any
}{
	{"GetItem", `{"TableName":"Bench","Key":{"pk":{"S":"user#42"},"sk":{"N":"42"}}}`, func() any { return new(GetItemInput) }},
	{"PutItem", `{"TableName":"Bench","Item":` + benchItemJSON + `}`, func() any { return new(PutItemInput) }},
	{"UpdateItem", `{"TableName":"Bench","Key":{"pk":{"S":"user#1"},"sk":{"N":"1"}},"UpdateExpression":"SET age = age + :one",` +
		`"ConditionExpression":"attribute_exists(pk) AND age >= :zero","ExpressionAttributeValues":{":one":{"N":"1"},":zero":{"N":"0"}}}`,
		func() any { return new(UpdateItemInput) }},
	{"Query", `{"TableName":"Bench","KeyConditionExpression":"pk = :p AND sk BETWEEN :a AND :b","FilterExpression":"active = :t",` +
		`"ExpressionAttributeValues":{":p":{"S":"p42"},":a":{"N":"1"},":b":{"N":"100"},":t":{"BOOL":true}},"Limit":25,` +
		`"ExclusiveStartKey":{"pk":{"S":"p42"},"sk":{"N":"7"}}}`, func() any { return new(QueryInput) }},
	{"BatchWriteItem25", batchWriteBody(25), func() any { return new(BatchWriteItemInput) }},
}

func BenchmarkDecode(b *testing.B) {
	for _, bm := range decodeBenchmarks {
		body := []byte(bm.body)
		b.Run(bm.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(body)))
			for b.Loop() {
				if err := Decode(body, bm.in()); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkValidText is the part of Decode's time that the text rule
// takes, on the same bodies.
func BenchmarkValidText(b *testing.B) {
	for _, bm := range decodeBenchmarks {
		body := []byte(bm.body)
		b.Run(bm.name, func(b *testing.B) {
			b.SetBytes(int64(len(body)))
			for b.Loop() {
				if !validText(body) {
					b.Fatal("not valid text")
				}
			}
		})
	}
}
