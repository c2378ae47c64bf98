package globalcart

import (
	"context"
	"crypto/rand"
	"errors"
	"maps"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// ErrCheckedOut is Checkout's refusal of a cart that this region's
// replica already shows with a status. Another region may have given it
// one that has not arrived yet: the refusal is certain, the success is not.
var ErrCheckedOut = errors.New("globalcart: cart already checked out")

// Write is one write of a cart's status: what Checkout wrote, or what
// Confirm found stored.
type Write struct {
	Status string `dynamodbav:"status"`
	// Version is a random token that only this write carries. A counter
	// would not do: two regions incrementing the version each has seen
	// write the same number, and the loser could not tell the winner's
	// write from its own.
	Version string `dynamodbav:"version"`
	Region  string `dynamodbav:"region"` // where it was written
}

// Checkout gives the cart its status (ordered, abandoned, ...), once.
// The condition is judged on this region's replica only, so two regions
// within the lag both pass it and both are acknowledged; after
// replication one status remains. Confirm tells which.
func (c *Cart) Checkout(ctx context.Context, cartID, status string) (Write, error) {
	w := Write{Status: status, Version: rand.Text(), Region: regionOf(c.db)}
	item, err := attributevalue.MarshalMap(w)
	if err != nil {
		return Write{}, err
	}
	maps.Copy(item, key(cartID, skCheckout))
	_, err = c.db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(c.table), Item: item,
		ConditionExpression: aws.String("attribute_not_exists(sk)")})
	var failed *types.ConditionalCheckFailedException
	if errors.As(err, &failed) {
		return Write{}, ErrCheckedOut
	}
	return w, err
}

// Confirm reads the cart's status in this region and reports whether it
// is still the write wrote, and if not, what replaced it. Call it once
// the replication lag has passed: before, a write that is about to lose
// is still stored here, and Confirm answers true.
func (c *Cart) Confirm(ctx context.Context, cartID string, wrote Write) (stored Write, survived bool, err error) {
	out, err := c.db.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(c.table),
		Key: key(cartID, skCheckout), ConsistentRead: aws.Bool(true)})
	if err != nil || out.Item == nil {
		return Write{}, false, err
	}
	err = attributevalue.UnmarshalMap(out.Item, &stored)
	return stored, err == nil && stored.Version == wrote.Version, err
}
