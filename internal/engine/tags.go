package engine

import (
	"context"
	"slices"
	"strings"

	"github.com/sortkeydb/sortkey/internal/apierr"
	"github.com/sortkeydb/sortkey/internal/protocol"
	"github.com/sortkeydb/sortkey/internal/validate"
)

// TagResource adds or replaces tags on a table.
func (e *Engine) TagResource(_ context.Context, in *protocol.TagResourceInput) (*protocol.Empty, error) {
	if err := validate.TagResource(in); err != nil {
		return nil, err
	}
	return &protocol.Empty{}, e.editTags(*in.ResourceArn, "TagResource", func(tags []protocol.Tag) []protocol.Tag {
		for _, tag := range in.Tags {
			tags = append(removeTag(tags, *tag.Key), tag)
		}
		return tags
	})
}

// UntagResource removes tags by key; unknown keys are ignored.
func (e *Engine) UntagResource(_ context.Context, in *protocol.UntagResourceInput) (*protocol.Empty, error) {
	if err := validate.UntagResource(in); err != nil {
		return nil, err
	}
	return &protocol.Empty{}, e.editTags(*in.ResourceArn, "UntagResource", func(tags []protocol.Tag) []protocol.Tag {
		for _, k := range in.TagKeys {
			tags = removeTag(tags, k)
		}
		return tags
	})
}

// ListTagsOfResource returns all of a table's tags in one page.
func (e *Engine) ListTagsOfResource(_ context.Context, in *protocol.ListTagsOfResourceInput) (*protocol.ListTagsOfResourceOutput, error) {
	if err := validate.ListTagsOfResource(in); err != nil {
		return nil, err
	}
	t, err := e.arnTable(*in.ResourceArn, "ListTagsOfResource")
	if err != nil {
		return nil, err
	}
	return &protocol.ListTagsOfResourceOutput{Tags: append([]protocol.Tag{}, t.meta.Tags...)}, nil
}

func (e *Engine) editTags(arn, action string, edit func([]protocol.Tag) []protocol.Tag) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	t, err := e.arnTableLocked(arn, action)
	if err != nil {
		return err
	}
	meta := t.meta
	meta.Tags = edit(slices.Clone(meta.Tags))
	if err := validate.TagCount(len(meta.Tags)); err != nil { // 50 in all (facts 33.1)
		return err
	}
	return e.publish(t, meta, 0)
}

func (e *Engine) arnTable(arn, action string) (*table, error) {
	e.mu.RLock()
	defer e.mu.RUnlock()
	return e.arnTableLocked(arn, action)
}

// The tagging operations' answers about their ResourceArn.
const (
	invalidArnText = "Invalid TableArn: Invalid ResourceArn provided as input %s"
	// missingArnText answers a well-formed table ARN of the caller's
	// account that names no table (facts 33.2).
	missingArnText = msgNotFound + ": ResourceArn: %s not found"
	// accessDeniedText answers a table ARN of another account: DynamoDB
	// authorizes the action on the ARN before it looks the table up.
	accessDeniedText = "User: arn:aws:iam::%s:root is not authorized to perform: dynamodb:%s on resource: %s"
)

// arnTableLocked finds the table a tagging request's ARN names. Something
// that is no ARN (facts 33.1) or not a table ARN is a ValidationException;
// a table ARN of the caller's account that names no table here is not
// found, one of another account denied (rule 19). Callers hold e.mu.
func (e *Engine) arnTableLocked(arn, action string) (*table, error) {
	if !strings.HasPrefix(arn, "arn:") {
		return nil, apierr.Validationf(msgArnNotArn, arn)
	}
	if !wellFormedTableArn(arn) {
		return nil, apierr.Validationf(invalidArnText, arn)
	}
	if t := e.tables[e.tableFromArn(arn)]; t != nil {
		return t, nil
	}
	if strings.SplitN(arn, ":", 6)[4] == e.account {
		return nil, apierr.New(apierr.ResourceNotFound, missingArnText, arn)
	}
	return nil, apierr.New(apierr.AccessDenied, accessDeniedText, e.account, action, arn)
}

// wellFormedTableArn reports whether arn has a table ARN's form,
// arn:aws:dynamodb:<region>:<12-digit account>:table/<table name>,
// whatever region and account it names.
func wellFormedTableArn(arn string) bool {
	p := strings.SplitN(arn, ":", 6)
	if len(p) != 6 || p[0] != "arn" || p[1] != "aws" || p[2] != "dynamodb" || p[3] == "" || !accountID(p[4]) {
		return false
	}
	name, ok := strings.CutPrefix(p[5], "table/")
	return ok && !strings.HasPrefix(name, "arn:") && validate.TableName(&name, "resourceArn") == nil
}

func accountID(s string) bool {
	if len(s) != 12 {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

func removeTag(tags []protocol.Tag, key string) []protocol.Tag {
	return slices.DeleteFunc(tags, func(t protocol.Tag) bool { return *t.Key == key })
}

// DescribeLimits returns DynamoDB's default account and table quotas;
// sortkey enforces the per-table one (validate.MaxCapacityUnits), and
// tools read them to size their requests.
func (e *Engine) DescribeLimits(context.Context, *protocol.Empty) (*protocol.DescribeLimitsOutput, error) {
	return &protocol.DescribeLimitsOutput{
		AccountMaxReadCapacityUnits:  80000,
		AccountMaxWriteCapacityUnits: 80000,
		TableMaxReadCapacityUnits:    validate.MaxCapacityUnits,
		TableMaxWriteCapacityUnits:   validate.MaxCapacityUnits,
	}, nil
}
