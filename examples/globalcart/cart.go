package globalcart

import (
	"context"
	"crypto/rand"
	"maps"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Cart keeps each line of a cart in an item of its own. An add writes a
// new item under a fresh id and a removal deletes one line, so two
// regions' writes never touch the same item unless they remove the same
// line, and then both want it gone: last writer wins has nothing to lose.
// Changing a line's quantity is a removal and an add, for the same reason.
type Cart struct {
	db    *dynamodb.Client
	table string
}

// New is a Cart on table, in db's region.
func New(db *dynamodb.Client, table string) *Cart {
	return &Cart{db: db, table: table}
}

// AddLine writes a new line. Its id is random rather than counted per
// cart, since two regions counting from what each has seen would hand out
// the same number, and one line would overwrite the other.
func (c *Cart) AddLine(ctx context.Context, cartID, product string, qty int) (Line, error) {
	line := Line{ID: rand.Text(), Product: product, Qty: qty, Region: regionOf(c.db)}
	item, err := attributevalue.MarshalMap(line)
	if err != nil {
		return Line{}, err
	}
	maps.Copy(item, key(cartID, skLine+line.ID))
	_, err = c.db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(c.table), Item: item})
	return line, err
}

// RemoveLine deletes a line. A line not yet replicated here is not
// deleted: the app removes only lines its region has shown the user.
func (c *Cart) RemoveLine(ctx context.Context, cartID, lineID string) error {
	_, err := c.db.DeleteItem(ctx, &dynamodb.DeleteItemInput{TableName: aws.String(c.table), Key: key(cartID, skLine+lineID)})
	return err
}

// Lines reads the cart's lines as this region's replica holds them, by
// line id. A line added in another region is missing until it has
// replicated, however consistent the read: do not assume read-after-write
// across regions.
func (c *Cart) Lines(ctx context.Context, cartID string) ([]Line, error) {
	pages := dynamodb.NewQueryPaginator(c.db, &dynamodb.QueryInput{TableName: aws.String(c.table), ConsistentRead: aws.Bool(true),
		KeyConditionExpression:    aws.String("pk = :pk AND begins_with(sk, :line)"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":pk": str(cartPK(cartID)), ":line": str(skLine)}})
	var lines []Line
	for pages.HasMorePages() {
		page, err := pages.NextPage(ctx)
		if err != nil {
			return nil, err
		}
		var more []Line
		if err := attributevalue.UnmarshalListOfMaps(page.Items, &more); err != nil {
			return nil, err
		}
		lines = append(lines, more...)
	}
	return lines, nil
}
