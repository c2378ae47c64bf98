package agent

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/sortkeydb/sortkey/internal/design"
	"github.com/sortkeydb/sortkey/internal/design/workbench"
)

// DesignDoc is design_doc's answer.
type DesignDoc struct {
	Markdown string `json:"markdown" jsonschema:"the design as Markdown: tables, indexes, entity charts, access patterns with their read cost per call, write patterns, item collections"`
}

// WorkbenchInput is workbench_import's input.
type WorkbenchInput struct {
	Model string `json:"model" jsonschema:"the NoSQL Workbench data model, its JSON text as Workbench exports it"`
	File  string `json:"file,omitempty" jsonschema:"the name errors give the model (default model.json)"`
	JSON  bool   `json:"json,omitempty" jsonschema:"answer the design as JSON rather than YAML"`
}

// Converted is the answer of a conversion: the text and what it could
// not carry over.
type Converted struct {
	Text     string   `json:"text" jsonschema:"the converted file's text"`
	Warnings []string `json:"warnings" jsonschema:"what the other format cannot hold, so was left out or invented (a placeholder template, say)"`
}

func addDesignDocTools(s *mcp.Server) {
	read := &mcp.ToolAnnotations{ReadOnlyHint: true}
	mcp.AddTool(s, &mcp.Tool{Name: "design_doc", Annotations: read,
		Description: "Writes a design file as Markdown, as `sortkey design doc` does: table and index tables, entity charts, " +
			"access patterns with their read capacity per call, write patterns and a diagram of the item collections."}, designDoc)
	mcp.AddTool(s, &mcp.Tool{Name: "workbench_import", Annotations: read,
		Description: "Converts a NoSQL Workbench data model (JSON) into a sortkey design file (YAML, or JSON if asked), " +
			"as `sortkey design import-workbench` does, deriving key templates from the facets' sample items. Warnings name what Workbench does not say."}, importWorkbench)
	mcp.AddTool(s, &mcp.Tool{Name: "workbench_export", Annotations: read,
		Description: "Converts a sortkey design file into a NoSQL Workbench data model (JSON) that Workbench opens, " +
			"as `sortkey design export-workbench` does. Warnings name what Workbench cannot hold (LSIs, TTL, streams, access patterns)."}, exportWorkbench)
	mcp.AddTool(s, &mcp.Tool{Name: "design_cost", Annotations: read,
		Description: "Estimates a design's monthly on-demand cost from the request rate of each access and write pattern, " +
			"with `sortkey design doc`'s capacity estimate per call and us-east-1 list prices unless given others. " +
			"Answers each pattern's units per call, calls, units and cost per 30-day month, and the totals."}, designCost)
}

func designDoc(_ context.Context, _ *mcp.CallToolRequest, in DesignInput) (*mcp.CallToolResult, DesignDoc, error) {
	d, err := design.Parse([]byte(in.Design), fileName(in.File))
	if err != nil {
		return nil, DesignDoc{}, err
	}
	return nil, DesignDoc{Markdown: string(design.Markdown(d))}, nil
}

func importWorkbench(_ context.Context, _ *mcp.CallToolRequest, in WorkbenchInput) (*mcp.CallToolResult, Converted, error) {
	file := in.File
	if file == "" {
		file = "model.json"
	}
	d, warnings, err := workbench.Import([]byte(in.Model), file)
	if err != nil {
		return nil, Converted{}, err
	}
	text, err := design.Marshal(d, in.JSON)
	if err != nil {
		return nil, Converted{}, err
	}
	return nil, Converted{Text: string(text), Warnings: orEmpty(warnings)}, nil
}

func exportWorkbench(_ context.Context, _ *mcp.CallToolRequest, in DesignInput) (*mcp.CallToolResult, Converted, error) {
	d, err := design.Parse([]byte(in.Design), fileName(in.File))
	if err != nil {
		return nil, Converted{}, err
	}
	text, warnings, err := workbench.Export(d, time.Now())
	if err != nil {
		return nil, Converted{}, err
	}
	return nil, Converted{Text: string(text), Warnings: orEmpty(warnings)}, nil
}

// orEmpty is list, or an empty list for nil: a JSON [] rather than null.
func orEmpty(list []string) []string {
	if list == nil {
		return []string{}
	}
	return list
}

// The defaults of design_cost's prices: DynamoDB on-demand list prices in
// us-east-1, Standard table class, from aws.amazon.com/dynamodb/pricing/on-demand/
// after the price cut of 1 November 2024 (checked November 2026). The
// storage price ignores the first 25 GB-months the free tier gives.
const (
	defaultReadPrice    = 0.125 // USD per million read request units
	defaultWritePrice   = 0.625 // USD per million write request units
	defaultStoragePrice = 0.25  // USD per GB-month
)

// secondsPerMonth is a 30-day month.
const secondsPerMonth = 30 * 24 * 60 * 60

