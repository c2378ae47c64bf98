package engine

import (
	"crypto/rand"
	"fmt"

	"strings"

	"github.com/sortkeydb/sortkey/internal/apierr"
	"github.com/sortkeydb/sortkey/internal/protocol"
)

func (e *Engine) tableArn(name string) string { return e.arnPrefix + name }

// rebaseArns renames a stored table's ARNs after the region and account
// of this opening: a database reopened under another account (or region)
// names its tables there, and ARNs it hands out resolve back to them.
func (e *Engine) rebaseArns(d *protocol.TableDescription) {
	d.TableArn = e.tableArn(d.TableName)
	for i := range d.GlobalSecondaryIndexes {
		g := &d.GlobalSecondaryIndexes[i]
		g.IndexArn = d.TableArn + "/index/" + g.IndexName
	}
	for i := range d.LocalSecondaryIndexes {
		l := &d.LocalSecondaryIndexes[i]
		l.IndexArn = d.TableArn + "/index/" + l.IndexName
	}
	if d.LatestStreamLabel != "" {
		d.LatestStreamArn = d.TableArn + "/stream/" + d.LatestStreamLabel
	}
}

// tableFromArn returns the table name an ARN of this region and account
// names, or "" when it is not such an ARN.
func (e *Engine) tableFromArn(arn string) string {
	prefix := e.tableArn("")
	if !strings.HasPrefix(arn, prefix) {
		return ""
	}
	name := arn[len(prefix):]
	if strings.Contains(name, "/") {
		return ""
	}
	return name
}

// newUUID returns a random version-4 UUID, DynamoDB's form of TableId.
func newUUID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}

// resolveName turns a TableName parameter, which DynamoDB accepts as a name
// or as the table's ARN, into a table name.
func (e *Engine) resolveName(name string) (string, error) {
	if !strings.HasPrefix(name, "arn:") {
		return name, nil
	}
	if t := e.tableFromArn(name); t != "" {
		return t, nil
	}
	return "", apierr.Validationf(invalidArnText, name)
}

// nameOf is resolveName for callers that report a bad ARN later: it
// returns "" for one.
func (e *Engine) nameOf(ref string) string {
	name, _ := e.resolveName(ref)
	return name
}
