package console

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"time"

	"github.com/sortkeydb/sortkey/internal/inproc"
)

func init() {
	routes = append(routes, func(c *Console) {
		c.mux.HandleFunc("GET /console/tables/{table}/stream", c.streamPage)
		c.mux.HandleFunc("GET /console/tables/{table}/stream/records", c.streamRecords)
		c.mux.HandleFunc("GET /console/static/tail.js", serveTailJS)
	})
}

const (
	streamsPrefix = "DynamoDBStreams_20120810."
	// streamReadBound caps the records one page load reads from the
	// shard's start; streamPoll caps what one poll of the JSON endpoint
	// reads; streamShown is how many rows the page keeps (tail.js trims
	// to the same number, which the page hands it).
	streamReadBound = 5000
	streamPoll      = 100
	streamShown     = 100
	maxSeqDigits    = 40
)

const (
	msgBadAfter = "after must be a stream sequence number: digits only, at most 40"
	msgNoStream = "this table has no stream enabled"
)

// streamsAPI reaches the Streams API through the same in-process handler.
func streamsAPI(api http.Handler) client {
	return client{inproc.Client{API: api, Target: streamsPrefix}}
}

// streamRow is one stream record as the page and the JSON endpoint show
// it; images and keys are plain JSON text, rendered as text.
type streamRow struct {
	Seq   string `json:"seq"`
	Event string `json:"event"`
	Time  string `json:"time"`
	Keys  string `json:"keys"`
	Old   string `json:"old"`
	New   string `json:"new"`
}

type streamView struct {
	Table, View, Arn, After string
	Rows                    []streamRow
	Read, Bound, Shown      int
	Partial, NoStream       bool
}

type wireRecord struct {
	EventName string `json:"eventName"`
	Dynamodb  struct {
		ApproximateCreationDateTime float64
		SequenceNumber              string
		Keys, OldImage, NewImage    item
	} `json:"dynamodb"`
}

// streamOf is the table's open stream ARN and view type, "" when none.
func (c *Console) streamOf(ctx context.Context, table string) (string, string, error) {
	var out struct {
		Table struct {
			LatestStreamArn     string
			StreamSpecification *struct {
				StreamEnabled  bool
				StreamViewType string
			}
		}
	}
	if err := c.api.call(ctx, "DescribeTable", map[string]string{"TableName": table}, &out); err != nil {
		return "", "", err
	}
	s := out.Table.StreamSpecification
	if s == nil || !s.StreamEnabled {
		return "", "", nil
	}
	return out.Table.LatestStreamArn, s.StreamViewType, nil
}

// iterator is a shard iterator of the stream's newest shard: from its
// start when after is "", else after that sequence number.
func (c *Console) iterator(ctx context.Context, arn, after string) (string, error) {
	sc := streamsAPI(c.api.API)
	var d struct {
		StreamDescription struct{ Shards []struct{ ShardId string } }
	}
	if err := sc.call(ctx, "DescribeStream", map[string]string{"StreamArn": arn}, &d); err != nil {
		return "", err
	}
	shards := d.StreamDescription.Shards
	if len(shards) == 0 {
		return "", nil
	}
	in := map[string]string{"StreamArn": arn, "ShardId": shards[len(shards)-1].ShardId, "ShardIteratorType": "TRIM_HORIZON"}
	if after != "" {
		in["ShardIteratorType"], in["SequenceNumber"] = "AFTER_SEQUENCE_NUMBER", after
	}
	var it struct{ ShardIterator string }
	err := sc.call(ctx, "GetShardIterator", in, &it)
	return it.ShardIterator, err
}

// readRecords reads at most bound records from the iterator on, oldest
// first, and says whether it stopped at the bound with more to read.
func (c *Console) readRecords(ctx context.Context, iter string, bound int) ([]streamRow, bool, error) {
	sc := streamsAPI(c.api.API)
	var rows []streamRow
	for iter != "" && len(rows) < bound {
		var out struct {
			Records           []wireRecord
			NextShardIterator string
		}
		if err := sc.call(ctx, "GetRecords", map[string]any{"ShardIterator": iter, "Limit": min(1000, bound-len(rows))}, &out); err != nil {
			return nil, false, err
		}
		for _, r := range out.Records {
			rows = append(rows, toRow(r))
		}
		if len(out.Records) == 0 {
			return rows, false, nil // caught up with the open shard
		}
		iter = out.NextShardIterator
	}
	return rows, iter != "" && len(rows) >= bound, nil
}