// The refusals of design_cost's input.
const (
	msgUnknownPatterns = "the design has no pattern numbered %s (its patterns: %s)"
	msgNotARead        = "consistent is for reads, and pattern %s is a write"
	msgNegative        = "%s must not be negative, got %v"
	msgNoRates         = `rates is empty: give each pattern's calls per second by its number, e.g. {"1": 50, "W1": 2}`
	msgTooLarge        = "the rates are too large to price: the month's units overflow"
)

// CostInput is design_cost's input.
type CostInput struct {
	DesignInput
	Rates      map[string]float64 `json:"rates" jsonschema:"calls per second of each pattern, by its number in the design: access patterns (\"1\", \"4b\") and write patterns (\"W1\")"`
	Consistent map[string]bool    `json:"consistent,omitempty" jsonschema:"access patterns (by number) that read strongly consistent, at twice the eventually consistent cost"`
	StorageGB  float64            `json:"storage_gb,omitempty" jsonschema:"the tables' size in GB, for the storage cost (default 0)"`
	Prices     *Prices            `json:"prices,omitempty" jsonschema:"prices in USD; each one left out is the us-east-1 on-demand list price"`
}

// Prices are what design_cost charges.
type Prices struct {
	ReadPerMillion  *float64 `json:"read_per_million,omitempty" jsonschema:"USD per million read request units (default 0.125)"`
	WritePerMillion *float64 `json:"write_per_million,omitempty" jsonschema:"USD per million write request units (default 0.625)"`
	StorageGBMonth  *float64 `json:"storage_gb_month,omitempty" jsonschema:"USD per GB-month of storage (default 0.25)"`
}

// PatternCost is one pattern's line of design_cost.
type PatternCost struct {
	Number         string  `json:"number"`
	Name           string  `json:"name"`
	Operation      string  `json:"operation"`
	Kind           string  `json:"kind" jsonschema:"read or write: which request unit the pattern consumes"`
	CallsPerSecond float64 `json:"calls_per_second"`
	UnitsPerCall   float64 `json:"units_per_call" jsonschema:"request units one call consumes, by sortkey design doc's estimate for 1 KB items"`
	CallsPerMonth  float64 `json:"calls_per_month" jsonschema:"calls in a 30-day month"`
	UnitsPerMonth  float64 `json:"units_per_month"`
	CostUSD        float64 `json:"cost_usd" jsonschema:"the month's request units at the price, in USD"`
	Note           string  `json:"note,omitempty" jsonschema:"why the line is not estimated (a Scan), or what the estimate leaves out"`
}

// CostReport is design_cost's answer.
type CostReport struct {
	Patterns           []PatternCost `json:"patterns"`
	ReadUnitsMonth     float64       `json:"read_units_per_month"`
	WriteUnitsMonth    float64       `json:"write_units_per_month"`
	ReadCostUSD        float64       `json:"read_cost_usd"`
	WriteCostUSD       float64       `json:"write_cost_usd"`
	StorageCostUSD     float64       `json:"storage_cost_usd"`
	TotalUSD           float64       `json:"total_usd" jsonschema:"the month's cost: reads, writes and storage"`
	Unrated            []string      `json:"unrated" jsonschema:"patterns of the design with no rate given, left out of the totals"`
	Prices             Prices        `json:"prices" jsonschema:"the prices charged"`
	EstimateAssumption string        `json:"assumption"`
}

const costAssumption = "1 KB items; a read unit per 4 KB (0.5 eventually consistent, 1 strongly, 2 in a transaction), " +
	"a write unit per 1 KB for each item and index entry written (2 in a transaction); 30-day month; no free tier"

func designCost(_ context.Context, _ *mcp.CallToolRequest, in CostInput) (*mcp.CallToolResult, CostReport, error) {
	d, err := design.Parse([]byte(in.Design), fileName(in.File))
	if err != nil {
		return nil, CostReport{}, err
	}
	rep, err := costOf(d, in)
	return nil, rep, err
}

// costOf is design_cost's answer for the parsed design d.
func costOf(d *design.Design, in CostInput) (CostReport, error) {
	prices, err := checkCostInput(d, in)
	if err != nil {
		return CostReport{}, err
	}
	rep := CostReport{Patterns: []PatternCost{}, Unrated: []string{}, Prices: prices, EstimateAssumption: costAssumption}
	for i := range d.Patterns {
		rep.add(readLine(&d.Patterns[i], in), in.Rates, *prices.ReadPerMillion)
	}
	for i := range d.Writes {
		rep.add(writeLine(d, &d.Writes[i]), in.Rates, *prices.WritePerMillion)
	}
	rep.StorageCostUSD = money(in.StorageGB * *prices.StorageGBMonth)
	rep.ReadCostUSD, rep.WriteCostUSD = money(rep.ReadCostUSD), money(rep.WriteCostUSD)
	rep.TotalUSD = money(rep.ReadCostUSD + rep.WriteCostUSD + rep.StorageCostUSD)
	// JSON has no infinity: a sum that overflowed could not be answered.
	if math.IsInf(rep.TotalUSD+rep.ReadUnitsMonth+rep.WriteUnitsMonth, 0) || math.IsNaN(rep.TotalUSD+rep.ReadUnitsMonth+rep.WriteUnitsMonth) {
		return CostReport{}, errors.New(msgTooLarge)
	}
	return rep, nil
}

