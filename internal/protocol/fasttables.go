package protocol

import "github.com/sortkeydb/sortkey/internal/attr"

// The member tables of the inputs the scanner decodes. Each lists every
// json name of its struct whose field the scanner covers; the legacy
// members (Expected, AttributeUpdates, KeyConditions, QueryFilter, ScanFilter) are left
// out, so a body using them goes to encoding/json. TestFastTables holds
// the tables to the structs' fields.

var writeOptionsFields = []field[WriteOptions]{
	strField("ReturnValues", func(p *WriteOptions) **string { return &p.ReturnValues }),
	strField("ReturnConsumedCapacity", func(p *WriteOptions) **string { return &p.ReturnConsumedCapacity }),
	strField("ReturnItemCollectionMetrics", func(p *WriteOptions) **string { return &p.ReturnItemCollectionMetrics }),
	strField("ReturnValuesOnConditionCheckFailure", func(p *WriteOptions) **string { return &p.ReturnValuesOnConditionCheckFailure }),
	strField("ConditionExpression", func(p *WriteOptions) **string { return &p.ConditionExpression }),
	namesField("ExpressionAttributeNames", func(p *WriteOptions) *map[string]string { return &p.ExpressionAttributeNames }),
	itemField("ExpressionAttributeValues", func(p *WriteOptions) *Item { return &p.ExpressionAttributeValues }),
	strField("ConditionalOperator", func(p *WriteOptions) **string { return &p.ConditionalOperator }),
}

var getItemMembers = newMembers([]field[GetItemInput]{
	strField("TableName", func(p *GetItemInput) **string { return &p.TableName }),
	itemField("Key", func(p *GetItemInput) *Item { return &p.Key }),
	boolField("ConsistentRead", func(p *GetItemInput) **bool { return &p.ConsistentRead }),
	stringsField("AttributesToGet", func(p *GetItemInput) *[]string { return &p.AttributesToGet }),
	strField("ProjectionExpression", func(p *GetItemInput) **string { return &p.ProjectionExpression }),
	namesField("ExpressionAttributeNames", func(p *GetItemInput) *map[string]string { return &p.ExpressionAttributeNames }),
	strField("ReturnConsumedCapacity", func(p *GetItemInput) **string { return &p.ReturnConsumedCapacity }),
})

var putItemMembers = newMembers([]field[PutItemInput]{
	strField("TableName", func(p *PutItemInput) **string { return &p.TableName }),
	itemField("Item", func(p *PutItemInput) *Item { return &p.Item }),
}, promote(func(p *PutItemInput) *WriteOptions { return &p.WriteOptions }, writeOptionsFields))

var deleteItemMembers = newMembers([]field[DeleteItemInput]{
	strField("TableName", func(p *DeleteItemInput) **string { return &p.TableName }),
	itemField("Key", func(p *DeleteItemInput) *Item { return &p.Key }),
}, promote(func(p *DeleteItemInput) *WriteOptions { return &p.WriteOptions }, writeOptionsFields))

var updateItemMembers = newMembers([]field[UpdateItemInput]{
	strField("TableName", func(p *UpdateItemInput) **string { return &p.TableName }),
	itemField("Key", func(p *UpdateItemInput) *Item { return &p.Key }),
	strField("UpdateExpression", func(p *UpdateItemInput) **string { return &p.UpdateExpression }),
}, promote(func(p *UpdateItemInput) *WriteOptions { return &p.WriteOptions }, writeOptionsFields))

var readOptionsFields = []field[ReadOptions]{
	strField("TableName", func(p *ReadOptions) **string { return &p.TableName }),
	strField("IndexName", func(p *ReadOptions) **string { return &p.IndexName }),
	strField("Select", func(p *ReadOptions) **string { return &p.Select }),
	stringsField("AttributesToGet", func(p *ReadOptions) *[]string { return &p.AttributesToGet }),
	int64Field("Limit", func(p *ReadOptions) **int64 { return &p.Limit }),
	boolField("ConsistentRead", func(p *ReadOptions) **bool { return &p.ConsistentRead }),
	itemField("ExclusiveStartKey", func(p *ReadOptions) *Item { return &p.ExclusiveStartKey }),
	strField("ReturnConsumedCapacity", func(p *ReadOptions) **string { return &p.ReturnConsumedCapacity }),
	strField("ProjectionExpression", func(p *ReadOptions) **string { return &p.ProjectionExpression }),
	strField("FilterExpression", func(p *ReadOptions) **string { return &p.FilterExpression }),
	namesField("ExpressionAttributeNames", func(p *ReadOptions) *map[string]string { return &p.ExpressionAttributeNames }),
	itemField("ExpressionAttributeValues", func(p *ReadOptions) *Item { return &p.ExpressionAttributeValues }),
	strField("ConditionalOperator", func(p *ReadOptions) **string { return &p.ConditionalOperator }),
}

var queryMembers = newMembers([]field[QueryInput]{
	strField("KeyConditionExpression", func(p *QueryInput) **string { return &p.KeyConditionExpression }),
	boolField("ScanIndexForward", func(p *QueryInput) **bool { return &p.ScanIndexForward }),
}, promote(func(p *QueryInput) *ReadOptions { return &p.ReadOptions }, readOptionsFields))

var putRequestMembers = newMembers([]field[PutRequest]{
	itemField("Item", func(p *PutRequest) *Item { return &p.Item }),
})

var deleteRequestMembers = newMembers([]field[DeleteRequest]{
	itemField("Key", func(p *DeleteRequest) *Item { return &p.Key }),
})

var writeRequestMembers = newMembers([]field[WriteRequest]{
	objectField("PutRequest", func(p *WriteRequest) **PutRequest { return &p.PutRequest }, &putRequestMembers),
	objectField("DeleteRequest", func(p *WriteRequest) **DeleteRequest { return &p.DeleteRequest }, &deleteRequestMembers),
})

var batchWriteItemMembers = newMembers([]field[BatchWriteItemInput]{
	requestItemsField("RequestItems", func(p *BatchWriteItemInput) *map[string][]WriteRequest { return &p.RequestItems }),
	strField("ReturnConsumedCapacity", func(p *BatchWriteItemInput) **string { return &p.ReturnConsumedCapacity }),
	strField("ReturnItemCollectionMetrics", func(p *BatchWriteItemInput) **string { return &p.ReturnItemCollectionMetrics }),
})

var scanMembers = newMembers([]field[ScanInput]{
	int64Field("Segment", func(p *ScanInput) **int64 { return &p.Segment }),
	int64Field("TotalSegments", func(p *ScanInput) **int64 { return &p.TotalSegments }),
}, promote(func(p *ScanInput) *ReadOptions { return &p.ReadOptions }, readOptionsFields))

var executeStatementMembers = newMembers([]field[ExecuteStatementInput]{
	strField("Statement", func(p *ExecuteStatementInput) **string { return &p.Statement }),
	valuesField("Parameters", func(p *ExecuteStatementInput) *[]attr.Value { return &p.Parameters }),
	boolField("ConsistentRead", func(p *ExecuteStatementInput) **bool { return &p.ConsistentRead }),
	strField("NextToken", func(p *ExecuteStatementInput) **string { return &p.NextToken }),
	int64Field("Limit", func(p *ExecuteStatementInput) **int64 { return &p.Limit }),
	strField("ReturnConsumedCapacity", func(p *ExecuteStatementInput) **string { return &p.ReturnConsumedCapacity }),
	strField("ReturnValuesOnConditionCheckFailure", func(p *ExecuteStatementInput) **string { return &p.ReturnValuesOnConditionCheckFailure }),
})
