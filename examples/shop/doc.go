// Command shop is the shop single-table design of seed 001 (users,
// categories, brands, products, orders) as a data-access layer on the AWS
// SDK for Go v2: one table with PK/SK, an LSI on SKU and two GSIs, KSUID
// ids so that sort keys order by creation time, and one method per access
// pattern of the design. Its main loads sample data and runs every access
// pattern, against an embedded sortkey or any DynamoDB endpoint:
//
//	go run ./examples/shop
//	go run ./examples/shop --endpoint http://127.0.0.1:8000
package main
