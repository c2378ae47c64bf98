// Command menus is the data-access layer of a menu planner (menus, menu
// items, recipes, ingredients and the shop categories they are bought in)
// on one DynamoDB table, written with the AWS SDK for Go v2 from
// reference design 004. Every entity
// lives beside its children in one item collection, so a parent and its
// first children are one Query; GSI1 finds an entity by id and GSI2 by
// name; and names stay unique through name records written in the same
// TransactWriteItems as the entity, with attribute_not_exists.
//
// Run it against an embedded sortkey, or any endpoint:
//
//	go run ./examples/menus
//	go run ./examples/menus --endpoint http://127.0.0.1:8000
package main
