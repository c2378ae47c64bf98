package validate

// Messages of the checks on item operations' parameters and values. Where
// DynamoDB prefixes one with "1 validation error detected: " (PutItem,
// UpdateItem and DeleteItem), the prefix is apierr.Prefixed's.
const (
	// msgValuesWithoutExpressions names the expressions that are absent.
	msgValuesWithoutExpressions = "ExpressionAttributeValues can only be specified when using expressions: %s"
	nullCondition               = "ConditionExpression is null"
	nullUpdateAndCondition      = "UpdateExpression and ConditionExpression are null"
	nullFilter                  = "FilterExpression is null"

	msgInvalidValue    = "ExpressionAttributeValues contains invalid value: %s for key %s"
	msgValueDuplicates = "ExpressionAttributeValues contains invalid value: Input collection contains duplicates for key %s"

	msgDuplicateAttributesToGet = "One or more parameter values were invalid: Duplicate value in attribute name: %s"
)
