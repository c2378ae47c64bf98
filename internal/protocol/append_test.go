package protocol

import (
	"encoding/json"
	"testing"

	"github.com/sortkeydb/sortkey/internal/attr"
)

// TestAppendJSONMatchesEncodingJSON checks each hand-written encoder
// against encoding/json on the same value: same members, same order,
// same omissions.
func TestAppendJSONMatchesEncodingJSON(t *testing.T) {
	it := attr.Item{"pk": attr.Str("k"), "n": attr.Num("1.5"), "m": {M: map[string]attr.Value{"x": {L: []attr.Value{attr.Str("y")}}}}}
	units := 1.5
	cc := &ConsumedCapacity{TableName: "t", CapacityUnits: &units}
	icm := &ItemCollectionMetrics{ItemCollectionKey: attr.Item{"pk": attr.Str("k")}, SizeEstimateRangeGB: []float64{0, 1}}
	empty := []Item{}
	for name, v := range map[string]Appender{
		"get":         &GetItemOutput{Item: it, ConsumedCapacity: cc},
		"get missing": &GetItemOutput{},
		"put":         &PutItemOutput{Attributes: it, ConsumedCapacity: cc, ItemCollectionMetrics: icm},
		"update bare": &UpdateItemOutput{},
		"delete":      &DeleteItemOutput{Attributes: it},
		"query":       &ReadOutput{Items: &[]Item{it, it}, Count: 2, ScannedCount: 3, LastEvaluatedKey: attr.Item{"pk": attr.Str("k")}, ConsumedCapacity: cc},
		"query none":  &ReadOutput{Items: &empty},
		"count":       &ReadOutput{Count: 7, ScannedCount: 9},
	} {
		got, err := v.AppendJSON(nil)
		want, err2 := json.Marshal(v)
		if err != nil || err2 != nil || string(got) != string(want) {
			t.Errorf("%s:\n got %s (%v)\nwant %s (%v)", name, got, err, want, err2)
		}
	}
}
