package agent

import (
	"context"
	"fmt"
	"net/http"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/sortkeydb/sortkey/internal/design"
	"github.com/sortkeydb/sortkey/internal/inproc"
)

// CollectionInput is item_collection's input.
type CollectionInput struct {
	Table     string         `json:"table" jsonschema:"the table"`
	Partition map[string]any `json:"partition" jsonschema:"the partition key attribute and its value in DynamoDB JSON, e.g. {\"pk\": {\"S\": \"U#42\"}}"`
	Design    string         `json:"design,omitempty" jsonschema:"a design file's text: each item is then named by the entity it is"`
}

// Collection is item_collection's result.
type Collection struct {
	Items     []map[string]any `json:"items" jsonschema:"the collection's items in sort key order, attribute values in DynamoDB JSON"`
	Entities  []string         `json:"entities,omitempty" jsonschema:"with a design, the entity of each item, in the order of items (\"\" for an item no entity describes)"`
	Counts    map[string]int   `json:"counts,omitempty" jsonschema:"with a design, the items of each entity"`
	Unnamed   int              `json:"unnamed,omitempty" jsonschema:"with a design, the items no entity of the table describes"`
	RCU       float64          `json:"rcu" jsonschema:"read capacity the Queries consumed"`
	Truncated bool             `json:"truncated,omitempty" jsonschema:"the collection holds more items than the server's item cap: query the table from the last item's key for the rest"`
}

const (
	msgPartition   = "partition names the partition key attribute and its value, one attribute, e.g. {\"pk\": {\"S\": \"U#42\"}}"
	msgNoSuchTable = "the design has no table %q"
)

func addCollectionTool(s *mcp.Server, h http.Handler, opts Options) {
	api := inproc.Client{API: h}
	mcp.AddTool(s, &mcp.Tool{Name: "item_collection", Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true},
		Description: "Reads an item collection, every item of one partition key value in sort key order, and with a design names the entity " +
			"of each item and counts them: the single-table view of what one partition holds."},
		func(ctx context.Context, _ *mcp.CallToolRequest, in CollectionInput) (*mcp.CallToolResult, Collection, error) {
			return collect(ctx, api, in, opts.MaxItems)
		})
}

func collect(ctx context.Context, api inproc.Client, in CollectionInput, maxItems int) (*mcp.CallToolResult, Collection, error) {
	if len(in.Partition) != 1 {
		return nil, Collection{}, fmt.Errorf("%s", msgPartition)
	}
	entities, err := tableEntities(in)
	if err != nil {
		return nil, Collection{}, err
	}
	out := Collection{Items: []map[string]any{}}
	req := partitionQuery(in)
	for len(out.Items) < maxItems {
		req["Limit"] = maxItems - len(out.Items)
		var page map[string]any
		if err := api.Call(ctx, "Query", req, &page); err != nil {
			return nil, Collection{}, err
		}
		out.RCU += capacityOf(page["ConsumedCapacity"])
		for _, it := range asList(page["Items"]) {
			out.Items = append(out.Items, asMap(it))
		}
		last, more := page["LastEvaluatedKey"]
		if !more {
			return nil, label(out, entities), nil
		}
		req["ExclusiveStartKey"] = last
	}
	out.Truncated = true
	return nil, label(out, entities), nil
}

// partitionQuery is the Query of one whole partition.
func partitionQuery(in CollectionInput) map[string]any {
	req := map[string]any{"TableName": in.Table, "ReturnConsumedCapacity": "TOTAL",
		"KeyConditionExpression": "#p = :p"}
	for name, v := range in.Partition {
		req["ExpressionAttributeNames"] = map[string]any{"#p": name}
		req["ExpressionAttributeValues"] = map[string]any{":p": v}
	}
	return req
}

// tableEntities are the design's entities of the table, nil without a
// design.
func tableEntities(in CollectionInput) ([]*design.Entity, error) {
	if in.Design == "" {
		return nil, nil
	}
	d, err := design.Parse([]byte(in.Design), fileName(""))
	if err != nil {
		return nil, err
	}
	known := false
	var out []*design.Entity
	for i := range d.Tables {
		known = known || d.Tables[i].Name == in.Table
	}
	for i := range d.Entities {
		if d.Entities[i].Table == in.Table {
			out = append(out, &d.Entities[i])
		}
	}
	if !known {
		return nil, fmt.Errorf(msgNoSuchTable, in.Table)
	}
	return out, nil
}

// label names each item's entity: the first whose discriminator and
// table key templates it fits.
func label(c Collection, entities []*design.Entity) Collection {
	if entities == nil {
		return c
	}
	c.Entities, c.Counts = make([]string, len(c.Items)), map[string]int{}
	for i, item := range c.Items {
		for _, e := range entities {
			if isEntity(e, item) {
				c.Entities[i] = e.Name
				break
			}
		}
		if c.Entities[i] == "" {
			c.Unnamed++
			continue
		}
		c.Counts[c.Entities[i]]++
	}
	return c
}
