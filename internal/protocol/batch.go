package protocol

// KeysAndAttributes is one table's part of a BatchGetItem request, and of
// its UnprocessedKeys.
type KeysAndAttributes struct {
	Keys                     []Key             `json:"Keys,omitempty"`
	AttributesToGet          []string          `json:"AttributesToGet,omitempty"`
	ConsistentRead           *bool             `json:"ConsistentRead,omitempty"`
	ProjectionExpression     *string           `json:"ProjectionExpression,omitempty"`
	ExpressionAttributeNames map[string]string `json:"ExpressionAttributeNames,omitempty"`
}

// BatchGetItemInput's RequestItems is keyed by table name or ARN.
type BatchGetItemInput struct {
	RequestItems           map[string]KeysAndAttributes `json:"RequestItems,omitempty"`
	ReturnConsumedCapacity *string                      `json:"ReturnConsumedCapacity,omitempty"`
}

// BatchGetItemOutput always has Responses and UnprocessedKeys, possibly
// empty, keyed as the request named the tables.
type BatchGetItemOutput struct {
	Responses        map[string][]Item            `json:"Responses"`
	UnprocessedKeys  map[string]KeysAndAttributes `json:"UnprocessedKeys"`
	ConsumedCapacity []ConsumedCapacity           `json:"ConsumedCapacity,omitempty"`
}

// WriteRequest is one put or delete of a BatchWriteItem; exactly one of
// the two is set.
type WriteRequest struct {
	PutRequest    *PutRequest    `json:"PutRequest,omitempty"`
	DeleteRequest *DeleteRequest `json:"DeleteRequest,omitempty"`
}

type PutRequest struct {
	Item Item `json:"Item,omitempty"`
}

type DeleteRequest struct {
	Key Key `json:"Key,omitempty"`
}

// BatchWriteItemInput's RequestItems is keyed by table name or ARN.
type BatchWriteItemInput struct {
	RequestItems                map[string][]WriteRequest `json:"RequestItems,omitempty"`
	ReturnConsumedCapacity      *string                   `json:"ReturnConsumedCapacity,omitempty"`
	ReturnItemCollectionMetrics *string                   `json:"ReturnItemCollectionMetrics,omitempty"`
}

type BatchWriteItemOutput struct {
	UnprocessedItems      map[string][]WriteRequest          `json:"UnprocessedItems"`
	ConsumedCapacity      []ConsumedCapacity                 `json:"ConsumedCapacity,omitempty"`
	ItemCollectionMetrics map[string][]ItemCollectionMetrics `json:"ItemCollectionMetrics,omitempty"`
}
