// Package globalcart keeps a shopping cart in a DynamoDB global table and
// shows how an application detects and tolerates last writer wins, the
// rule by which the replicas of a global table converge. It holds three
// designs, each tested with the AWS SDK for Go v2 against a sortkey whose
// regions us-east-1 and us-west-2 replicate on a virtual clock:
//
//   - NaiveCart keeps the whole cart in one item. Two regions adding a line
//     within the replication lag both succeed, and one add is lost.
//   - Cart keeps each line in an item of its own, so concurrent adds never
//     touch the same item and every region ends with all of them.
//   - Cart.Checkout overwrites one item (the cart's status), which no
//     design can avoid; Cart.Confirm, after the lag, tells the writer
//     whether its acknowledged write survived.
//
// Run the tests with:
//
//	go test ./examples/globalcart/ -v
//
// docs/GLOBAL-TABLES.md describes what sortkey's replication does.
package globalcart
