package iampolicy

// Each message text is defined here once. They follow IAM's and DynamoDB's
// wording where it is known; the caller prefixes "Invalid policy document: ".
const (
	msgInvalidJSON        = "This policy contains invalid Json"
	msgInvalidChars       = "This policy contains invalid characters"
	msgMissingField       = "Missing required field %s"
	msgStatementEmpty     = "Could not parse the policy: Statement is empty!"
	msgSidsNotUnique      = "The Statement Ids in the policy are not unique"
	msgInvalidActions     = "The following action names are invalid: %s"
	msgVersion            = "The policy failed legacy parsing"
	msgUnknownField       = "Unknown field %s"
	msgBothFields         = "Statement cannot contain both %s and %s"
	msgEffect             = "Invalid effect: %s"
	msgNotString          = "%s must be a string or a list of strings"
	msgNotText            = "%s must be a string"
	msgPrincipalForbidden = "Policy document should not specify a principal."
	msgInvalidPrincipal   = "Invalid principal in policy document."
	msgVendor             = "Actions/Conditions must be prefaced by a vendor, e.g., iam, sdb, ec2, etc."
	msgActionName         = "Action %s is not valid"
	msgResourceARN        = "Resource %s must be in ARN format or \"*\"."
	msgConditionShape     = "Condition must map operators to objects of condition keys"
	msgUnknownOperator    = "Invalid Condition type : %s."
	msgConditionValues    = "Condition %s for key %s must have at least one value"
	msgConditionValue     = "Invalid value %q for condition %s"
)

// Error is a policy refusal; Error() is the detail DynamoDB shows after
// "Invalid policy document: ".
type Error struct{ Detail string }

func (e *Error) Error() string { return e.Detail }

const msgStatementShape = "Statement must be an object or a list of objects"
