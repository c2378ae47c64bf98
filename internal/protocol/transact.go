package protocol

// TransactAction is the body of any TransactWriteItems action: Put uses
// Item, Update uses Key and UpdateExpression, Delete and ConditionCheck use
// Key. One struct serves all four, as the members they share mean the same.
type TransactAction struct {
	TableName                           *string           `json:"TableName,omitempty"`
	Key                                 Item              `json:"Key,omitempty"`
	Item                                Item              `json:"Item,omitempty"`
	UpdateExpression                    *string           `json:"UpdateExpression,omitempty"`
	ConditionExpression                 *string           `json:"ConditionExpression,omitempty"`
	ExpressionAttributeNames            map[string]string `json:"ExpressionAttributeNames,omitempty"`
	ExpressionAttributeValues           Item              `json:"ExpressionAttributeValues,omitempty"`
	ReturnValuesOnConditionCheckFailure *string           `json:"ReturnValuesOnConditionCheckFailure,omitempty"`
}

// WriteOptions is the action's condition parameters in the single-item
// operations' shape, so transactions parse and check them the same way.
func (a *TransactAction) WriteOptions() *WriteOptions {
	return &WriteOptions{
		ConditionExpression:                 a.ConditionExpression,
		ExpressionAttributeNames:            a.ExpressionAttributeNames,
		ExpressionAttributeValues:           a.ExpressionAttributeValues,
		ReturnValuesOnConditionCheckFailure: a.ReturnValuesOnConditionCheckFailure,
	}
}

// TransactWriteItem holds exactly one action.
type TransactWriteItem struct {
	ConditionCheck *TransactAction `json:"ConditionCheck,omitempty"`
	Put            *TransactAction `json:"Put,omitempty"`
	Delete         *TransactAction `json:"Delete,omitempty"`
	Update         *TransactAction `json:"Update,omitempty"`
}

type TransactWriteItemsInput struct {
	TransactItems               []TransactWriteItem `json:"TransactItems,omitempty"`
	ReturnConsumedCapacity      *string             `json:"ReturnConsumedCapacity,omitempty"`
	ReturnItemCollectionMetrics *string             `json:"ReturnItemCollectionMetrics,omitempty"`
	ClientRequestToken          *string             `json:"ClientRequestToken,omitempty"`
}

type TransactWriteItemsOutput struct {
	ConsumedCapacity      []ConsumedCapacity                 `json:"ConsumedCapacity,omitempty"`
	ItemCollectionMetrics map[string][]ItemCollectionMetrics `json:"ItemCollectionMetrics,omitempty"`
}

// TransactGet is one read of TransactGetItems.
type TransactGet struct {
	TableName                *string           `json:"TableName,omitempty"`
	Key                      Item              `json:"Key,omitempty"`
	ProjectionExpression     *string           `json:"ProjectionExpression,omitempty"`
	ExpressionAttributeNames map[string]string `json:"ExpressionAttributeNames,omitempty"`
}

type TransactGetItem struct {
	Get *TransactGet `json:"Get,omitempty"`
}

type TransactGetItemsInput struct {
	TransactItems          []TransactGetItem `json:"TransactItems,omitempty"`
	ReturnConsumedCapacity *string           `json:"ReturnConsumedCapacity,omitempty"`
}

// ItemResponse is one item of TransactGetItems' answer; Item is absent
// when the item does not exist.
type ItemResponse struct {
	Item Item `json:"Item,omitempty"`
}

type TransactGetItemsOutput struct {
	Responses        []ItemResponse     `json:"Responses"`
	ConsumedCapacity []ConsumedCapacity `json:"ConsumedCapacity,omitempty"`
}

// CancellationReason says why one action of a cancelled transaction
// failed, or Code "None" when it did not.
type CancellationReason struct {
	Code    string `json:"Code"`
	Message string `json:"Message,omitempty"`
	Item    Item   `json:"Item,omitempty"`
}