func toRow(r wireRecord) streamRow {
	d := r.Dynamodb
	at := time.Unix(int64(d.ApproximateCreationDateTime), 0).UTC().Format(time.RFC3339)
	return streamRow{Seq: d.SequenceNumber, Event: r.EventName, Time: at,
		Keys: itemText(d.Keys), Old: itemText(d.OldImage), New: itemText(d.NewImage)}
}

// itemText is an item as plain JSON, "" for none. Markup in values stays
// as written (no \u003c): the page and tail.js escape it as text.
func itemText(it item) string {
	if len(it) == 0 {
		return ""
	}
	raw, _ := json.Marshal(it)
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(plain("M", raw))
	return strings.TrimSuffix(b.String(), "\n")
}

func (c *Console) streamPage(w http.ResponseWriter, r *http.Request) {
	table := r.PathValue("table")
	arn, view, err := c.streamOf(r.Context(), table)
	if err != nil {
		failed(w, err)
		return
	}
	v := streamView{Table: table, View: view, Arn: arn, Bound: streamReadBound, Shown: streamShown, NoStream: arn == ""}
	if !v.NoStream {
		if err := c.fillStream(r.Context(), &v); err != nil {
			failed(w, err)
			return
		}
	}
	page(w, http.StatusOK, "stream", v)
}

// fillStream reads the shard from its start, at most streamReadBound
// records, and keeps the newest streamShown, newest first.
func (c *Console) fillStream(ctx context.Context, v *streamView) error {
	iter, err := c.iterator(ctx, v.Arn, "")
	if err != nil {
		return err
	}
	rows, partial, err := c.readRecords(ctx, iter, streamReadBound)
	if err != nil {
		return err
	}
	v.Read, v.Partial = len(rows), partial
	if len(rows) > 0 {
		v.After = rows[len(rows)-1].Seq
	}
	rows = rows[max(0, len(rows)-streamShown):]
	for i := len(rows) - 1; i >= 0; i-- {
		v.Rows = append(v.Rows, rows[i])
	}
	return nil
}

// streamRecords answers the records after ?after=, oldest first, at most
// streamPoll of them, as JSON for tail.js.
func (c *Console) streamRecords(w http.ResponseWriter, r *http.Request) {
	after, err := parseAfter(r.URL.Query().Get("after"))
	if err != nil {
		jsonAnswer(w, http.StatusBadRequest, map[string]string{"error": err.Error()})
		return
	}
	rows, err := c.recordsAfter(r.Context(), r.PathValue("table"), after)
	if err != nil {
		var ae *apiError
		status := http.StatusBadRequest
		if errors.As(err, &ae) && ae.Type == "ResourceNotFoundException" {
			status = http.StatusNotFound
		}
		jsonAnswer(w, status, map[string]string{"error": err.Error()})
		return
	}
	jsonAnswer(w, http.StatusOK, map[string]any{"records": rows})
}

func (c *Console) recordsAfter(ctx context.Context, table, after string) ([]streamRow, error) {
	arn, _, err := c.streamOf(ctx, table)
	if err != nil {
		return nil, err
	}
	if arn == "" {
		return nil, errors.New(msgNoStream)
	}
	iter, err := c.iterator(ctx, arn, after)
	if err != nil {
		return nil, err
	}
	rows, _, err := c.readRecords(ctx, iter, streamPoll)
	if rows == nil {
		rows = []streamRow{}
	}
	return rows, err
}

// parseAfter checks ?after=: "" or a sequence number's digits.
func parseAfter(s string) (string, error) {
	if len(s) > maxSeqDigits {
		return "", errors.New(msgBadAfter)
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return "", errors.New(msgBadAfter)
		}
	}
	return s, nil
}

func jsonAnswer(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

func serveTailJS(w http.ResponseWriter, r *http.Request) {
	b, _ := assets.ReadFile("assets/tail.js")
	w.Header().Set("Content-Type", "text/javascript; charset=utf-8")
	_, _ = w.Write(b)
}
