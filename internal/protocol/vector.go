package protocol

import "github.com/sortkeydb/sortkey/internal/attr"

// VectorIndex is a vector index as CreateTable (and ImportTable's
// TableCreationParameters) define it, and UpdateTable's
// CreateVectorIndexAction, which has the same members.
type VectorIndex struct {
	IndexName        *string            `json:"IndexName,omitempty"`
	VectorAttribute  *VectorAttribute   `json:"VectorAttribute,omitempty"`
	Dimensions       *int64             `json:"Dimensions,omitempty"`
	DistanceFunction *string            `json:"DistanceFunction,omitempty"`
	Projection       *Projection        `json:"Projection,omitempty"`
	SearchSchema     []SearchSchemaItem `json:"SearchSchema,omitempty"`
}

// VectorAttribute names the attribute that holds an item's embedding.
type VectorAttribute struct {
	AttributeName *string `json:"AttributeName,omitempty"`
}

// SearchSchemaItem is one SearchSchemaElement: an attribute a search may
// name in its SearchConditionExpression, HASH or INLINE_FILTER.
type SearchSchemaItem struct {
	AttributeName           *string `json:"AttributeName,omitempty"`
	SearchSchemaElementType *string `json:"SearchSchemaElementType,omitempty"`
}

// VectorIndexUpdate is one entry of UpdateTable's VectorIndexUpdates;
// exactly one member is set.
type VectorIndexUpdate struct {
	Create *VectorIndex `json:"Create,omitempty"`
	Delete *struct {
		IndexName *string `json:"IndexName,omitempty"`
	} `json:"Delete,omitempty"`
}

// VectorIndexDescription is a vector index in a TableDescription.
type VectorIndexDescription struct {
	IndexName        string             `json:"IndexName"`
	IndexStatus      string             `json:"IndexStatus"`
	Backfilling      *bool              `json:"Backfilling,omitempty"`
	VectorAttribute  VectorAttribute    `json:"VectorAttribute"`
	Dimensions       int64              `json:"Dimensions"`
	DistanceFunction string             `json:"DistanceFunction"`
	SearchSchema     []SearchSchemaItem `json:"SearchSchema,omitempty"`
	Projection       *Projection        `json:"Projection,omitempty"`
	IndexArn         string             `json:"IndexArn"`
	IndexSizeBytes   int64              `json:"IndexSizeBytes"`
	ItemCount        int64              `json:"ItemCount"`
}

// SearchVectorsInput is a SearchVectors request. It has no Limit,
// ExclusiveStartKey or ConsistentRead: a search is one page, eventually
// consistent.
type SearchVectorsInput struct {
	TableName                 *string           `json:"TableName,omitempty"`
	IndexName                 *string           `json:"IndexName,omitempty"`
	SearchVector              []attr.Value      `json:"SearchVector,omitempty"`
	TopK                      *int64            `json:"TopK,omitempty"`
	SearchConditionExpression *string           `json:"SearchConditionExpression,omitempty"`
	ExpressionAttributeNames  map[string]string `json:"ExpressionAttributeNames,omitempty"`
	ExpressionAttributeValues attr.Item         `json:"ExpressionAttributeValues,omitempty"`
	ProjectionExpression      *string           `json:"ProjectionExpression,omitempty"`
	ReturnConsumedCapacity    *string           `json:"ReturnConsumedCapacity,omitempty"`
}

// SearchVectorsOutput is SearchVectors' answer: the nearest items, best
// first. Its ConsumedCapacity is a VectorCapacity, not the ConsumedCapacity
// of the other operations.
type SearchVectorsOutput struct {
	SearchResults    []SearchResultItem `json:"SearchResults"`
	ConsumedCapacity *VectorCapacity    `json:"ConsumedCapacity,omitempty"`
}

// SearchResultItem is one result: the item as projected, and its score
// under the index's distance function.
type SearchResultItem struct {
	Item  attr.Item `json:"Item"`
	Score float64   `json:"Score"`
}

// VectorCapacity is what a search, or a write to a vector index, consumed
// in bytes of vector data.
type VectorCapacity struct {
	VectorSearchRequestBytes *float64 `json:"VectorSearchRequestBytes,omitempty"`
	VectorWriteRequestBytes  *float64 `json:"VectorWriteRequestBytes,omitempty"`
}
