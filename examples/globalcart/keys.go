package globalcart

import (
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Every item of a cart shares its partition, so one Query reads them all.
const (
	skNaive    = "CART"     // NaiveCart's one item
	skLine     = "LINE#"    // Cart's lines: LINE#<lineId>
	skCheckout = "CHECKOUT" // the cart's status, written by Checkout
)

func cartPK(cartID string) string { return "CART#" + cartID }

func key(cartID, sk string) map[string]types.AttributeValue {
	return map[string]types.AttributeValue{
		"pk": &types.AttributeValueMemberS{Value: cartPK(cartID)},
		"sk": &types.AttributeValueMemberS{Value: sk},
	}
}

func str(s string) types.AttributeValue { return &types.AttributeValueMemberS{Value: s} }

// regionOf is the region db's requests act in: with a global table, the
// replica they read and write.
func regionOf(db *dynamodb.Client) string { return db.Options().Region }
