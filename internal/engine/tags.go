package engine

import (
	"context"
	"slices"

	"github.com/sortkeydb/sortkey/internal/apierr"
	"github.com/sortkeydb/sortkey/internal/protocol"
	"github.com/sortkeydb/sortkey/internal/validate"
)

// TagResource adds or replaces tags on a table.
func (e *Engine) TagResource(_ context.Context, in *protocol.TagResourceInput) (*protocol.Empty, error) {
	if err := validate.TagResource(in); err != nil {
		return nil, err
	}
	return &protocol.Empty{}, e.editTags(*in.ResourceArn, func(tags []protocol.Tag) []protocol.Tag {
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
	return &protocol.Empty{}, e.editTags(*in.ResourceArn, func(tags []protocol.Tag) []protocol.Tag {
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
	t, err := e.arnTable(*in.ResourceArn)
	if err != nil {
		return nil, err
	}
	return &protocol.ListTagsOfResourceOutput{Tags: append([]protocol.Tag{}, t.meta.Tags...)}, nil
}

func (e *Engine) editTags(arn string, edit func([]protocol.Tag) []protocol.Tag) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	t, err := e.arnTableLocked(arn)
	if err != nil {
		return err
	}
	meta := t.meta
	meta.Tags = edit(slices.Clone(meta.Tags))
	return e.publish(t, meta, 0)
}

func (e *Engine) arnTable(arn string) (*table, error) {
	e.mu.RLock()
	defer e.mu.RUnlock()
	return e.arnTableLocked(arn)
}

func (e *Engine) arnTableLocked(arn string) (*table, error) {
	name := e.tableFromArn(arn)
	if name == "" {
		return nil, apierr.Validationf("Invalid TableArn: Invalid ResourceArn provided as input %s", arn)
	}
	if t := e.tables[name]; t != nil {
		return t, nil
	}
	return nil, apierr.New(apierr.ResourceNotFound, "Requested resource not found: ResourceArn: %s not found", arn)
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
