package conformance_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// render writes an answer as a transcript holds it: the JSON of a success
// with its keys sorted and what differs from run to run redacted; for an
// error, its status, type (with its namespace) and message, then any
// other members.
func render(t *testing.T, r reply, paths []string, n *numbering) string {
	v := decode(t, r.body)
	switch {
	case r.status == 200 && paths != nil:
		return selected(t, r.body, paths, n)
	case r.status == 200:
		return indent(t, n.redact(v))
	}
	m, ok := v.(map[string]any)
	if !ok {
		return fmt.Sprintf("error %d\n%v", r.status, v)
	}
	typ, _ := m["__type"].(string)
	msg, _ := m["message"].(string)
	if msg == "" {
		msg, _ = m["Message"].(string)
	}
	delete(m, "__type")
	delete(m, "message")
	delete(m, "Message")
	// The type keeps its namespace (com.amazon.coral.validate#…): SDKs
	// read only what follows the #, but DynamoDB's namespaces differ by
	// error, and a client that logs the whole type sees them.
	rest := n.redact(m)
	out := fmt.Sprintf("error %d %s\n%s", r.status, typ, n.redactString(msg))
	if len(m) > 0 {
		out += "\n" + indent(t, rest)
	}
	return out
}

// decode is a JSON answer; one that is not JSON (a 413 from the HTTP
// layer, say) is kept as its text.
func decode(t *testing.T, body []byte) any {
	if len(body) == 0 {
		return map[string]any{}
	}
	d := json.NewDecoder(bytes.NewReader(body))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return string(body)
	}
	return v
}

// indent is v as indented JSON, with <, > and & as themselves: the
// redactions are <time> and such.
func indent(t *testing.T, v any) string {
	var b bytes.Buffer
	e := json.NewEncoder(&b)
	e.SetEscapeHTML(false)
	e.SetIndent("", "  ")
	if err := e.Encode(v); err != nil {
		t.Fatal(err)
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// selected writes only the members at paths of a success, one line each
// (path: compact JSON), for calls whose whole answer is beside the point;
// select=() writes nothing, for an answer that is only saved.
func selected(t *testing.T, body []byte, paths []string, n *numbering) string {
	v := n.redact(decode(t, body))
	var lines []string
	for _, p := range paths {
		if p == "" {
			continue
		}
		var b bytes.Buffer
		e := json.NewEncoder(&b)
		e.SetEscapeHTML(false)
		if err := e.Encode(at(v, p)); err != nil {
			t.Fatal(err)
		}
		lines = append(lines, p+": "+strings.TrimSuffix(b.String(), "\n"))
	}
	return strings.Join(lines, "\n")
}

// numbering numbers, per file, the values that differ from run to run but
// whose equality a transcript checks: the first revision a file sees
// prints as <RevisionId 1>, the next new one as <RevisionId 2>, one seen
// again as its label, in members and inside messages alike. The ids
// inside stream, backup, export and import ARNs are numbered the same
// way, per ARN.
type numbering struct {
	label map[string]string // value → label
	arn   map[string]string // ARN → its id's label
	count map[string]int    // member name or ARN kind → labels given
}

func newNumbering() *numbering {
	return &numbering{label: map[string]string{}, arn: map[string]string{}, count: map[string]int{}}
}

// numbered are the members whose values a numbering labels.
var numbered = map[string]bool{"TableId": true, "RevisionId": true}

func (n *numbering) labelOf(member, v string) string {
	if l, ok := n.label[v]; ok {
		return l
	}
	n.count[member]++
	l := fmt.Sprintf("<%s %d>", member, n.count[member])
	n.label[v] = l
	return l
}

// redact replaces what no two runs (or two accounts) share: times, numbering,
// stream labels, and the account and numbering inside ARNs. The region stays:
// -region picks the one a replay's expectations hold for. Members are
// visited in key order, so that labels are given in the order printed.
func (n *numbering) redact(v any) any {
	switch v := v.(type) {
	case map[string]any:
		for _, k := range slices.Sorted(maps.Keys(v)) {
			v[k] = n.redactMember(k, v[k])
		}
	case []any:
		for i, x := range v {
			v[i] = n.redact(x)
		}
	case string:
		return n.redactString(v)
	}
	return v
}

func (n *numbering) redactMember(k string, v any) any {
	switch s, isString := v.(string); {
	case strings.HasSuffix(k, "Time"): // CreationDateTime, ExportTime, …
		return "<time>"
	case numbered[k] && isString:
		return n.labelOf(k, s)
	case k == "LatestStreamLabel" || k == "StreamLabel":
		return "<label>" // the id its stream's ARN ends with, numbered there
	}
	return n.redact(v)
}

var (
	arnAccount = regexp.MustCompile(`(arn:aws:dynamodb:[a-z0-9-]+:)\d{12}:`)
	arnID      = regexp.MustCompile(`table/[^/"\s]+/(stream|backup|export|import)/([^/"\s<][^/"\s]*)`)
)

// redactString labels the numbered values a string holds, the ids inside
// ARNs (numbered too: /backup/<backup 1>), and hides the account.
func (n *numbering) redactString(s string) string {
	for v, l := range n.label {
		s = strings.ReplaceAll(s, v, l)
	}
	s = arnAccount.ReplaceAllString(s, "${1}<account>:")
	return arnID.ReplaceAllStringFunc(s, func(m string) string {
		sub := arnID.FindStringSubmatch(m)
		// Keyed by the whole ARN: two tables' streams can share a label.
		l, ok := n.arn[m]
		if !ok {
			n.count[sub[1]]++
			l = fmt.Sprintf("<%s %d>", sub[1], n.count[sub[1]])
			n.arn[m] = l
			if sub[1] != "stream" {
				// Unique on their own: an export's id in its manifest's
				// path prints as its label too.
				n.label[sub[2]] = l
			}
		}
		return strings.TrimSuffix(m, sub[2]) + l
	})
}

// at is the value at a dotted path (Table.LatestStreamArn, Items.0.pk.S)
// of a decoded answer, nil where there is none.
func at(v any, path string) any {
	for _, step := range strings.Split(path, ".") {
		switch x := v.(type) {
		case map[string]any:
			v = x[step]
		case []any:
			i, err := strconv.Atoi(step)
			if err != nil || i < 0 || i >= len(x) {
				return nil
			}
			v = x[i]
		default:
			return nil
		}
	}
	return v
}

// lookup is the string at a dotted path of a JSON answer.
func lookup(t *testing.T, body []byte, path string) string {
	s, ok := at(decode(t, body), path).(string)
	if !ok {
		t.Fatalf("save: %s is not a string in %s", path, body)
	}
	return s
}

// createdTable is the table a successful call created, if it created one.
func createdTable(op string, body []byte) string {
	var out struct {
		TableDescription struct{ TableName string }
	}
	switch op {
	case "CreateTable", "RestoreTableFromBackup", "RestoreTableToPointInTime":
		_ = json.Unmarshal(body, &out)
	}
	return out.TableDescription.TableName
}
