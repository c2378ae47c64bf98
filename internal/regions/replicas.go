package regions

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/sortkeydb/sortkey/internal/apierr"
	"github.com/sortkeydb/sortkey/internal/engine"
	"github.com/sortkeydb/sortkey/internal/protocol"
	"github.com/sortkeydb/sortkey/internal/validate"
)

// UpdateTable is UpdateTable in region: a request with ReplicaUpdates
// changes the table's replicas here, any other goes to the region's
// engine.
func (s *Set) UpdateTable(ctx context.Context, region string, in *protocol.UpdateTableInput) (*protocol.UpdateTableOutput, error) {
	region = s.name(region)
	e, err := s.Engine(region)
	if err != nil {
		return nil, err
	}
	if len(in.ReplicaUpdates) == 0 && in.MultiRegionConsistency == nil {
		return s.updateEverywhere(ctx, region, in)
	}
	if err := validate.ReplicaUpdates(in); err != nil {
		return nil, err
	}
	d, err := e.DescribeTable(ctx, &protocol.DescribeTableInput{TableName: in.TableName})
	if err != nil {
		return nil, err
	}
	mode, err := checkConsistency(e, region, d.Table, in)
	if err != nil {
		return nil, err
	}
	return s.changeReplicas(ctx, e, region, d.Table.TableName, in.ReplicaUpdates, mode)
}

// changeReplicas applies the updates in order and describes the table as
// the response shows it: UPDATING, with the replicas it adds CREATING and
// those it removes DELETING.
func (s *Set) changeReplicas(ctx context.Context, e *engine.Engine, region, name string, ups []protocol.ReplicationGroupUpdate, mode string) (*protocol.UpdateTableOutput, error) {
	shown := map[string]string{}
	for _, u := range ups {
		var err error
		switch {
		case u.Create != nil:
			err = s.addReplica(ctx, e, region, name, *u.Create.RegionName, mode)
			shown[*u.Create.RegionName] = "CREATING"
		case u.Update != nil:
			err = s.updateReplica(e, region, name, *u.Update.RegionName)
			shown[*u.Update.RegionName] = "UPDATING"
		case u.Delete != nil:
			err = s.removeReplica(ctx, e, region, name, *u.Delete.RegionName)
			shown[*u.Delete.RegionName] = "DELETING"
		}
		if err != nil {
			return nil, err
		}
	}
	d, err := e.DescribeTable(ctx, &protocol.DescribeTableInput{TableName: &name})
	if err != nil {
		return nil, err
	}
	return &protocol.UpdateTableOutput{TableDescription: showReplicas(d.Table, shown)}, nil
}

func showReplicas(d *protocol.TableDescription, shown map[string]string) *protocol.TableDescription {
	d.TableStatus = "UPDATING"
	for i := range d.Replicas {
		if st, ok := shown[d.Replicas[i].RegionName]; ok {
			d.Replicas[i].ReplicaStatus = st
			delete(shown, d.Replicas[i].RegionName)
		}
	}
	for r, st := range shown {
		if st == "DELETING" {
			d.Replicas = append(d.Replicas, protocol.ReplicaDescription{RegionName: r, ReplicaStatus: st})
		}
	}
	slices.SortFunc(d.Replicas, func(a, b protocol.ReplicaDescription) int { return strings.Compare(a.RegionName, b.RegionName) })
	return d
}

// group is the table's replication group, region alone for a table that
// is not global yet.
func group(e *engine.Engine, region, name string) []string {
	if g := e.ReplicaRegions(name); g != nil {
		return g
	}
	return []string{region}
}

// addReplica creates the table in region to, joins it to the group,
// and fills it from this replica. Writes made meanwhile anywhere reach it
// through replication once the group includes it; the fill's older
// copies of them lose to them, by their stamps.
func (s *Set) addReplica(ctx context.Context, e *engine.Engine, region, name, to, mode string) error {
	g := group(e, region, name)
	if slices.Contains(g, to) {
		return apierr.Validationf("Failed to create a replica of table %s in region %s: the table already has a replica there", name, to)
	}
	dst, err := s.Engine(to)
	if err != nil {
		return err
	}
	if err := createTwin(ctx, e, dst, name, to); err != nil {
		return err
	}
	g = append(g, to)
	if err := s.setGroup(name, g, mode); err != nil {
		return err
	}
	return fill(e, dst, name)
}

// createTwin creates the new replica's table: the same keys, indexes,
// billing, encryption and TTL.
func createTwin(ctx context.Context, e, dst *engine.Engine, name, to string) error {
	in, err := e.ReplicaRequest(name)
	if err != nil {
		return err
	}
	if _, err := dst.CreateTable(ctx, in); err != nil {
		if apierr.Is(err, apierr.ResourceInUse) {
			return apierr.Validationf("Failed to create a replica of table %s in region %s: a table of that name already exists there", name, to)
		}
		return err
	}
	ttl, err := e.DescribeTimeToLive(ctx, &protocol.DescribeTimeToLiveInput{TableName: &name})
	if err != nil || ttl.TimeToLiveDescription.TimeToLiveStatus != "ENABLED" {
		return err
	}
	_, err = dst.UpdateTimeToLive(ctx, &protocol.UpdateTimeToLiveInput{TableName: &name,
		TimeToLiveSpecification: &protocol.TimeToLiveSpecification{Enabled: new(true), AttributeName: &ttl.TimeToLiveDescription.AttributeName}})
	return err
}

