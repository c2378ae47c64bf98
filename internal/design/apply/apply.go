package apply

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/sortkeydb/sortkey/internal/design"
)

// API is the part of *dynamodb.Client that Apply uses.
type API interface {
	DescribeTable(context.Context, *dynamodb.DescribeTableInput, ...func(*dynamodb.Options)) (*dynamodb.DescribeTableOutput, error)
	CreateTable(context.Context, *dynamodb.CreateTableInput, ...func(*dynamodb.Options)) (*dynamodb.CreateTableOutput, error)
	UpdateTable(context.Context, *dynamodb.UpdateTableInput, ...func(*dynamodb.Options)) (*dynamodb.UpdateTableOutput, error)
	DescribeTimeToLive(context.Context, *dynamodb.DescribeTimeToLiveInput, ...func(*dynamodb.Options)) (*dynamodb.DescribeTimeToLiveOutput, error)
	UpdateTimeToLive(context.Context, *dynamodb.UpdateTimeToLiveInput, ...func(*dynamodb.Options)) (*dynamodb.UpdateTimeToLiveOutput, error)
}

// Options tune Apply.
type Options struct {
	// DryRun reports what would change and changes nothing.
	DryRun bool
	// Poll is how often to ask whether a table or index has become
	// ACTIVE; 0 means every second.
	Poll time.Duration
}

// Change is one change Apply made (or, in a dry run, would make).
type Change struct {
	Table, Index string // Index is "" for a change to the table
	Action       string
}

func (c Change) String() string { return where(c.Table, c.Index) + c.Action }

// Difference is one way a live table differs from its design that Apply
// did not change, with what to do about it.
type Difference struct {
	Table, Index string
	Message      string
}

func (d Difference) String() string { return where(d.Table, d.Index) + d.Message }

func where(table, index string) string {
	if index == "" {
		return "table " + table + ": "
	}
	return "table " + table + ", index " + index + ": "
}

// Report is what Apply did and found.
type Report struct {
	DryRun      bool
	Changes     []Change
	Differences []Difference
}

// Matches reports whether the live tables are as designed after Apply:
// no difference remains and, in a dry run, nothing needed changing.
func (r *Report) Matches() bool {
	return len(r.Differences) == 0 && (!r.DryRun || len(r.Changes) == 0)
}

// String is the report as a person reads it, a line each.
func (r *Report) String() string {
	var b strings.Builder
	verb := "changed: "
	if r.DryRun {
		verb = "would change: "
	}
	for _, c := range r.Changes {
		b.WriteString(verb + c.String() + "\n")
	}
	for _, d := range r.Differences {
		b.WriteString("DIFFERENCE: " + d.String() + "\n")
	}
	switch {
	case len(r.Changes) == 0 && len(r.Differences) == 0:
		b.WriteString(msgNoChanges + "\n")
	case r.Matches():
		b.WriteString(msgNowMatches + "\n")
	}
	return b.String()
}

// Apply makes the design's tables exist as designed, through c, and
// reports what it changed and every difference it left. A design that
// cannot be applied (see Validate) changes nothing and returns an error
// wrapping ErrInvalid.
func Apply(ctx context.Context, c API, d *design.Design, o Options) (*Report, error) {
	if err := Validate(d); err != nil {
		return nil, err
	}
	if o.Poll <= 0 {
		o.Poll = time.Second
	}
	a := &applier{c: c, o: o, r: &Report{DryRun: o.DryRun}}
	for _, t := range d.Tables {
		if err := a.table(ctx, t); err != nil {
			return a.r, fmt.Errorf("table %s: %w", t.Name, err)
		}
	}
	return a.r, nil
}

type applier struct {
	c API
	o Options
	r *Report
}

func (a *applier) change(table, index, action string) {
	a.r.Changes = append(a.r.Changes, Change{Table: table, Index: index, Action: action})
}

func (a *applier) differ(table, index, format string, args ...any) {
	a.r.Differences = append(a.r.Differences, Difference{Table: table, Index: index, Message: fmt.Sprintf(format, args...)})
}

// table applies one table: creates it if missing, else reconciles it.
func (a *applier) table(ctx context.Context, t design.Table) error {
	live, err := a.describe(ctx, t.Name)
	if err != nil {
		return err
	}
	if live == nil {
		if err := a.create(ctx, t); err != nil {
			return err
		}
	} else if err := a.reconcile(ctx, t, live); err != nil {
		return err
	}

	return a.ttl(ctx, t, live == nil)
}

// describe is the live table, or nil when there is none.
func (a *applier) describe(ctx context.Context, name string) (*types.TableDescription, error) {
	out, err := a.c.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(name)})
	var nf *types.ResourceNotFoundException
	if errors.As(err, &nf) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return out.Table, nil
}

func (a *applier) create(ctx context.Context, t design.Table) error {
	in := createInput(t)
	a.change(t.Name, "", fmt.Sprintf(actCreate, len(in.GlobalSecondaryIndexes), len(in.LocalSecondaryIndexes))+vectorNote(t)+streamNote(t)+capacityNote(t))
	if a.o.DryRun {
		return nil
	}
	if _, err := a.c.CreateTable(ctx, in); err != nil {
		return err
	}
	return a.waitActive(ctx, t.Name)
}