// add prices line at its rate and counts it in the totals, or notes the
// pattern as unrated.
func (rep *CostReport) add(line PatternCost, rates map[string]float64, perMillion float64) {
	rate, rated := rates[line.Number]
	if !rated {
		rep.Unrated = append(rep.Unrated, line.Number)
		return
	}
	line.CallsPerSecond = rate
	line.CallsPerMonth = rate * secondsPerMonth
	line.UnitsPerMonth = line.UnitsPerCall * line.CallsPerMonth
	cost := line.UnitsPerMonth / 1e6 * perMillion
	line.CostUSD = money(cost)
	if line.Kind == "read" {
		rep.ReadUnitsMonth += line.UnitsPerMonth
		rep.ReadCostUSD += cost
	} else {
		rep.WriteUnitsMonth += line.UnitsPerMonth
		rep.WriteCostUSD += cost
	}
	rep.Patterns = append(rep.Patterns, line)
}

func readLine(p *design.Pattern, in CostInput) PatternCost {
	units, _, ok := design.ReadUnits(p, in.Consistent[p.Number])
	line := PatternCost{Number: p.Number, Name: p.Name, Operation: p.Operation, Kind: "read", UnitsPerCall: units}
	switch {
	case p.Operation == "Scan":
		line.Note = "not estimated: a Scan reads the whole table, 0.5 units per 4 KB of it (1 strongly consistent)"
	case !ok:
		line.Note = "not estimated: not a read operation"
	case p.Filter != "":
		line.Note = "plus the items the filter discards, which are read and paid for"
	}
	return line
}

func writeLine(d *design.Design, w *design.WritePattern) PatternCost {
	return PatternCost{Number: w.Number, Name: w.Name, Operation: w.Operation, Kind: "write", UnitsPerCall: design.WriteUnits(d, w)}
}

// money rounds USD to a hundredth of a cent, so that float sums read as
// amounts.
func money(usd float64) float64 { return math.Round(usd*1e4) / 1e4 }

// checkCostInput refuses rates and consistent reads of patterns the
// design lacks, negative numbers, and no rates at all; it returns the
// prices with their defaults filled in.
func checkCostInput(d *design.Design, in CostInput) (Prices, error) {
	if len(in.Rates) == 0 {
		return Prices{}, errors.New(msgNoRates)
	}
	reads, writes := patternNumbers(d)
	if err := known(in.Rates, append(reads, writes...)); err != nil {
		return Prices{}, err
	}
	if err := known(in.Consistent, append(reads, writes...)); err != nil {
		return Prices{}, err
	}
	for n, strong := range in.Consistent {
		if strong && slices.Contains(writes, n) {
			return Prices{}, fmt.Errorf(msgNotARead, n)
		}
	}
	for n, r := range in.Rates {
		if r < 0 {
			return Prices{}, fmt.Errorf(msgNegative, "rates."+n, r)
		}
	}
	return pricesOf(in)
}

func patternNumbers(d *design.Design) (reads, writes []string) {
	for _, p := range d.Patterns {
		reads = append(reads, p.Number)
	}
	for _, w := range d.Writes {
		writes = append(writes, w.Number)
	}
	return reads, writes
}

// known refuses the keys of m that are not among numbers, naming them
// all, sorted.
func known[V any](m map[string]V, numbers []string) error {
	var unknown []string
	for n := range m {
		if !slices.Contains(numbers, n) {
			unknown = append(unknown, n)
		}
	}
	if len(unknown) == 0 {
		return nil
	}
	slices.Sort(unknown)
	return fmt.Errorf(msgUnknownPatterns, strings.Join(unknown, ", "), strings.Join(numbers, ", "))
}

// pricesOf is the input's prices, the defaults where left out.
func pricesOf(in CostInput) (Prices, error) {
	p := Prices{}
	if in.Prices != nil {
		p = *in.Prices
	}
	for _, f := range []struct {
		name  string
		price **float64
		def   float64
	}{{"prices.read_per_million", &p.ReadPerMillion, defaultReadPrice},
		{"prices.write_per_million", &p.WritePerMillion, defaultWritePrice},
		{"prices.storage_gb_month", &p.StorageGBMonth, defaultStoragePrice}} {
		if *f.price == nil {
			*f.price = &f.def
		}
		if **f.price < 0 {
			return Prices{}, fmt.Errorf(msgNegative, f.name, **f.price)
		}
	}
	if in.StorageGB < 0 {
		return Prices{}, fmt.Errorf(msgNegative, "storage_gb", in.StorageGB)
	}
	return p, nil
}
