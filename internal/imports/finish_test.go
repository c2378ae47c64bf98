package imports

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sortkeydb/sortkey/internal/engine"
	"github.com/sortkeydb/sortkey/internal/protocol"
	"github.com/sortkeydb/sortkey/internal/s3dir"
)

// errFinish is the failure of unfinished's FinishImport.
var errFinish = errors.New("the table's CREATING hold could not be lifted")

// unfinished is the engine but for FinishImport, which fails for a
// complete import. The engine's own cannot fail then (the table cannot be
// deleted while the import holds it), so no request can make the finish
// step fail; the double stands in for that one method only.
type unfinished struct{ *engine.Engine }

func (u unfinished) FinishImport(table string, complete bool) error {
	if complete {
		return errFinish
	}
	return u.Engine.FinishImport(table, complete)
}

const finishRequest = `{"InputFormat":"DYNAMODB_JSON","S3BucketSource":{"S3Bucket":"imports","S3KeyPrefix":"data/"},
"TableCreationParameters":{"TableName":"unfinished","BillingMode":"PAY_PER_REQUEST",
"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}]}}`

// An import whose every item was written but whose table could not be
// finished ends FAILED, not COMPLETED.
func TestImportFailsWhenItCannotFinish(t *testing.T) {
	e, err := engine.Open(engine.Options{InMemory: true, TTLInterval: -1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	dir := t.TempDir()
	os.Mkdir(filepath.Join(dir, "data"), 0o755)
	if err := os.WriteFile(filepath.Join(dir, "data", "items.json"), []byte(`{"Item":{"pk":{"S":"a"}}}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	m := newManager(unfinished{e})
	m.Configure(s3dir.Map{Dirs: map[string]string{"imports": dir}}, t.TempDir())
	t.Cleanup(m.Close)
	d := awaitEnd(t, m, startImport(t, m))
	if d.ImportStatus != statusFailed || deref(d.FailureCode) != codeInternal ||
		!strings.Contains(deref(d.FailureMessage), errFinish.Error()) || d.ImportedItemCount != 1 {
		t.Fatalf("an import that could not finish: %s %s %q, %d imported",
			d.ImportStatus, deref(d.FailureCode), deref(d.FailureMessage), d.ImportedItemCount)
	}
}

func startImport(t *testing.T, m *Manager) string {
	t.Helper()
	var in protocol.ImportTableInput
	if err := json.Unmarshal([]byte(finishRequest), &in); err != nil {
		t.Fatal(err)
	}
	out, err := m.ImportTable(context.Background(), &in)
	if err != nil {
		t.Fatal(err)
	}
	return out.ImportTableDescription.ImportArn
}

// awaitEnd polls DescribeImport until the import is over.
func awaitEnd(t *testing.T, m *Manager, arn string) *protocol.ImportTableDescription {
	t.Helper()
	for range 2000 {
		out, err := m.DescribeImport(context.Background(), &protocol.DescribeImportInput{ImportArn: &arn})
		if err != nil {
			t.Fatal(err)
		}
		if d := out.ImportTableDescription; d.ImportStatus != statusInProgress {
			return d
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatal("the import did not end")
	return nil
}
