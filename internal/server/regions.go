package server

import (
	"context"
	"strings"
	"sync"

	"github.com/sortkeydb/sortkey/internal/apierr"
	"github.com/sortkeydb/sortkey/internal/engine"
	"github.com/sortkeydb/sortkey/internal/exports"
	"github.com/sortkeydb/sortkey/internal/imports"
	"github.com/sortkeydb/sortkey/internal/protocol"
)

// Regional serves each region from its own engine (package regions): the
// region is the one a request's SigV4 credential scope names. "" is the
// default region, whose engine is the one New was given.
type Regional interface {
	Engine(region string) (*engine.Engine, error)
	UpdateTable(ctx context.Context, region string, in *protocol.UpdateTableInput) (*protocol.UpdateTableOutput, error)
	DeleteTable(ctx context.Context, region string, in *protocol.DeleteTableInput) (*protocol.DeleteTableOutput, error)
	UpdateTimeToLive(ctx context.Context, region string, in *protocol.UpdateTimeToLiveInput) (*protocol.UpdateTimeToLiveOutput, error)
}

// opTables are one region's operations.
type opTables struct {
	ops, streamOps map[string]operation
}

// regional is the handler's regions, when they are kept apart.
type regional struct {
	r        Regional
	fallback string   // the default region's name
	tables   sync.Map // region -> *opTables, built at its first request
}

// SetRegions keeps regions apart: each request acts in the region its
// credential scope names, through r, and requests without one in region
// def, the engine New was given.
func (h *Handler) SetRegions(r Regional, def string) {
	h.regions = &regional{r: r, fallback: def}
	h.ops = withRegion(h.ops, r, "")
}

// withRegion is ops with UpdateTable, DeleteTable and UpdateTimeToLive
// going through r in region: they change replicas of global tables in
// other regions.
func withRegion(ops map[string]operation, r Regional, region string) map[string]operation {
	ops["UpdateTable"] = op(func(ctx context.Context, in *protocol.UpdateTableInput) (*protocol.UpdateTableOutput, error) {
		return r.UpdateTable(ctx, region, in)
	})
	ops["DeleteTable"] = op(func(ctx context.Context, in *protocol.DeleteTableInput) (*protocol.DeleteTableOutput, error) {
		return r.DeleteTable(ctx, region, in)
	})
	ops["UpdateTimeToLive"] = op(func(ctx context.Context, in *protocol.UpdateTimeToLiveInput) (*protocol.UpdateTimeToLiveOutput, error) {
		return r.UpdateTimeToLive(ctx, region, in)
	})
	return ops
}

// tablesFor is the operations of the region request r is signed for.
func (h *Handler) tablesFor(authz string) (map[string]operation, map[string]operation, error) {
	region := ScopeRegion(authz)
	if h.regions == nil || region == "" || region == h.regions.fallback {
		return h.ops, h.streamOps, nil
	}
	if t, ok := h.regions.tables.Load(region); ok {
		return t.(*opTables).ops, t.(*opTables).streamOps, nil
	}
	e, err := h.regions.r.Engine(region)
	if err != nil {
		return nil, nil, err
	}
	t := &opTables{ops: withRegion(regionOperations(e, region), h.regions.r, region), streamOps: streamOperations(e)}
	got, _ := h.regions.tables.LoadOrStore(region, t)
	return got.(*opTables).ops, got.(*opTables).streamOps, nil
}

// regionOperations is operations for a region other than the default:
// imports and exports, whose S3 buckets are configured on the default
// region's managers, are served there only.
func regionOperations(e *engine.Engine, region string) map[string]operation {
	ops := operations(e, imports.New(e), exports.New(e))
	for _, name := range []string{"ImportTable", "DescribeImport", "ListImports", "ExportTableToPointInTime", "DescribeExport", "ListExports"} {
		refused := apierr.Validationf("%s is served in sortkey's default region only, not in %s (docs/GLOBAL-TABLES.md)", name, region)
		ops[name] = operation{input: ops[name].input, run: func(context.Context, []byte, *observing, *injecting) (any, error) {
			return nil, refused
		}}
	}
	return ops
}

// ScopeRegion is the region of a SigV4 Authorization header's credential
// scope (Credential=KEY/DATE/REGION/SERVICE/aws4_request), or "" when it
// names none.
func ScopeRegion(authz string) string {
	_, cred, ok := strings.Cut(authz, "Credential=")
	if !ok {
		return ""
	}
	parts := strings.SplitN(cred, "/", 4)
	if len(parts) < 4 {
		return ""
	}
	return parts[2]
}
