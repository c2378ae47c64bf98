package dataio

import (
	"strconv"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Change is one line of an incremental export: an item changed in the
// export's window, its maps given as DynamoDB JSON, names sorted (nil:
// the member is left out: no OldImage for an item created in the window
// or exported NEW_IMAGE, no NewImage for an item deleted).
type Change struct {
	Keys, Old, New []byte
	WriteMicros    int64
}

// Incremental is the window and view of an incremental export, recorded
// in its manifest-summary.json.
type Incremental struct {
	From, To time.Time
	View     string
}

// The members of an incremental export's line, in the order written.
const (
	memberMetadata  = "Metadata"
	memberKeys      = "Keys"
	memberOldImage  = "OldImage"
	memberNewImage  = "NewImage"
	memberWriteTime = "WriteTimestampMicros"
)

// AddChange writes one line of an incremental export and counts size in
// the billed size. A DYNAMODB_JSON export copies the maps' bytes; an ION
// export decodes them first.
func (w *DataFile) AddChange(c Change, size int) error {
	if !w.ion {
		w.line = appendChangeJSON(w.line[:0], c)
		return w.write(size)
	}
	line, err := appendChangeIon(w.line[:0], c)
	if err != nil {
		return err
	}
	w.line = line
	return w.write(size)
}

// changeMembers are c's members in writing order, those present only.
func changeMembers(c Change) (names []string, maps [][]byte) {
	for _, m := range []struct {
		name string
		raw  []byte
	}{{memberKeys, c.Keys}, {memberOldImage, c.Old}, {memberNewImage, c.New}} {
		if m.raw != nil {
			names, maps = append(names, m.name), append(maps, m.raw)
		}
	}
	return names, maps
}

func metadataOf(c Change) Item {
	return Item{memberWriteTime: &types.AttributeValueMemberN{Value: strconv.FormatInt(c.WriteMicros, 10)}}
}

func appendChangeJSON(dst []byte, c Change) []byte {
	dst = append(appendString(append(dst, '{'), memberMetadata), ':')
	dst = appendMap(dst, metadataOf(c))
	names, maps := changeMembers(c)
	for i, name := range names {
		dst = append(appendString(append(dst, ','), name), ':')
		dst = append(dst, maps[i]...)
	}
	return append(dst, "}\n"...)
}

func appendChangeIon(dst []byte, c Change) ([]byte, error) {
	dst = append(dst, ionVersionMarker+" {"+memberMetadata+":"...)
	dst = appendIonStruct(dst, metadataOf(c))
	names, maps := changeMembers(c)
	for i, name := range names {
		it, err := decodeMap(maps[i], 1)
		if err != nil {
			return nil, err
		}
		dst = appendIonStruct(append(append(dst, ','), name+":"...), it)
	}
	return append(dst, "}\n"...), nil
}
