package globalcart

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Line is one product in a cart.
type Line struct {
	ID      string `dynamodbav:"lineId,omitempty"` // Cart's lines only
	Product string `dynamodbav:"product"`
	Qty     int    `dynamodbav:"qty"`
	Region  string `dynamodbav:"region"` // where the line was added
}

// NaiveCart keeps a whole cart in one item, its lines a list. In one
// region it is correct; in a global table it loses writes: see AddLine.
type NaiveCart struct {
	db    *dynamodb.Client
	table string
}

// NewNaiveCart is a NaiveCart on table, in db's region.
func NewNaiveCart(db *dynamodb.Client, table string) *NaiveCart {
	return &NaiveCart{db: db, table: table}
}

// AddLine appends a line with list_append, atomically in this region: no
// read-modify-write, so two adds here never lose one another. But a
// global table replicates the item, not the expression, and the item with
// the later write time replaces the other region's: an add made elsewhere
// within the lag is lost.
func (c *NaiveCart) AddLine(ctx context.Context, cartID, product string, qty int) error {
	line, err := attributevalue.Marshal(Line{Product: product, Qty: qty, Region: regionOf(c.db)})
	if err != nil {
		return err
	}
	_, err = c.db.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String(c.table), Key: key(cartID, skNaive),
		UpdateExpression:         aws.String("SET #lines = list_append(if_not_exists(#lines, :none), :line)"),
		ExpressionAttributeNames: map[string]string{"#lines": "lines"},
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":none": &types.AttributeValueMemberL{},
			":line": &types.AttributeValueMemberL{Value: []types.AttributeValue{line}}},
	})
	return err
}

// Lines reads the cart as this region's replica holds it.
func (c *NaiveCart) Lines(ctx context.Context, cartID string) ([]Line, error) {
	out, err := c.db.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(c.table),
		Key: key(cartID, skNaive), ConsistentRead: aws.Bool(true)})
	if err != nil || out.Item == nil {
		return nil, err
	}
	var lines []Line
	err = attributevalue.Unmarshal(out.Item["lines"], &lines)
	return lines, err
}
