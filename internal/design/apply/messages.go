package apply

// What Apply says, each message once.
const (
	msgNoChanges  = "no changes: the tables match the design"
	msgNowMatches = "the tables now match the design"

	actCreate    = "create the table with %d global and %d local secondary indexes"
	actAddGSI    = "add the global secondary index"
	actAddVector = "add the vector index"
	actStreamOn  = "enable the stream (%s)"
	actStreamOff = "disable the stream (%s)"
	actTTL       = "enable Time to Live on %s"
	noteStream   = ", stream %s"
	noteVectors  = ", vector indexes %s"
	noteCapacity = ", provisioned %d RCU and %d WCU (the design gives no capacity)"

	msgKeys              = "the keys are %s, the design has %s: a table's keys are fixed at creation; recreate the table or change the design"
	msgBilling           = "the billing mode is %s, the design has %s: apply does not change billing; use UpdateTable or change the design"
	msgLSIMissing        = "the design has this local secondary index and the table does not: LSIs are fixed at creation; recreate the table"
	msgLSIExtra          = "the table has this local secondary index and the design does not: LSIs are fixed at creation; add it to the design"
	msgIndexKeys         = "the keys are %s, the design has %s: delete the index and apply again, or change the design"
	msgProjection        = "the projection is %s, the design has %s: an index's projection cannot be changed; delete the index and apply again, or change the design"
	msgGSIExtra          = "the table has this global secondary index and the design does not: add it to the design, or delete it"
	msgVectorExtra       = "the table has this vector index and the design does not: add it to the design, or delete it"
	msgVectorMember      = "the %s is %s, the design has %s: a vector index cannot be changed; delete the index and apply again, or change the design"
	msgVectorProvisioned = "the design has this vector index and the table, which is provisioned, cannot have one: make the table PAY_PER_REQUEST and apply again"
	msgTTLExtra          = "Time to Live is enabled on %s and the design has none: disable it with UpdateTimeToLive, or add it to the design"
	msgTTLOther          = "Time to Live is enabled on %s, the design has %s: DynamoDB moves TTL only by disabling it first (one change an hour); do that, or change the design"
	msgTTLDisabling      = "Time to Live is being disabled; apply again to enable it on %s once that has finished"
)

// Why a design cannot be applied.
const (
	errNoTables      = "the design has no tables"
	errName          = "%s name %q: DynamoDB names are 3 to 255 letters, digits, '_', '-' and '.'"
	errDupTable      = "table %s is designed twice"
	errKeyAttr       = "key attribute %q: a key needs a name and type S, N or B"
	errTypeConflict  = "attribute %s is a key of type %s and of type %s"
	errDupIndex      = "index %s is designed twice"
	errIndexNoPK     = "index %s has no partition key"
	errLSIKeys       = "local secondary index %s needs the table's partition key and one sort key attribute"
	errProjection    = "index %s: projection type %q is not ALL, KEYS_ONLY or INCLUDE"
	errIncludeOnly   = "index %s: only an INCLUDE projection lists attributes"
	errBillingMode   = "billing mode %q is not PAY_PER_REQUEST or PROVISIONED"
	errStreamView    = "stream %q is not NEW_IMAGE, OLD_IMAGE, NEW_AND_OLD_IMAGES or KEYS_ONLY"
	errInvalidPrefix = "table %s: "
	errVectorBilling = "vector indexes need billing mode PAY_PER_REQUEST"
	errVector        = "vector index %s needs a vectorAttribute, dimensions of at least 1 and a distanceFunction of COSINE, EUCLIDEAN or DOT_PRODUCT"
	errGone          = "the table was deleted while apply waited for it to become ACTIVE"
)
