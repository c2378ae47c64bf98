package console

import (
	"context"
	"encoding/json"

	"github.com/sortkeydb/sortkey/internal/inproc"
	"github.com/sortkeydb/sortkey/internal/server"
)

// apiError is an error the API answered, shown to the user as it is.
type apiError = inproc.APIError

// client calls the DynamoDB API in process, through the same handler the
// server's clients reach over HTTP; its calls are not counted as the
// clients' (metrics, design coverage).
type client struct{ inproc.Client }

func (c client) call(ctx context.Context, op string, in, out any) error {
	return c.Call(server.Unobserved(ctx), op, in, out)
}

// Attribute values stay raw DynamoDB JSON: the console renders them, it
// never computes with them.
type (
	item     = map[string]map[string]json.RawMessage
	keyElem  struct{ AttributeName, KeyType string }
	indexDoc struct {
		IndexName      string
		KeySchema      []keyElem
		ItemCount      int64
		IndexSizeBytes int64
		IndexStatus    string
		Projection     struct{ ProjectionType string }
	}
	tableDoc struct {
		TableName              string
		TableStatus            string
		ItemCount              int64
		TableSizeBytes         int64
		KeySchema              []keyElem
		GlobalSecondaryIndexes []indexDoc
		LocalSecondaryIndexes  []indexDoc
		VectorIndexes          []vectorIndexDoc // vector.go
		AttributeDefinitions   []struct{ AttributeName, AttributeType string }
		BillingModeSummary     *struct{ BillingMode string }
		StreamSpecification    *struct {
			StreamEnabled  bool
			StreamViewType string
		}
	}
	ttlDoc struct {
		TimeToLiveDescription struct {
			TimeToLiveStatus string
			AttributeName    string
		}
	}
	scanIn struct {
		TableName         string
		IndexName         string `json:",omitempty"`
		Limit             int
		ExclusiveStartKey item `json:",omitempty"`
	}
	scanOut struct {
		Items            []item
		LastEvaluatedKey item
	}
)

func (c client) listTables(ctx context.Context) ([]string, error) {
	var names []string
	in := map[string]any{}
	for {
		var out struct {
			TableNames             []string
			LastEvaluatedTableName string
		}
		if err := c.call(ctx, "ListTables", in, &out); err != nil {
			return nil, err
		}
		names = append(names, out.TableNames...)
		if out.LastEvaluatedTableName == "" {
			return names, nil
		}
		in["ExclusiveStartTableName"] = out.LastEvaluatedTableName
	}
}

func (c client) describe(ctx context.Context, name string) (*tableDoc, error) {
	var out struct{ Table tableDoc }
	err := c.call(ctx, "DescribeTable", map[string]string{"TableName": name}, &out)
	return &out.Table, err
}

func (c client) ttl(ctx context.Context, name string) (*ttlDoc, error) {
	var out ttlDoc
	err := c.call(ctx, "DescribeTimeToLive", map[string]string{"TableName": name}, &out)
	return &out, err
}

func (c client) scan(ctx context.Context, in scanIn) (*scanOut, error) {
	var out scanOut
	err := c.call(ctx, "Scan", in, &out)
	return &out, err
}
