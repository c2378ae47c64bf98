package validate

import (
	"strings"

	"github.com/sortkeydb/sortkey/internal/apierr"
	"github.com/sortkeydb/sortkey/internal/protocol"
)

// UpdateTable checks what an UpdateTable request can be judged on alone,
// in the service's order: a missing TableName, model constraints (all
// together), members sortkey refuses, the request's own rules. The
// quotas, the table lookup and the rules that depend on the table's
// state are the engine's, in that order.
func UpdateTable(in *protocol.UpdateTableInput) error {
	if err := requireTableName(in.TableName); err != nil {
		return err
	}
	if err := updateTableModel(in); err != nil {
		return err
	}
	if err := Refused(in); err != nil {
		return err
	}
	if err := replicasShared(in); err != nil {
		return err
	}
	return updateTableRules(in)
}

func updateTableModel(in *protocol.UpdateTableInput) error {
	v := &violations{}
	tableNameModel(v, in.TableName, "tableName")
	attrDefsModel(v, in.AttributeDefinitions, "attributeDefinitions")
	v.enum(in.BillingMode, "billingMode", billingModes)
	throughputModel(v, in.ProvisionedThroughput, "provisionedThroughput")
	for i := range in.GlobalSecondaryIndexUpdates {
		gsiUpdateModel(v, &in.GlobalSecondaryIndexUpdates[i], item("globalSecondaryIndexUpdates", i))
	}
	for i := range in.VectorIndexUpdates {
		vectorUpdateModel(v, &in.VectorIndexUpdates[i], item("vectorIndexUpdates", i))
	}
	streamModel(v, in.StreamSpecification, "streamSpecification")
	sseModel(v, in.SSESpecification, "sseSpecification")
	v.enum(in.TableClass, "tableClass", tableClasses)
	return v.err()
}

func gsiUpdateModel(v *violations, u *protocol.GlobalSecondaryIndexUpdate, member string) {
	if u.Create != nil {
		gsiModel(v, u.Create, member+".create")
	}
	if u.Update != nil {
		indexNameModel(v, u.Update.IndexName, member+".update.indexName")
		throughputModel(v, u.Update.ProvisionedThroughput, member+".update.provisionedThroughput")
	}
	if u.Delete != nil {
		indexNameModel(v, u.Delete.IndexName, member+".delete.indexName")
	}
}

func updateTableRules(in *protocol.UpdateTableInput) error {
	if nothingToUpdate(in) {
		return apierr.Validationf("At least one of ProvisionedThroughput, BillingMode, UpdateStreamEnabled, GlobalSecondaryIndexUpdates or SSESpecification or ReplicaUpdates is required")
	}
	billing := deref(in.BillingMode)
	if billing == "PAY_PER_REQUEST" && in.ProvisionedThroughput != nil {
		return TableThroughput(in.ProvisionedThroughput, billing)
	}
	if err := vectorUpdates(in); err != nil {
		return err
	}
	if err := gsiUpdates(in, billing); err != nil {
		return err
	}
	if in.StreamSpecification != nil {
		return streamViewRequired(in.StreamSpecification)
	}
	return nil
}

// nothingToUpdate reports a request that names a table and nothing else.
func nothingToUpdate(in *protocol.UpdateTableInput) bool {
	return in.ProvisionedThroughput == nil && in.BillingMode == nil &&
		in.OnDemandThroughput == nil && len(in.GlobalSecondaryIndexUpdates) == 0 &&
		in.StreamSpecification == nil && in.SSESpecification == nil &&
		in.TableClass == nil && in.DeletionProtectionEnabled == nil &&
		in.WarmThroughput == nil && len(in.VectorIndexUpdates) == 0
}

// gsiUpdates checks the index actions: one action per entry, one entry
// per index, one index created or deleted per request.
func gsiUpdates(in *protocol.UpdateTableInput, billing string) error {
	seen := map[string]bool{}
	online := 0
	for i := range in.GlobalSecondaryIndexUpdates {
		u := &in.GlobalSecondaryIndexUpdates[i]
		name, err := gsiUpdateTarget(u)
		if err != nil {
			return err
		}
		if seen[name] {
			return apierr.Validationf(invalid+"Only one global secondary index update per index is allowed simultaneously. Index: %s", name)
		}
		seen[name] = true
		if u.Create != nil || u.Delete != nil {
			online++
		}
	}
	if online > 1 {
		return apierr.New(apierr.LimitExceeded, MsgOneOnlineIndex)
	}
	return gsiCreates(in, billing)
}

// gsiUpdateTarget returns the index an entry acts on, refusing entries with
// no action or with several.
func gsiUpdateTarget(u *protocol.GlobalSecondaryIndexUpdate) (string, error) {
	var names []string
	if u.Create != nil {
		names = append(names, *u.Create.IndexName)
	}
	if u.Update != nil {
		names = append(names, *u.Update.IndexName)
	}
	if u.Delete != nil {
		names = append(names, *u.Delete.IndexName)
	}
	if len(names) == 0 {
		return "", apierr.Validationf(invalid + "One of GlobalSecondaryIndexUpdate.Create, GlobalSecondaryIndexUpdate.Update or GlobalSecondaryIndexUpdate.Delete must be specified")
	}
	if len(names) > 1 { // facts 17.2: AWS pins a lowercase "one" only
		return "", apierr.Validationf(invalid + "Only one of GlobalSecondaryIndexUpdate.Create, GlobalSecondaryIndexUpdate.Update or GlobalSecondaryIndexUpdate.Delete can be specified")
	}
	return names[0], nil
}

// gsiCreates checks new indexes against the request's own definitions,
// which must name every key attribute of the new index. The billing mode
// is only known here when the request changes it; otherwise the engine
// calls IndexThroughput with the table's.
func gsiCreates(in *protocol.UpdateTableInput, billing string) error {
	defs, err := DefinitionMap(in.AttributeDefinitions)
	if err != nil {
		return err
	}
	for _, u := range in.GlobalSecondaryIndexUpdates {
		if u.Create == nil {
			continue
		}
		if in.AttributeDefinitions == nil {
			return undefinedIndexKeys(u.Create.KeySchema)
		}
		if err := gsiCreate(u.Create, defs, billing); err != nil {
			return err
		}
	}
	return nil
}

// undefinedIndexKeys refuses a new index given without AttributeDefinitions:
// its keys must be defined in the request even when the table already
// knows their types (facts 16.2).
func undefinedIndexKeys(ks []protocol.KeySchemaElement) error {
	if err := indexKeyShape(ks); err != nil {
		return err
	}
	names := make([]string, len(ks))
	for i, k := range ks {
		names[i] = *k.AttributeName
	}
	return apierr.Validationf(msgKeysNotDefined, strings.Join(names, ", "), "")
}

func gsiCreate(g *protocol.GlobalSecondaryIndex, defs map[string]string, billing string) error {
	if billing != "" {
		return GlobalSecondaryIndex(g, defs, billing, false)
	}
	if err := indexKeyShape(g.KeySchema); err != nil {
		return err
	}
	if err := KeyAttributesDefined(g.KeySchema, defs); err != nil {
		return err
	}
	return Projection(g.Projection)
}

// MsgOneOnlineIndex is the refusal of a second index created or deleted
// while one is: in one UpdateTable here, or while an earlier one still
// builds (the engine's check).
const MsgOneOnlineIndex = "Subscriber limit exceeded: Only 1 online index can be created or deleted simultaneously per table"
