package protocol

// The resource-based policy operations. ResourceArn names a table or a
// stream; RevisionId identifies one version of a resource's document.

type PutResourcePolicyInput struct {
	ResourceArn        *string `json:"ResourceArn,omitempty"`
	Policy             *string `json:"Policy,omitempty"`
	ExpectedRevisionId *string `json:"ExpectedRevisionId,omitempty"`
	// ConfirmRemoveSelfResourceAccess only matters when a policy would
	// lock its caller out; the engine accepts it and keeps nothing.
	ConfirmRemoveSelfResourceAccess *bool `json:"ConfirmRemoveSelfResourceAccess,omitempty"`
}

type PutResourcePolicyOutput struct {
	RevisionId string `json:"RevisionId,omitempty"`
}

type GetResourcePolicyInput struct {
	ResourceArn *string `json:"ResourceArn,omitempty"`
}

type GetResourcePolicyOutput struct {
	Policy     string `json:"Policy,omitempty"`
	RevisionId string `json:"RevisionId,omitempty"`
}

type DeleteResourcePolicyInput struct {
	ResourceArn        *string `json:"ResourceArn,omitempty"`
	ExpectedRevisionId *string `json:"ExpectedRevisionId,omitempty"`
}

type DeleteResourcePolicyOutput struct {
	RevisionId string `json:"RevisionId,omitempty"`
}
