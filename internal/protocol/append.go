package protocol

import (
	"encoding/json"
	"strconv"

	"github.com/sortkeydb/sortkey/internal/attr"
)

// Appender is an output that writes its own JSON. encoding/json re-parses
// and compacts whatever a Marshaler returns, which cost a fifth of a
// GetItem's server time; the hot outputs write items directly instead,
// with the same members, order and omissions as their json tags.
type Appender interface {
	AppendJSON(dst []byte) ([]byte, error)
}

// object writes a JSON object member by member.
type object struct {
	dst   []byte
	first bool
	err   error
}

func newObject(dst []byte) *object { return &object{dst: append(dst, '{'), first: true} }

func (o *object) name(n string) {
	if !o.first {
		o.dst = append(o.dst, ',')
	}
	o.first = false
	o.dst = append(append(append(o.dst, '"'), n...), '"', ':')
}

func (o *object) item(n string, it attr.Item) {
	if len(it) > 0 {
		o.name(n)
		o.dst = attr.AppendItemJSON(o.dst, it)
	}
}

// raw writes a member already in JSON.
func (o *object) raw(n string, b []byte) {
	o.name(n)
	o.dst = append(o.dst, b...)
}

func (o *object) int(n string, v int64) {
	o.name(n)
	o.dst = strconv.AppendInt(o.dst, v, 10)
}

// any writes a rarely present member through encoding/json.
func (o *object) any(n string, v any, present bool) {
	if !present || o.err != nil {
		return
	}
	b, err := json.Marshal(v)
	o.name(n)
	o.dst, o.err = append(o.dst, b...), err
}

func (o *object) done() ([]byte, error) { return append(o.dst, '}'), o.err }

// AppendJSON writes Item whenever the item exists, even when a projection
// left nothing of it: DynamoDB answers "Item": {} then, and no Item only
// when there is no item.
func (out *GetItemOutput) AppendJSON(dst []byte) ([]byte, error) {
	o := newObject(dst)
	if out.ItemJSON != nil {
		o.raw("Item", out.ItemJSON)
	}
	if out.Item != nil {
		o.name("Item")
		o.dst = attr.AppendItemJSON(o.dst, out.Item)
	}
	o.any("ConsumedCapacity", out.ConsumedCapacity, out.ConsumedCapacity != nil)
	return o.done()
}

// MarshalJSON makes encoding/json write ItemJSON too.
func (out *GetItemOutput) MarshalJSON() ([]byte, error) { return out.AppendJSON(nil) }

// writeOutput is the shape PutItem, UpdateItem and DeleteItem answer in.
func writeOutput(dst []byte, attrs Item, cc *ConsumedCapacity, icm *ItemCollectionMetrics) ([]byte, error) {
	o := newObject(dst)
	o.item("Attributes", attrs)
	o.any("ConsumedCapacity", cc, cc != nil)
	o.any("ItemCollectionMetrics", icm, icm != nil)
	return o.done()
}

func (out *PutItemOutput) AppendJSON(dst []byte) ([]byte, error) {
	return writeOutput(dst, out.Attributes, out.ConsumedCapacity, out.ItemCollectionMetrics)
}

func (out *UpdateItemOutput) AppendJSON(dst []byte) ([]byte, error) {
	return writeOutput(dst, out.Attributes, out.ConsumedCapacity, out.ItemCollectionMetrics)
}

func (out *DeleteItemOutput) AppendJSON(dst []byte) ([]byte, error) {
	return writeOutput(dst, out.Attributes, out.ConsumedCapacity, out.ItemCollectionMetrics)
}

func (out *ReadOutput) AppendJSON(dst []byte) ([]byte, error) {
	o := newObject(dst)
	switch {
	case out.ItemsJSON != nil:
		o.name("Items")
		o.dst = append(append(append(o.dst, '['), out.ItemsJSON...), ']')
	case out.Items != nil:
		o.name("Items")
		o.dst = appendItems(o.dst, *out.Items)
	}
	o.int("Count", out.Count)
	o.int("ScannedCount", out.ScannedCount)
	o.item("LastEvaluatedKey", out.LastEvaluatedKey)
	o.any("ConsumedCapacity", out.ConsumedCapacity, out.ConsumedCapacity != nil)
	return o.done()
}

// MarshalJSON makes encoding/json write ItemsJSON too.
func (out *ReadOutput) MarshalJSON() ([]byte, error) { return out.AppendJSON(nil) }

func appendItems(dst []byte, items []Item) []byte {
	dst = append(dst, '[')
	for i, it := range items {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = attr.AppendItemJSON(dst, it)
	}
	return append(dst, ']')
}
