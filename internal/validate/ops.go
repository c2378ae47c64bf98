package validate

import "github.com/sortkeydb/sortkey/internal/protocol"

// ListTables checks Limit (1..100) and ExclusiveStartTableName, which is
// still a plain name: ARNs are not accepted there.
func ListTables(in *protocol.ListTablesInput) error {
	v := &violations{}
	if in.ExclusiveStartTableName != nil {
		v.name(*in.ExclusiveStartTableName, "exclusiveStartTableName")
	}
	v.atLeast(in.Limit, "limit", 1)
	v.atMost(in.Limit, "limit", 100)
	return v.err()
}

func resourceArnModel(v *violations, arn *string) {
	if v.present(arn == nil, "resourceArn") {
		v.length(*arn, "resourceArn", 1, 1283)
	}
}

// TagResource checks the ARN, each tag's key and value, and the per-request
// tag count; the limit across existing tags is the engine's.
func TagResource(in *protocol.TagResourceInput) error {
	v := &violations{}
	resourceArnModel(v, in.ResourceArn)
	if v.present(in.Tags == nil, "tags") {
		v.count(quote("[]"), len(in.Tags), "tags", 1, -1) // facts 33.1: Tags [] is refused
		tagsModel(v, in.Tags, "tags")
	}
	if err := v.err(); err != nil {
		return err
	}
	return TagCount(len(in.Tags))
}

// UntagResource checks the ARN and each key to remove.
func UntagResource(in *protocol.UntagResourceInput) error {
	v := &violations{}
	resourceArnModel(v, in.ResourceArn)
	if v.present(in.TagKeys == nil, "tagKeys") {
		for i, k := range in.TagKeys {
			v.length(k, item("tagKeys", i), 1, 128)
		}
	}
	return v.err()
}

// ListTagsOfResource checks the ARN.
func ListTagsOfResource(in *protocol.ListTagsOfResourceInput) error {
	v := &violations{}
	resourceArnModel(v, in.ResourceArn)
	return v.err()
}

// PutResourcePolicy checks the ARN, that a document is given, and the
// expected revision's length; the document itself is the engine's to judge.
func PutResourcePolicy(in *protocol.PutResourcePolicyInput) error {
	v := &violations{}
	resourceArnModel(v, in.ResourceArn)
	v.present(in.Policy == nil, "policy")
	revisionModel(v, in.ExpectedRevisionId)
	return v.err()
}

// GetResourcePolicy checks the ARN.
func GetResourcePolicy(in *protocol.GetResourcePolicyInput) error {
	v := &violations{}
	resourceArnModel(v, in.ResourceArn)
	return v.err()
}

// DeleteResourcePolicy checks the ARN and the expected revision's length.
func DeleteResourcePolicy(in *protocol.DeleteResourcePolicyInput) error {
	v := &violations{}
	resourceArnModel(v, in.ResourceArn)
	revisionModel(v, in.ExpectedRevisionId)
	return v.err()
}

func revisionModel(v *violations, rev *string) {
	if rev != nil {
		v.length(*rev, "expectedRevisionId", 1, 255)
	}
}

// Name reports whether s is a valid table or index name, for callers
// that find names inside ARNs and need no message.
func Name(s string) bool { return validName(s) && len(s) >= 3 && len(s) <= 255 }
