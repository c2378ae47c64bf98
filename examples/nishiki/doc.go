// Command nishiki is the data-access layer of Nishiki, a shared food
// inventory (users, groups, containers of foods, invitation links), on one
// DynamoDB table with four global secondary indexes, written with the AWS
// SDK for Go v2. Each access pattern of the design is one method of Store;
// the tests run them all on sortkeytest, and main prints them against an
// embedded sortkey or any endpoint:
//
//	go run ./examples/nishiki
//	go run ./examples/nishiki --endpoint http://127.0.0.1:8000 --env prod
package main
