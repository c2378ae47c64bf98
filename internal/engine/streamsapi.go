package engine

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/sortkeydb/sortkey/internal/apierr"
	"github.com/sortkeydb/sortkey/internal/protocol"
	"github.com/sortkeydb/sortkey/internal/storage"
	"github.com/sortkeydb/sortkey/internal/validate"
)

// iteratorLifetime is how long a shard iterator may be used.
const iteratorLifetime = 15 * time.Minute

// fmtSeq renders a record number as DynamoDB's numeric sequence numbers,
// zero-padded so that string order is numeric order.
func fmtSeq(n uint64) string { return fmt.Sprintf("%021d", n) }

func shardID(t *table, s *streamMeta) string {
	return fmt.Sprintf("shardId-%020d-%08x", s.Created, uint32(t.meta.ID))
}

func (t *table) streamArn(s *streamMeta) string { return t.meta.Desc.TableArn + "/stream/" + s.Label }

// visible reports whether a stream can still be read: open, or closed
// less than the retention period ago.
func (e *Engine) visible(s *streamMeta) bool {
	return s.Closed == 0 || e.now().Sub(time.UnixMilli(s.Closed)) < streamRetention
}

// The Streams API's answers for what does not exist or cannot be read, as
// the service words them.
const (
	msgStreamNotFound  = msgNotFound + ": Stream: %s not found"
	msgNoShard         = msgNotFound + ": Shard does not exist"
	msgInvalidSequence = "Invalid SequenceNumber %s for shard %s"
	msgInvalidIterator = "Invalid ShardIterator"
	msgExpiredIterator = "Iterator expired. The iterator was created at time %s while right now it is %s. The iterator is valid for 15 minutes."
)

// streamByArn finds the table and stream a well-formed stream ARN names.
func (e *Engine) streamByArn(arn string) (*table, *streamMeta, error) {
	tableArn, label, _ := strings.Cut(arn, "/stream/")
	_, name, _ := strings.Cut(tableArn, ":table/")
	if t := e.lookup(name); t != nil && t.meta.Desc.TableArn == tableArn {
		for i := range t.meta.Streams {
			if s := &t.meta.Streams[i]; s.Label == label && e.visible(s) {
				return t, s, nil
			}
		}
	}
	return nil, nil, apierr.New(apierr.ResourceNotFound, msgStreamNotFound, arn)
}

// ListStreams lists the readable streams of every table, or of one, in
// table-name order, then oldest first. An ExclusiveStartStreamArn whose
// stream is gone still marks a place in that order: paging goes on after
// it (facts 31.1).
func (e *Engine) ListStreams(_ context.Context, in *protocol.ListStreamsInput) (*protocol.ListStreamsOutput, error) {
	if err := validate.ListStreams(in); err != nil {
		return nil, err
	}
	all := e.streamSummaries(in.TableName)
	start := listStart(all, in.ExclusiveStartStreamArn)
	limit := validate.MaxStreamsPage
	if in.Limit != nil {
		limit = int(*in.Limit)
	}
	out := &protocol.ListStreamsOutput{Streams: all[start:min(len(all), start+limit)]}
	if start+limit < len(all) {
		out.LastEvaluatedStreamArn = &out.Streams[len(out.Streams)-1].StreamArn
	}
	return out, nil
}

// listStart is the index of the first stream after the one arn names, by
// table name and then label (labels are creation times), or 0.
func listStart(all []protocol.StreamSummary, arn *string) int {
	if arn == nil {
		return 0
	}
	tableArn, label, _ := strings.Cut(*arn, "/stream/")
	_, name, _ := strings.Cut(tableArn, ":table/")
	for i, s := range all {
		if s.TableName > name || (s.TableName == name && s.StreamLabel > label) {
			return i
		}
	}
	return len(all)
}

func (e *Engine) streamSummaries(only *string) []protocol.StreamSummary {
	out := []protocol.StreamSummary{}
	for _, name := range e.tableNames() {
		t := e.lookup(name)
		if t == nil || (only != nil && *only != name) {
			continue
		}
		for i := range t.meta.Streams {
			if s := &t.meta.Streams[i]; e.visible(s) {
				out = append(out, protocol.StreamSummary{StreamArn: t.streamArn(s), TableName: name, StreamLabel: s.Label})
			}
		}
	}
	return out
}

