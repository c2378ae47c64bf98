package designtest

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/sortkeydb/sortkey/internal/design"
	"github.com/sortkeydb/sortkey/internal/design/apply"
)

// Applied reports, through t, every change `sortkey design apply` would
// make to the live tables behind db, and every difference it would
// leave: after the example has created its tables, applying its design
// must find nothing to do.
func Applied(ctx context.Context, t TB, db *dynamodb.Client, d *design.Design) {
	t.Helper()
	rep, err := apply.Apply(ctx, db, d, apply.Options{DryRun: true})
	if err != nil {
		t.Errorf("design apply: %v", err)
		return
	}
	for _, c := range rep.Changes {
		t.Errorf("design apply would change %s", c)
	}
	for _, diff := range rep.Differences {
		t.Errorf("design apply finds a difference: %s", diff)
	}
}
