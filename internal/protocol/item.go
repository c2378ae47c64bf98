package protocol

import "github.com/sortkeydb/sortkey/internal/attr"

type ConsumedCapacity struct {
	TableName              string              `json:"TableName,omitempty"`
	CapacityUnits          *float64            `json:"CapacityUnits,omitempty"`
	ReadCapacityUnits      *float64            `json:"ReadCapacityUnits,omitempty"`
	WriteCapacityUnits     *float64            `json:"WriteCapacityUnits,omitempty"`
	Table                  *Capacity           `json:"Table,omitempty"`
	GlobalSecondaryIndexes map[string]Capacity `json:"GlobalSecondaryIndexes,omitempty"`
	LocalSecondaryIndexes  map[string]Capacity `json:"LocalSecondaryIndexes,omitempty"`
	// VectorIndexes is a write's vector index bytes, with INDEXES.
	VectorIndexes map[string]VectorCapacity `json:"VectorIndexes,omitempty"`
}

type Capacity struct {
	CapacityUnits      *float64 `json:"CapacityUnits,omitempty"`
	ReadCapacityUnits  *float64 `json:"ReadCapacityUnits,omitempty"`
	WriteCapacityUnits *float64 `json:"WriteCapacityUnits,omitempty"`
}

// WriteOptions are the members PutItem and DeleteItem (and later
// UpdateItem) share: what to return, and the condition on the write.
type WriteOptions struct {
	ReturnValues                        *string                           `json:"ReturnValues,omitempty"`
	ReturnConsumedCapacity              *string                           `json:"ReturnConsumedCapacity,omitempty"`
	ReturnItemCollectionMetrics         *string                           `json:"ReturnItemCollectionMetrics,omitempty"`
	ReturnValuesOnConditionCheckFailure *string                           `json:"ReturnValuesOnConditionCheckFailure,omitempty"`
	ConditionExpression                 *string                           `json:"ConditionExpression,omitempty"`
	ExpressionAttributeNames            map[string]string                 `json:"ExpressionAttributeNames,omitempty"`
	ExpressionAttributeValues           Item                              `json:"ExpressionAttributeValues,omitempty"`
	Expected                            map[string]ExpectedAttributeValue `json:"Expected,omitempty"`
	ConditionalOperator                 *string                           `json:"ConditionalOperator,omitempty"`
}

type PutItemInput struct {
	TableName *string `json:"TableName,omitempty"`
	Item      Item    `json:"Item,omitempty"`
	WriteOptions
}

type PutItemOutput struct {
	Attributes            Item                   `json:"Attributes,omitempty"`
	ConsumedCapacity      *ConsumedCapacity      `json:"ConsumedCapacity,omitempty"`
	ItemCollectionMetrics *ItemCollectionMetrics `json:"ItemCollectionMetrics,omitempty"`
}

type GetItemInput struct {
	TableName                *string           `json:"TableName,omitempty"`
	Key                      Key               `json:"Key,omitempty"`
	ConsistentRead           *bool             `json:"ConsistentRead,omitempty"`
	AttributesToGet          []string          `json:"AttributesToGet,omitempty"`
	ProjectionExpression     *string           `json:"ProjectionExpression,omitempty"`
	ExpressionAttributeNames map[string]string `json:"ExpressionAttributeNames,omitempty"`
	ReturnConsumedCapacity   *string           `json:"ReturnConsumedCapacity,omitempty"`
}

type GetItemOutput struct {
	Item             Item              `json:"Item,omitempty"`
	ConsumedCapacity *ConsumedCapacity `json:"ConsumedCapacity,omitempty"`
	// ItemJSON, when set, is the item already written as wire JSON,
	// straight from storage; Item is then nil.
	ItemJSON []byte `json:"-"`
}

type DeleteItemInput struct {
	TableName *string `json:"TableName,omitempty"`
	Key       Key     `json:"Key,omitempty"`
	WriteOptions
}

type DeleteItemOutput struct {
	Attributes            Item                   `json:"Attributes,omitempty"`
	ConsumedCapacity      *ConsumedCapacity      `json:"ConsumedCapacity,omitempty"`
	ItemCollectionMetrics *ItemCollectionMetrics `json:"ItemCollectionMetrics,omitempty"`
}

// ExpectedAttributeValue is one entry of the legacy Expected parameter.
type ExpectedAttributeValue struct {
	Value              *attr.Value  `json:"Value,omitempty"`
	Exists             *bool        `json:"Exists,omitempty"`
	ComparisonOperator *string      `json:"ComparisonOperator,omitempty"`
	AttributeValueList []attr.Value `json:"AttributeValueList,omitempty"`
}

// AttributeValueUpdate is one entry of the legacy AttributeUpdates parameter.
type AttributeValueUpdate struct {
	Value  *attr.Value `json:"Value,omitempty"`
	Action *string     `json:"Action,omitempty"`
}

type UpdateItemInput struct {
	TableName        *string                         `json:"TableName,omitempty"`
	Key              Key                             `json:"Key,omitempty"`
	UpdateExpression *string                         `json:"UpdateExpression,omitempty"`
	AttributeUpdates map[string]AttributeValueUpdate `json:"AttributeUpdates,omitempty"`
	WriteOptions
}

type UpdateItemOutput struct {
	Attributes            Item                   `json:"Attributes,omitempty"`
	ConsumedCapacity      *ConsumedCapacity      `json:"ConsumedCapacity,omitempty"`
	ItemCollectionMetrics *ItemCollectionMetrics `json:"ItemCollectionMetrics,omitempty"`
}

// ItemCollectionMetrics describes the item collection a write touched, in
// a table with local secondary indexes.
type ItemCollectionMetrics struct {
	ItemCollectionKey   Item      `json:"ItemCollectionKey"`
	SizeEstimateRangeGB []float64 `json:"SizeEstimateRangeGB"`
}