// reconcile reports what it will not change in a live table, then sets
// its stream and adds its missing GSIs and vector indexes, one per
// UpdateTable as DynamoDB requires.
func (a *applier) reconcile(ctx context.Context, t design.Table, live *types.TableDescription) error {
	a.compareTable(t, live)
	if !active(live) && !a.o.DryRun {
		// A table or index still in transition refuses changes.
		if err := a.waitActive(ctx, t.Name); err != nil {
			return err
		}
	}
	if err := a.stream(ctx, t, live); err != nil {
		return err
	}
	have := map[string]bool{}
	for _, g := range live.GlobalSecondaryIndexes {
		have[aws.ToString(g.IndexName)] = true
	}
	for _, g := range t.GSIs {
		if have[g.Name] {
			continue
		}
		if err := a.addGSI(ctx, t, g, liveBilling(live) != payPerRequest); err != nil {
			return err
		}
	}
	return a.addVectors(ctx, t, live)
}

// addGSI adds g, with capacity when the live table is provisioned, as
// DynamoDB requires (whatever billing the design asks for: a different
// one is reported, not changed).
func (a *applier) addGSI(ctx context.Context, t design.Table, g design.Index, provisioned bool) error {
	create := gsiCreate(t, g)
	create.ProvisionedThroughput = nil
	note := ""
	if provisioned {
		create.ProvisionedThroughput = capacity()
		note = fmt.Sprintf(noteCapacity, defaultCapacity, defaultCapacity)
	}
	a.change(t.Name, g.Name, actAddGSI+note)
	if a.o.DryRun {
		return nil
	}
	_, err := a.c.UpdateTable(ctx, &dynamodb.UpdateTableInput{
		TableName:                   aws.String(t.Name),
		AttributeDefinitions:        definitions(t),
		GlobalSecondaryIndexUpdates: []types.GlobalSecondaryIndexUpdate{{Create: create}},
	})
	if err != nil {
		return err
	}
	return a.waitActive(ctx, t.Name)
}

// stream turns the table's stream on, off or to another view type.
// DynamoDB changes a view type only by disabling the stream first.
func (a *applier) stream(ctx context.Context, t design.Table, live *types.TableDescription) error {
	have := ""
	if s := live.StreamSpecification; s != nil && aws.ToBool(s.StreamEnabled) {
		have = string(s.StreamViewType)
	}
	if have == t.Stream {
		return nil
	}
	if have != "" {
		a.change(t.Name, "", fmt.Sprintf(actStreamOff, have))
		if err := a.updateStream(ctx, t.Name, &types.StreamSpecification{StreamEnabled: aws.Bool(false)}); err != nil {
			return err
		}
	}
	if t.Stream == "" {
		return nil
	}
	a.change(t.Name, "", fmt.Sprintf(actStreamOn, t.Stream))
	return a.updateStream(ctx, t.Name, &types.StreamSpecification{StreamEnabled: aws.Bool(true), StreamViewType: types.StreamViewType(t.Stream)})
}

func (a *applier) updateStream(ctx context.Context, table string, s *types.StreamSpecification) error {
	if a.o.DryRun {
		return nil
	}
	if _, err := a.c.UpdateTable(ctx, &dynamodb.UpdateTableInput{TableName: aws.String(table), StreamSpecification: s}); err != nil {
		return err
	}
	return a.waitActive(ctx, table)
}

// ttl enables Time to Live as designed. It does not disable or move it:
// DynamoDB allows one TTL change an hour, so undoing a mistaken one is
// costly, and a difference says what to do instead.
func (a *applier) ttl(ctx context.Context, t design.Table, created bool) error {
	status, attr := types.TimeToLiveStatusDisabled, ""
	if !created || !a.o.DryRun {
		out, err := a.c.DescribeTimeToLive(ctx, &dynamodb.DescribeTimeToLiveInput{TableName: aws.String(t.Name)})
		if err != nil {
			return err
		}
		if d := out.TimeToLiveDescription; d != nil {
			status, attr = d.TimeToLiveStatus, aws.ToString(d.AttributeName)
		}
	}
	on := status == types.TimeToLiveStatusEnabled || status == types.TimeToLiveStatusEnabling
	switch {
	case on && attr == t.TTL:
	case on && t.TTL == "":
		a.differ(t.Name, "", msgTTLExtra, attr)
	case on:
		a.differ(t.Name, "", msgTTLOther, attr, t.TTL)
	case t.TTL == "":
	case status == types.TimeToLiveStatusDisabling:
		a.differ(t.Name, "", msgTTLDisabling, t.TTL)
	default:
		return a.enableTTL(ctx, t)
	}
	return nil
}

func (a *applier) enableTTL(ctx context.Context, t design.Table) error {
	a.change(t.Name, "", fmt.Sprintf(actTTL, t.TTL))
	if a.o.DryRun {
		return nil
	}
	_, err := a.c.UpdateTimeToLive(ctx, &dynamodb.UpdateTimeToLiveInput{TableName: aws.String(t.Name),
		TimeToLiveSpecification: &types.TimeToLiveSpecification{AttributeName: aws.String(t.TTL), Enabled: aws.Bool(true)}})
	return err
}

// waitActive waits until the table, its GSIs and its vector indexes are
// ACTIVE: DynamoDB
// refuses the next UpdateTable while one is CREATING or UPDATING.
func (a *applier) waitActive(ctx context.Context, table string) error {
	for {
		live, err := a.describe(ctx, table)
		if err != nil {
			return err
		}
		if live == nil {
			return errors.New(errGone)
		}
		if active(live) {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(a.o.Poll):
		}
	}
}

func active(t *types.TableDescription) bool {
	if t.TableStatus != types.TableStatusActive {
		return false
	}
	for _, g := range t.GlobalSecondaryIndexes {
		if g.IndexStatus != types.IndexStatusActive {
			return false
		}
	}
	return vectorsActive(t)
}
