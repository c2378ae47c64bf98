package validate

// The message table of the data-plane checks: every text the item, read,
// batch and transaction operations answer with, once, by name.

// The model's constraint messages. DynamoDB reports every violation of a
// request together: "N validation error(s) detected: " and then at most
// maxListed of them, joined by "; ".
const (
	prefixOne        = "1 validation error detected: "
	msgErrors        = "%d validation errors detected: %s"
	msgViolation     = "Value %s at '%s' failed to satisfy constraint: %s"
	msgViolationBare = "Value at '%s' failed to satisfy constraint: %s"
	maxListed        = 10

	cNotNull   = "Member must not be null"
	cMinLength = "Member must have length greater than or equal to %d"
	cMaxLength = "Member must have length less than or equal to %d"
	cMinValue  = "Member must have value greater than or equal to %d"
	cMaxValue  = "Member must have value less than or equal to %d"
	cEnum      = "Member must satisfy enum value set: [%s]"
	cPattern   = "Member must satisfy regular expression pattern: %s"
)

// Required parameters the service itself checks, after the model: a
// missing TableName (a member that also takes an ARN), an empty or missing
// RequestItems.
const (
	msgTableNameRequired    = "The parameter 'TableName' is required but was not present in the request"
	msgRequestItemsRequired = "The requestItems parameter is required for %s"
)

// How expression and legacy parameters may be combined.
const (
	msgMixed = "Can not use both expression and non-expression parameters in the same request: " +
		"Non-expression parameters: {%s} Expression parameters: {%s}"
	msgNamesUnusable  = "ExpressionAttributeNames can only be specified when using expressions"
	msgValuesUnusable = "ExpressionAttributeValues can only be specified when using expressions: %s"

	// What msgValuesUnusable says is missing, by operation.
	nullFilter    = "FilterExpression is null"
	nullCondition = "ConditionExpression is null"
	nullUpdate    = "UpdateExpression and ConditionExpression are null"
)

// Select and the projection parameters.
const (
	msgSpecificNeedsProjection = "Must specify the AttributesToGet or ProjectionExpression when choosing to get SPECIFIC_ATTRIBUTES"
	msgCannotSpecify           = "Cannot specify the %s when choosing to get %s"
	msgProjectedNeedsIndex     = "ALL_PROJECTED_ATTRIBUTES can be used only when Querying using an IndexName"
	selectCountWhat            = "only the Count"
)

// Query and Scan.
const (
	msgNoKeyCondition     = "Either the KeyConditions or KeyConditionExpression parameter must be specified in the request."
	msgKeyConditionsCount = "Conditions can be of length 1 or 2 only"
	msgTotalSegmentsAlone = "The TotalSegments parameter is required but was not present in the request when Segment parameter is present"
	msgSegmentAlone       = "The Segment parameter is required but was not present in the request when parameter TotalSegments is present"
	msgSegmentTooLarge    = "The Segment parameter is zero-based and must be less than parameter TotalSegments: Segment: %d is not less than TotalSegments: %d"
)

// Items and their values.
const (
	msgReturnValuesOldOrNone    = "ReturnValues can only be ALL_OLD or NONE"
	msgInvalidEAV               = "ExpressionAttributeValues contains invalid value: %s for key %s"
	msgValueDuplicates          = "ExpressionAttributeValues contains invalid value: Input collection contains duplicates for key %s"
	msgDuplicateAttributesToGet = "One or more parameter values were invalid: Duplicate value in attribute name: %s"
	msgItemTooLarge             = "Item size has exceeded the maximum allowed size"
)

// Batches and transactions.
const (
	msgDuplicateKeys     = "Provided list of item keys contains duplicates"
	msgTooManyBatchGets  = "Too many items requested for the BatchGetItem call"
	msgTooManyBatchPuts  = "Too many items requested for the BatchWriteItem call"
	msgWriteRequestShape = invalid + "A WriteRequest must contain exactly one of PutRequest or DeleteRequest"
	msgWriteListsLength  = "Map value must satisfy constraint: [" +
		"Member must have length less than or equal to 25, Member must have length greater than or equal to 1]"
	msgMapKeys         = "Map keys must satisfy constraint: [%s]"
	msgTransactOneKind = "TransactItems can only contain one of Check, Put, Update or Delete"
)
