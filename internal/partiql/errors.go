package partiql

import "github.com/sortkeydb/sortkey/internal/apierr"

// The message texts, each written once. Those marked "observed" are
// DynamoDB's as recorded in the research notes; the others are sortkey's
// own wording for cases whose AWS text is not recorded yet.
const (
	// observed: the envelope of every statement that does not parse.
	msgMalformed = "Statement wasn't well formed, can't be processed: "
	// observed: a token left over after a complete statement.
	msgTrailing = "Unexpected token after expression"
	// observed: the statement ends (or goes wrong) where a term is due.
	msgTerm = "Unexpected term"
	// observed: a table alias on SELECT, UPDATE or DELETE.
	msgAlias = "Aliasing is not supported"
	// observed: a numeric parameter out of DynamoDB's range.
	msgParamNumber = "The parameter cannot be converted to a numeric value: "
	// observed: any statement on an index with a multi-attribute key.
	msgMultiKey = "PartiQL statements cannot be executed on tables with multi-attribute HASH keys or multi-attribute RANGE keys."
	// observed: a statement on an index the table does not have; unlike
	// Query's, the text does not name the index (facts 36.4).
	msgNoIndex = "The table does not have the specified index"
	// observed: a batch read that does not pin the whole key.
	msgBatchKey = "Select statements within BatchExecuteStatement must specify the primary key in the where clause."
	// recorded in the API notes: reads and writes mixed in one batch.
	msgBatchMixed = "The entire batch must consist of either read statements or write statements"
	// sortkey's, by analogy with msgBatchKey: a transaction read that does
	// not pin the whole key.
	msgTransactKey = "Select statements within ExecuteTransaction must specify the primary key in the where clause."
	// recalled from AWS, not yet in the notes: a write whose WHERE does
	// not pin the whole key, and a wrong number of parameters.
	msgKeyEq = "Where clause does not contain a mandatory equality on all key attributes"
	// observed: INSERT of a key that exists.
	msgDuplicate = "Duplicate primary key exists in table"
	msgParams    = "Number of parameters in request and statement don't match."
	// sortkey's own.
	msgNesting   = "Statement nests deeper than 32 levels"
	msgSetMixed  = "A set literal must hold members of one type: strings, numbers or binaries"
	msgOrderBy   = "ORDER BY is supported only on the sort key, with an equality on the partition key in the WHERE clause"
	msgToken     = "Invalid NextToken"
	msgUnsupport = "Unsupported PartiQL feature: "
	msgExists    = "EXISTS outside ExecuteTransaction"
	// sortkey's wording of limits the Developer Guide documents without
	// their text: IN lists on the partition key and on other attributes.
	msgInKey    = "IN on the partition key may list at most 50 values"
	msgInValues = "IN may list at most 100 values"
)

// malformed is the error of a statement that does not parse.
func malformed(detail string) *apierr.Error { return apierr.Validationf("%s%s", msgMalformed, detail) }

// existsOutside refuses EXISTS anywhere but a statement of ExecuteTransaction,
// the only place DynamoDB documents it.
func existsOutside() *apierr.Error { return malformed(msgUnsupport + msgExists) }
