package workbench

// What import and export say, each message once.
const (
	errTooLarge     = "%s: a Workbench model is at most %d bytes"
	errJSON         = "%s: not a NoSQL Workbench model: %v"
	errNoTables     = "%s: the model has no tables (DataModel is empty)"
	errTableName    = "%s: DataModel[%d] has no TableName"
	errTableKey     = "%s: table %s: KeyAttributes needs one PartitionKey and at most one SortKey, each with an AttributeName"
	errIndex        = "%s: table %s: GlobalSecondaryIndexes[%d] needs an IndexName and a PartitionKey with an AttributeName"
	errNoDesignTabs = "the design has no tables to export"

	defaultModelName = "Imported"
	defaultFacetName = "Facet%d"
	defaultAttrType  = "S"

	warnGuessed    = "entity %s: key templates %s were derived from %d sample item(s): check them against the application"
	warnPlaceheld  = "entity %s: no sample items, so its key templates %s are placeholders: write the real ones"
	warnUntyped    = "entity %s: attribute %s has no type in the table's NonKeyAttributes; taken as S"
	warnDiscrim    = "table %s: the entities' discriminator was taken to be %s, the attribute whose sample value differs by facet"
	warnLostLSI    = "table %s: local secondary indexes are not in Workbench's format and were left out"
	warnLostTTL    = "table %s: Time to Live (%s) is not in Workbench's format and was left out"
	warnLostStream = "table %s: the stream (%s) is not in Workbench's format and was left out"
	warnLostVector = "table %s: vector indexes are not in Workbench's format and were left out"
	warnMultiKey   = "table %s, index %s: a key of several attributes is written as a list, which Workbench may not read"
	warnLostPats   = "%d access patterns and %d write patterns are not in Workbench's format and were left out"
	warnLostEntity = "entity %s: its table %s is not in the design; left out"
)
