package faults

import "github.com/sortkeydb/sortkey/internal/engine"

// What a rule file's errors say; each text is here once.
const (
	msgPrefix        = "fault rules: "
	msgNotObject     = "the file must be a JSON or YAML object with \"seed\" and \"rules\""
	msgYAML          = "not valid YAML: %v"
	msgJSON          = "not valid JSON: %v"
	msgUnknownMember = "unknown member %q"
	msgMustBe        = "must be %s"
	msgSeed          = "a whole number from 0 to 18446744073709551615"
	msgUnknownOp     = "unknown operation %q"
	msgUnknownError  = "unknown error %q; one of %s"
	msgProbability   = "must be above 0 and at most 1"
	msgFraction      = "must be above 0 and at most 1 (the fraction of the batch's items held back)"
	msgAtLeastOne    = "must be at least 1"
	msgNotNegative   = "must not be negative"
	msgDuration      = "must be a duration such as \"250ms\" or \"2m\", above 0 and at most %s"
	msgTime          = "must be an RFC 3339 time such as \"2026-01-01T00:00:00Z\""
	msgUntilAndFor   = "set until or for, not both"
	msgEmptyWindow   = "until must be after from"
	msgNoEffect      = "needs an effect: error, unprocessed, latency, drop or hold"
	msgTwoEffects    = "error, unprocessed, drop and hold exclude each other: set one (latency may go with any)"
	msgConflictError = "goes only with \"error\": \"TransactionCanceledException\""
	msgConflictIndex = "must list transaction members by index, 0 to 99"
	msgEffectOp      = "%s applies only to %s, not %q"
	msgTooLarge      = "the body exceeds 1 MiB"
)

// DynamoDB's wording of each error a rule can answer, as the service
// sends it.
var errorMessages = map[string]string{
	"InternalServerError":                    "Internal server error",
	"ServiceUnavailable":                     "Service is currently unavailable. Please try again later.",
	"ProvisionedThroughputExceededException": "The level of configured provisioned throughput for the table was exceeded. Consider increasing your provisioning level with the UpdateTable API.",
	"ThrottlingException":                    "Rate of requests exceeds the allowed throughput.",
	"RequestLimitExceeded":                   "Throughput exceeds the current throughput limit for your account. Please contact AWS Support at https://aws.amazon.com/support to request a limit increase",
	"TransactionInProgressException":         engine.MsgTxInProgress,
	"TransactionCanceledException":           "", // worded from its reasons (engine.TransactionCanceled)
}

// conflictMessage is a TransactionConflict cancellation reason's text.
const conflictMessage = engine.MsgTxConflict
