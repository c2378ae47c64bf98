package auth

// The texts of the auth file's errors and of AccessDeniedException.
const (
	msgFileJSON      = "auth file: %v"
	msgAccount       = "auth file: account must be 12 digits, not %q"
	msgNoPrincipals  = "auth file: no principals"
	msgPrincipal     = "auth file: principals[%d] (%s): %s"
	msgPolicy        = "auth file: principals[%d] (%s): policies[%d]: Invalid policy document: %v"
	msgPrincipalArn  = "arn must be an IAM user or role ARN (arn:aws:iam::<account>:user/<name>, arn:aws:iam::<account>:role/<name>) or an assumed-role session ARN (arn:aws:sts::<account>:assumed-role/<role>/<session>), not %q"
	msgDuplicateArn  = "arn is also used by principals[%d]"
	msgDuplicateKey  = "accessKeyId is also used by principals[%d]"
	msgMissingKey    = "accessKeyId and secretAccessKey are required"
	msgEmptyTagKey   = "tags must not have an empty key"
	msgUnknownCaller = "no principal with arn %q in the auth file"
	msgTrailingData  = "auth file: unexpected data after the JSON object"

	// AccessDeniedException, in IAM's forms: implicit (no policy allows)
	// and explicit (a statement denies), by the kind of policy that decided.
	msgDenied          = "User: %s is not authorized to perform: %s on resource: %s"
	msgNoIdentityAllow = msgDenied + " because no identity-based policy allows the %s action"
	msgNoResourceAllow = msgDenied + " because no resource-based policy allows the %s action"
	msgIdentityDeny    = msgDenied + " with an explicit deny in an identity-based policy"
	msgResourceDeny    = msgDenied + " with an explicit deny in a resource-based policy"
)

// The texts of console sign-in's errors (signin.go).
const (
	msgSignIn    = "The access key id, secret access key or session token is not one of the auth file's principals."
	msgSignedOut = "The auth file in force no longer has this principal with the access key and secret it signed in with."
)
