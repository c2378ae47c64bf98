package sigv4

// The texts DynamoDB answers authentication failures with. Each is AWS's
// wording as observed in DynamoDB (or another coral JSON service) responses;
// doc.go says which ones are confirmed and which are inferred. The trailing
// ". " on several of them is AWS's, not a typo.
const (
	msgMissingToken = "Request is missing Authentication Token"

	msgMissingEqual       = "'%s' not a valid key=value pair (missing equal-sign) in Authorization header: '%s'."
	msgNeedsCredential    = "Authorization header requires 'Credential' parameter. "
	msgNeedsSignature     = "Authorization header requires 'Signature' parameter. "
	msgNeedsSignedHeaders = "Authorization header requires 'SignedHeaders' parameter. "
	msgNeedsDate          = "Authorization header requires existence of either a 'X-Amz-Date' or a 'Date' header. "
	msgEchoHeader         = "Authorization="
	msgAlgorithm          = "Unsupported AWS 'algorithm': '%s'."
	msgCredentialShape    = "Credential must have exactly 5 slash-delimited elements, e.g. keyid/date/region/service/term, got '%s'"
	msgDateFormat         = "Date must be in ISO-8601 'basic format'. Got '%s'. See http://en.wikipedia.org/wiki/ISO_8601"
	msgHeaderAbsent       = "'%s' is named as a SignedHeader, but it does not exist in the HTTP request."

	msgScopeDate       = "Date in Credential scope does not match YYYYMMDD from ISO-8601 version of date from HTTP. "
	msgScopeRegion     = "Credential should be scoped to a valid region, not '%s'. "
	msgScopeService    = "Credential should be scoped to correct service: '%s'. "
	msgScopeTerminator = "Credential should be scoped with a valid terminator: 'aws4_request', not '%s'. "
	msgHostUnsigned    = "'Host' or ':authority' must be a 'SignedHeader' in the AWS Authorization."
	msgExpired         = "Signature expired: %s is now earlier than %s (%s - 15 min.)"
	msgNotYetCurrent   = "Signature not yet current: %s is still later than %s (%s + 15 min.)"
	msgMismatch        = "The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method. Consult the service documentation for details."

	msgBadToken = "The security token included in the request is invalid."

	// Presigned (query-string) authentication.
	msgQueryMissing = "AWS query-string parameters must include '%s'. Re-examine the query-string parameters."
	msgQueryExpires = "X-Amz-Expires must be between 1 and 604800 seconds; got '%s'."
	msgQueryExpired = "Signature expired: %s is now earlier than %s (%s - %d sec.)"
)
