package protocol

import "github.com/sortkeydb/sortkey/internal/attr"

// Condition is one entry of the legacy KeyConditions, QueryFilter and
// ScanFilter parameters.
type Condition struct {
	ComparisonOperator *string      `json:"ComparisonOperator,omitempty"`
	AttributeValueList []attr.Value `json:"AttributeValueList,omitempty"`
}

// ReadOptions are the members Query and Scan share.
type ReadOptions struct {
	TableName                 *string           `json:"TableName,omitempty"`
	IndexName                 *string           `json:"IndexName,omitempty"`
	Select                    *string           `json:"Select,omitempty"`
	AttributesToGet           []string          `json:"AttributesToGet,omitempty"`
	Limit                     *int64            `json:"Limit,omitempty"`
	ConsistentRead            *bool             `json:"ConsistentRead,omitempty"`
	ExclusiveStartKey         Key               `json:"ExclusiveStartKey,omitempty"`
	ReturnConsumedCapacity    *string           `json:"ReturnConsumedCapacity,omitempty"`
	ProjectionExpression      *string           `json:"ProjectionExpression,omitempty"`
	FilterExpression          *string           `json:"FilterExpression,omitempty"`
	ExpressionAttributeNames  map[string]string `json:"ExpressionAttributeNames,omitempty"`
	ExpressionAttributeValues Item              `json:"ExpressionAttributeValues,omitempty"`
	ConditionalOperator       *string           `json:"ConditionalOperator,omitempty"`
}

type QueryInput struct {
	ReadOptions
	KeyConditionExpression *string              `json:"KeyConditionExpression,omitempty"`
	KeyConditions          map[string]Condition `json:"KeyConditions,omitempty"`
	QueryFilter            map[string]Condition `json:"QueryFilter,omitempty"`
	ScanIndexForward       *bool                `json:"ScanIndexForward,omitempty"`
}

type ScanInput struct {
	ReadOptions
	ScanFilter    map[string]Condition `json:"ScanFilter,omitempty"`
	Segment       *int64               `json:"Segment,omitempty"`
	TotalSegments *int64               `json:"TotalSegments,omitempty"`
}

// ReadOutput is the output of Query and Scan.
type ReadOutput struct {
	Items            *[]Item           `json:"Items,omitempty"` // nil for Select COUNT; else present, [] when empty
	Count            int64             `json:"Count"`
	ScannedCount     int64             `json:"ScannedCount"`
	LastEvaluatedKey Key               `json:"LastEvaluatedKey,omitempty"`
	ConsumedCapacity *ConsumedCapacity `json:"ConsumedCapacity,omitempty"`
	// ItemsJSON, when set, holds the page's items already written as wire
	// JSON and separated by commas; Items then points to an empty list.
	ItemsJSON []byte `json:"-"`
}
