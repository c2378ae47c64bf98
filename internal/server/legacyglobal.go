package server

import (
	"context"

	"github.com/sortkeydb/sortkey/internal/apierr"
	"github.com/sortkeydb/sortkey/internal/protocol"
	"github.com/sortkeydb/sortkey/internal/validate"
)

// The legacy (2017.11.29) global tables operations. sortkey's global
// tables are of the current version, made by UpdateTable ReplicaUpdates,
// and DynamoDB answers these operations for such a table as for no
// table: GlobalTableNotFoundException, and an empty list.

func globalTableNotFound(name *string) error {
	if err := validate.GlobalTableName(name); err != nil {
		return err
	}
	return apierr.New(apierr.GlobalTableNotFound, "Global table not found: Global table with name: '%s' does not exist.", *name)
}

func describeGlobalTable(_ context.Context, in *protocol.DescribeGlobalTableInput) (*protocol.Empty, error) {
	return nil, globalTableNotFound(in.GlobalTableName)
}

func describeGlobalTableSettings(_ context.Context, in *protocol.DescribeGlobalTableSettingsInput) (*protocol.Empty, error) {
	return nil, globalTableNotFound(in.GlobalTableName)
}

func updateGlobalTable(_ context.Context, in *protocol.UpdateGlobalTableInput) (*protocol.Empty, error) {
	return nil, globalTableNotFound(in.GlobalTableName)
}

func listGlobalTables(_ context.Context, in *protocol.ListGlobalTablesInput) (*protocol.ListGlobalTablesOutput, error) {
	if err := validate.ListLimit(in.Limit); err != nil {
		return nil, err
	}
	return &protocol.ListGlobalTablesOutput{GlobalTables: []struct{}{}}, nil
}
