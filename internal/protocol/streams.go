package protocol

// The DynamoDB Streams API (X-Amz-Target DynamoDBStreams_20120810.*).

type ListStreamsInput struct {
	TableName               *string `json:"TableName,omitempty"`
	Limit                   *int64  `json:"Limit,omitempty"`
	ExclusiveStartStreamArn *string `json:"ExclusiveStartStreamArn,omitempty"`
}

type StreamSummary struct {
	StreamArn   string `json:"StreamArn"`
	TableName   string `json:"TableName"`
	StreamLabel string `json:"StreamLabel"`
}

type ListStreamsOutput struct {
	Streams                []StreamSummary `json:"Streams"`
	LastEvaluatedStreamArn *string         `json:"LastEvaluatedStreamArn,omitempty"`
}

type DescribeStreamInput struct {
	StreamArn             *string      `json:"StreamArn,omitempty"`
	Limit                 *int64       `json:"Limit,omitempty"`
	ExclusiveStartShardId *string      `json:"ExclusiveStartShardId,omitempty"`
	ShardFilter           *ShardFilter `json:"ShardFilter,omitempty"`
}

// ShardFilter asks DescribeStream for the children of one shard.
type ShardFilter struct {
	Type    *string `json:"Type,omitempty"`
	ShardId *string `json:"ShardId,omitempty"`
}

type SequenceNumberRange struct {
	StartingSequenceNumber string `json:"StartingSequenceNumber,omitempty"`
	EndingSequenceNumber   string `json:"EndingSequenceNumber,omitempty"`
}

type Shard struct {
	ShardId             string              `json:"ShardId"`
	SequenceNumberRange SequenceNumberRange `json:"SequenceNumberRange"`
	ParentShardId       string              `json:"ParentShardId,omitempty"`
}

type StreamDescription struct {
	StreamArn               string             `json:"StreamArn"`
	StreamLabel             string             `json:"StreamLabel"`
	StreamStatus            string             `json:"StreamStatus"`
	StreamViewType          string             `json:"StreamViewType"`
	CreationRequestDateTime float64            `json:"CreationRequestDateTime"`
	TableName               string             `json:"TableName"`
	KeySchema               []KeySchemaElement `json:"KeySchema"`
	Shards                  []Shard            `json:"Shards"`
	LastEvaluatedShardId    *string            `json:"LastEvaluatedShardId,omitempty"`
}

type DescribeStreamOutput struct {
	StreamDescription StreamDescription `json:"StreamDescription"`
}

type GetShardIteratorInput struct {
	StreamArn         *string `json:"StreamArn,omitempty"`
	ShardId           *string `json:"ShardId,omitempty"`
	ShardIteratorType *string `json:"ShardIteratorType,omitempty"`
	SequenceNumber    *string `json:"SequenceNumber,omitempty"`
	// Timestamp belongs to the AT_TIMESTAMP iterator type, which sortkey
	// does not implement.
	Timestamp Refused `json:"Timestamp"`
}

type GetShardIteratorOutput struct {
	ShardIterator string `json:"ShardIterator"`
}

type GetRecordsInput struct {
	ShardIterator *string `json:"ShardIterator,omitempty"`
	Limit         *int64  `json:"Limit,omitempty"`
}

type StreamRecord struct {
	ApproximateCreationDateTime float64 `json:"ApproximateCreationDateTime"`
	Keys                        Item    `json:"Keys"`
	NewImage                    Item    `json:"NewImage,omitempty"`
	OldImage                    Item    `json:"OldImage,omitempty"`
	SequenceNumber              string  `json:"SequenceNumber"`
	SizeBytes                   int64   `json:"SizeBytes"`
	StreamViewType              string  `json:"StreamViewType"`
}

type Identity struct {
	PrincipalId string `json:"PrincipalId"`
	Type        string `json:"Type"`
}

type Record struct {
	AwsRegion    string       `json:"awsRegion"`
	Dynamodb     StreamRecord `json:"dynamodb"`
	EventID      string       `json:"eventID"`
	EventName    string       `json:"eventName"`
	EventSource  string       `json:"eventSource"`
	EventVersion string       `json:"eventVersion"`
	UserIdentity *Identity    `json:"userIdentity,omitempty"`
}

type GetRecordsOutput struct {
	Records           []Record `json:"Records"`
	NextShardIterator *string  `json:"NextShardIterator,omitempty"`
}