// DescribeStream describes a stream and its one shard.
func (e *Engine) DescribeStream(_ context.Context, in *protocol.DescribeStreamInput) (*protocol.DescribeStreamOutput, error) {
	if err := validate.DescribeStream(in); err != nil {
		return nil, err
	}
	t, s, err := e.streamByArn(*in.StreamArn)
	if err != nil {
		return nil, err
	}
	shards, err := describeShards(t, s, in)
	if err != nil {
		return nil, err
	}
	status := "ENABLED"
	if s.Closed != 0 {
		status = "DISABLED"
	}
	d := protocol.StreamDescription{StreamArn: t.streamArn(s), StreamLabel: s.Label, StreamStatus: status,
		StreamViewType: s.View, CreationRequestDateTime: float64(s.Created) / 1000, TableName: t.meta.Desc.TableName,
		KeySchema: t.meta.Desc.KeySchema, Shards: shards}
	return &protocol.DescribeStreamOutput{StreamDescription: d}, nil
}

// describeShards lists the stream's shards after ExclusiveStartShardId, or
// the children of the ShardFilter's shard. The filter's shard must be the
// stream's; its one shard is never split, so it has no children. An
// ExclusiveStartShardId of no shard only ends the list (facts 31.2).
func describeShards(t *table, s *streamMeta, in *protocol.DescribeStreamInput) ([]protocol.Shard, error) {
	id := shardID(t, s)
	if f := shardFilterID(in.ShardFilter); f != nil && *f != id {
		return nil, apierr.New(apierr.ResourceNotFound, msgNoShard)
	}
	if in.ExclusiveStartShardId != nil || in.ShardFilter != nil {
		return []protocol.Shard{}, nil
	}
	rng := protocol.SequenceNumberRange{StartingSequenceNumber: fmtSeq(s.Start + 1)}
	if s.Closed != 0 {
		rng.EndingSequenceNumber = fmtSeq(s.End)
	}
	return []protocol.Shard{{ShardId: id, SequenceNumberRange: rng}}, nil
}

func shardFilterID(f *protocol.ShardFilter) *string {
	if f == nil {
		return nil
	}
	return f.ShardId
}

// iterator is what a shard iterator encodes: the stream, the next record
// number to read, and when it was issued.
type iterator struct {
	Arn    string `json:"a"`
	Next   uint64 `json:"n"`
	Issued int64  `json:"t"`
}

func (e *Engine) encodeIterator(arn string, next uint64) string {
	b, _ := json.Marshal(iterator{Arn: arn, Next: next, Issued: e.now().UnixMilli()})
	return base64.RawURLEncoding.EncodeToString(b)
}

// GetShardIterator returns an iterator at a position of the stream's shard.
func (e *Engine) GetShardIterator(_ context.Context, in *protocol.GetShardIteratorInput) (*protocol.GetShardIteratorOutput, error) {
	if err := validate.GetShardIterator(in); err != nil {
		return nil, err
	}
	t, s, err := e.streamByArn(*in.StreamArn)
	if err != nil {
		return nil, err
	}
	if *in.ShardId != shardID(t, s) {
		return nil, apierr.New(apierr.ResourceNotFound, msgNoShard)
	}
	next, err := e.position(t, s, *in.ShardIteratorType, in.SequenceNumber)
	if err != nil {
		return nil, err
	}
	return &protocol.GetShardIteratorOutput{ShardIterator: e.encodeIterator(t.streamArn(s), next)}, nil
}

// position is the first record number an iterator of the given type reads.
func (e *Engine) position(t *table, s *streamMeta, kind string, seq *string) (uint64, error) {
	switch kind {
	case "TRIM_HORIZON":
		return e.horizon(t, s)
	case "LATEST":
		return e.latest(t, s)
	}
	n, err := strconv.ParseUint(*seq, 10, 64)
	if err != nil || !s.holds(n) {
		return 0, apierr.Validationf(msgInvalidSequence, *seq, shardID(t, s))
	}
	if err := e.checkTrimmed(t, s, n); err != nil {
		return 0, err
	}
	if kind == "AFTER_SEQUENCE_NUMBER" {
		n++
	}
	return n, nil
}

