package engine

import (
	"encoding/json"

	"github.com/sortkeydb/sortkey/internal/apierr"
	"github.com/sortkeydb/sortkey/internal/storage"
)

// Records older than streamRetention are trimmed: reads never return them
// (trimStreams deletes them in the background), TRIM_HORIZON starts after
// them, and asking for one, by sequence number or with an iterator made
// before it aged out, is a TrimmedDataAccessException, as DynamoDB
// Streams answers a consumer that fell more than a day behind.

// msgTrimmed is the TrimmedDataAccessException's text.
const msgTrimmed = "The requested stream records have been trimmed: records are kept for 24 hours"

// horizon is the number of the stream's oldest record still within
// retention or, when none is, the number its next record will take.
func (e *Engine) horizon(t *table, s *streamMeta) (uint64, error) {
	first, err := e.firstRetained(t, s, 0)
	if err != nil || first != 0 {
		return first, err
	}
	// No record is retained, and those before end may be deleted already:
	// end is known only under the numbering lock, after which a record
	// written since the scan has committed, so look once more below it.
	end, err := e.latest(t, s)
	if err != nil {
		return 0, err
	}
	if first, err = e.firstRetained(t, s, end); first == 0 {
		first = end
	}
	return first, err
}

// firstRetained is the number of the stream's first record within
// retention, below end unless end is 0; 0 when there is none.
func (e *Engine) firstRetained(t *table, s *streamMeta, end uint64) (uint64, error) {
	_, hi := storage.RecordRange(t.meta.ID)
	if s.Closed != 0 {
		end = min(end-1, s.End) + 1 // end 0 wraps to the largest number
	}
	if end != 0 {
		hi = storage.RecordKey(t.meta.ID, end)
	}
	oldest := e.now().Add(-streamRetention).UnixMilli()
	var found uint64
	var bad error
	err := e.db.Scan(storage.RecordKey(t.meta.ID, s.Start+1), hi, func(k, v []byte) bool {
		var r record
		if bad = json.Unmarshal(v, &r); bad != nil {
			return false
		}
		if r.At >= oldest {
			found = storage.RecordSeq(k)
		}
		return found == 0
	})
	if err == nil {
		err = bad
	}
	return found, err
}

// checkTrimmed refuses to read from record number next on if it is
// older than the stream's horizon.
func (e *Engine) checkTrimmed(t *table, s *streamMeta, next uint64) error {
	h, err := e.horizon(t, s)
	if err == nil && next < h {
		err = apierr.New(apierr.TrimmedDataAccess, msgTrimmed)
	}
	return err
}
