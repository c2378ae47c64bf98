package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/sortkeydb/sortkey/internal/inproc"
)

// DefaultMaxBytes is the largest answer, in bytes of JSON, a data tool
// gives when Options.MaxBytes is 0: a few hundred items of an ordinary
// size, well inside an agent's context.
const DefaultMaxBytes = 256 << 10

const msgTooBig = "the answer is %d bytes, over this server's cap of %d (sortkey mcp --max-bytes): " +
	"ask for less, for example with a ProjectionExpression or a smaller request"

// bytesNote tells agents, in each data tool's description, what the cap does.
const bytesNote = " An answer larger than the server's byte cap is an error naming its size; " +
	"a Query or Scan is instead sent again with a smaller Limit and answered truncated; " +
	"a write that succeeded is never reported as failed: its answer drops its largest members (such as the returned Attributes), names them in dropped, and says truncated."

// call sends one data tool's request and keeps its answer within the cap.
type call struct {
	o      operation
	api    inproc.Client
	max    int
	plain  bool
	writes bool
}

// answer is the JSON of the answer to in; capped says the item cap
// lowered in's Limit.
func (c call) answer(ctx context.Context, in map[string]any, capped bool) (json.RawMessage, error) {
	a, b, err := c.once(ctx, in, capped)
	if err == nil && c.o.paged {
		a, b, err = c.shrink(ctx, in, a, b)
	}
	if err != nil || len(b) <= c.max {
		return b, err
	}
	if c.writes {
		return c.dropMembers(a)
	}
	return nil, fmt.Errorf(msgTooBig, len(b), c.max)
}

// once sends in and encodes the answer.
func (c call) once(ctx context.Context, in map[string]any, truncated bool) (Answer, []byte, error) {
	var out map[string]any
	if err := c.api.Call(ctx, c.o.op, in, &out); err != nil {
		return Answer{}, nil, err
	}
	_, more := out["LastEvaluatedKey"]
	if c.plain {
		toPlainAnswer(out)
	}
	a := Answer{Response: out, Truncated: truncated && more, PlainJSON: c.plain}
	b, err := json.Marshal(a)
	return a, b, err
}

// shrink sends a Query or Scan again with a Limit estimated from the
// items' sizes until its answer fits or holds one item, so the
// LastEvaluatedKey an agent continues from is DynamoDB's own.
func (c call) shrink(ctx context.Context, in map[string]any, a Answer, b []byte) (Answer, []byte, error) {
	for len(b) > c.max {
		items, _ := a.Response["Items"].([]any)
		n := len(items)
		if n <= 1 {
			break
		}
		in["Limit"] = max(1, min(n-1, n*c.max/len(b)))
		var err error
		if a, b, err = c.once(ctx, in, true); err != nil {
			return a, b, err
		}
	}
	return a, b, nil
}

// dropMembers fits a write's answer under the cap by removing its
// largest members, since the write itself has happened.
func (c call) dropMembers(a Answer) (json.RawMessage, error) {
	a.Truncated = true
	for _, k := range bySize(a.Response) {
		delete(a.Response, k)
		a.Dropped = append(a.Dropped, k)
		if b, err := json.Marshal(a); err != nil || len(b) <= c.max {
			return b, err
		}
	}
	return json.Marshal(a)
}

// bySize is m's members, the largest JSON first.
func bySize(m map[string]any) []string {
	size := make(map[string]int, len(m))
	keys := make([]string, 0, len(m))
	for k, v := range m {
		b, _ := json.Marshal(v)
		size[k] = len(b)
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(x, y string) int { return size[y] - size[x] })
	return keys
}