// fill copies every item of e's replica into dst's, with its stamp.
func fill(e, dst *engine.Engine, name string) error {
	var aerr error
	err := e.Copy(name, func(c engine.ReplicaChange) bool {
		_, aerr = dst.Apply(c, c.Stamp.Region)
		return aerr == nil
	})
	if err != nil {
		return err
	}
	return aerr
}

// setGroup makes every member of g a replica of g, of consistency c.
func (s *Set) setGroup(name string, g []string, c string) error {
	for _, r := range g {
		e, err := s.Engine(r)
		if err == nil {
			err = e.SetReplicas(name, g, c)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// updateReplica changes nothing (sortkey keeps no per-replica settings)
// once it finds the replica.
func (s *Set) updateReplica(e *engine.Engine, region, name, at string) error {
	if !slices.Contains(group(e, region, name), at) || at == region {
		return noReplica(name, at)
	}
	return nil
}

func noReplica(name, at string) error {
	return apierr.Validationf("Table %s has no replica in region %s", name, at)
}

// removeReplica deletes the replica in region at and leaves the others a
// group without it. A region removes other regions' replicas; its own
// table leaves the group by DeleteTable.
func (s *Set) removeReplica(ctx context.Context, e *engine.Engine, region, name, at string) error {
	g := group(e, region, name)
	if at == region {
		return apierr.Validationf("Table %s in region %s is the replica this request was sent to: delete it with DeleteTable in that region, or remove it from another replica's region", name, at)
	}
	if !slices.Contains(g, at) {
		return noReplica(name, at)
	}
	dst, err := s.Engine(at)
	if err != nil {
		return err
	}
	if _, err := dst.DeleteTable(ctx, &protocol.DeleteTableInput{TableName: &name}); err != nil {
		return err
	}
	return s.setGroup(name, slices.DeleteFunc(g, func(r string) bool { return r == at }), e.ReplicaConsistency(name))
}

// DeleteTable is DeleteTable in region: a replica's other regions are
// left a group without it.
func (s *Set) DeleteTable(ctx context.Context, region string, in *protocol.DeleteTableInput) (*protocol.DeleteTableOutput, error) {
	region, e, g, err := s.replicaOf(region, in.TableName)
	if err != nil {
		return nil, err
	}
	out, err := e.DeleteTable(ctx, in)
	if err != nil || g == nil {
		return out, err
	}
	rest := slices.DeleteFunc(g, func(r string) bool { return r == region })
	other, err := s.Engine(rest[0])
	if err != nil {
		return out, err
	}
	return out, s.setGroup(out.TableDescription.TableName, rest, other.ReplicaConsistency(out.TableDescription.TableName))
}

// updateEverywhere is UpdateTable of a table's settings: on a replica,
// what every replica shares (capacity and global secondary indexes) is
// changed in every region, as DynamoDB keeps them consistent.
func (s *Set) updateEverywhere(ctx context.Context, region string, in *protocol.UpdateTableInput) (*protocol.UpdateTableOutput, error) {
	region, e, g, err := s.replicaOf(region, in.TableName)
	if err != nil {
		return nil, err
	}
	out, err := e.UpdateTable(ctx, in)
	if err != nil || g == nil {
		return out, err
	}
	shared := &protocol.UpdateTableInput{TableName: &out.TableDescription.TableName, AttributeDefinitions: in.AttributeDefinitions,
		BillingMode: in.BillingMode, ProvisionedThroughput: in.ProvisionedThroughput, OnDemandThroughput: in.OnDemandThroughput,
		GlobalSecondaryIndexUpdates: in.GlobalSecondaryIndexUpdates}
	if shared.BillingMode == nil && shared.ProvisionedThroughput == nil && shared.OnDemandThroughput == nil && len(shared.GlobalSecondaryIndexUpdates) == 0 {
		return out, nil
	}
	return out, s.elsewhere(region, g, func(other *engine.Engine) error {
		_, err := other.UpdateTable(ctx, shared)
		return err
	})
}

// elsewhere runs fn on the engine of each region of g but region.
func (s *Set) elsewhere(region string, g []string, fn func(*engine.Engine) error) error {
	for _, r := range g {
		if r == region {
			continue
		}
		e, err := s.Engine(r)
		if err == nil {
			err = fn(e)
		}
		if err != nil {
			return fmt.Errorf("regions: the replica in %s did not follow: %w", r, err)
		}
	}
	return nil
}

// UpdateTimeToLive is UpdateTimeToLive in region, and on a replica in
// every region: replicas share their TTL setting.
func (s *Set) UpdateTimeToLive(ctx context.Context, region string, in *protocol.UpdateTimeToLiveInput) (*protocol.UpdateTimeToLiveOutput, error) {
	region, e, g, err := s.replicaOf(region, in.TableName)
	if err != nil {
		return nil, err
	}
	if spec := in.TimeToLiveSpecification; spec != nil && spec.Enabled != nil && *spec.Enabled && e.ReplicaConsistency(*in.TableName) == engine.Strong {
		return nil, noTTL(e, *in.TableName, true)
	}
	out, err := e.UpdateTimeToLive(ctx, in)
	if err != nil || g == nil {
		return out, err
	}
	return out, s.elsewhere(region, g, func(other *engine.Engine) error {
		_, err := other.UpdateTimeToLive(ctx, in)
		return err
	})
}

// replicaOf is region's name and engine, and the replication group of the
// table a request names there (nil when it is not a replica).
func (s *Set) replicaOf(region string, table *string) (string, *engine.Engine, []string, error) {
	region = s.name(region)
	e, err := s.Engine(region)
	if err != nil || table == nil {
		return region, e, nil, err
	}
	return region, e, e.ReplicaRegions(*table), nil
}