// latest is the number the next record of the stream will have.
func (e *Engine) latest(t *table, s *streamMeta) (uint64, error) {
	if s.Closed != 0 {
		return s.End + 1, nil
	}
	seq, err := e.lockSeq(t)
	if err != nil {
		return 0, err
	}
	defer seq.Unlock()
	return seq.seq + 1, nil
}

// GetRecords reads up to Limit records from an iterator's position.
func (e *Engine) GetRecords(_ context.Context, in *protocol.GetRecordsInput) (*protocol.GetRecordsOutput, error) {
	if err := validate.GetRecords(in); err != nil {
		return nil, err
	}
	it, err := e.decodeIterator(*in.ShardIterator)
	if err != nil {
		return nil, err
	}
	t, s, err := e.streamByArn(it.Arn)
	if err != nil {
		return nil, err
	}
	if err := e.checkTrimmed(t, s, it.Next); err != nil {
		return nil, err
	}
	limit := validate.MaxRecordsPage
	if in.Limit != nil {
		limit = int(*in.Limit)
	}
	recs, next, err := e.readRecords(t, s, it.Next, limit)
	if err != nil {
		return nil, err
	}
	out := &protocol.GetRecordsOutput{Records: recs}
	if s.Closed == 0 || next <= s.End {
		n := e.encodeIterator(it.Arn, next)
		out.NextShardIterator = &n
	}
	return out, nil
}

func (e *Engine) decodeIterator(s string) (iterator, error) {
	var it iterator
	b, err := base64.RawURLEncoding.DecodeString(s)
	if err == nil {
		err = json.Unmarshal(b, &it)
	}
	if err != nil || it.Arn == "" {
		return it, apierr.Validationf(msgInvalidIterator)
	}
	if e.now().Sub(time.UnixMilli(it.Issued)) > iteratorLifetime {
		return it, apierr.New(apierr.ExpiredIterator, msgExpiredIterator,
			time.UnixMilli(it.Issued).UTC().Format(time.RFC1123), e.now().UTC().Format(time.RFC1123))
	}
	return it, nil
}

// readRecords reads the stream's records from number from on, skipping
// those past retention, and returns the number to read next.
func (e *Engine) readRecords(t *table, s *streamMeta, from uint64, limit int) ([]protocol.Record, uint64, error) {
	out := []protocol.Record{}
	next := from
	_, hi := storage.RecordRange(t.meta.ID)
	if s.Closed != 0 {
		hi = storage.RecordKey(t.meta.ID, s.End+1)
	}
	oldest := e.now().Add(-streamRetention).UnixMilli()
	var bad error
	err := e.db.Scan(storage.RecordKey(t.meta.ID, from), hi, func(k, v []byte) bool {
		var r record
		if bad = json.Unmarshal(v, &r); bad != nil {
			return false
		}
		seq := storage.RecordSeq(k)
		next = seq + 1
		if r.At >= oldest {
			out = append(out, e.wireRecord(t, s, seq, &r))
		}
		return len(out) < limit
	})
	if err == nil {
		err = bad
	}
	if len(out) < limit && s.Closed != 0 {
		next = s.End + 1 // read to the end of a closed shard: it is done
	}
	return out, next, err
}

func (e *Engine) wireRecord(t *table, s *streamMeta, seq uint64, r *record) protocol.Record {
	rec := protocol.Record{AwsRegion: e.region, EventID: fmt.Sprintf("%016x%016x", t.meta.ID, seq), EventName: r.Event,
		EventSource: "aws:dynamodb", EventVersion: "1.1",
		Dynamodb: protocol.StreamRecord{ApproximateCreationDateTime: float64(r.At / 1000), Keys: r.Keys, NewImage: r.New,
			OldImage: r.Old, SequenceNumber: fmtSeq(seq), SizeBytes: int64(r.Size), StreamViewType: s.View}}
	if r.TTL {
		rec.UserIdentity = &protocol.Identity{PrincipalId: "dynamodb.amazonaws.com", Type: "Service"}
	}
	return rec
}
