package engine

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/sortkeydb/sortkey/internal/attr"
	"github.com/sortkeydb/sortkey/internal/protocol"
	"github.com/sortkeydb/sortkey/internal/storage"
)

// testdata/layout1 is a data directory as sortkey wrote it before catalog
// format 2, when partitions were ordered by FNV-1a: testdata/layout1.sh
// made it with the build of commit 492d267, on a virtual clock that
// started at 2026-11-01T00:00:00Z. It holds three tables (one with a
// multi-attribute GSI, an LSI, a stream and point-in-time recovery), a
// backup, history of changes made after the backup, and a partition key
// with a NUL byte in it.

// layout1Now is a moment after the fixture's last change, inside its
// recovery window.
var layout1Now = time.Date(2026, 11, 1, 1, 0, 0, 0, time.UTC)

// layout1 copies the fixture to a fresh data directory, or, under the
// PostgreSQL test switch, into the schema that directory names.
func layout1(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "data")
	if !storage.UnderTestStore() {
		copyDir(t, "testdata/layout1", dir)
		return dir
	}
	url := os.Getenv(storage.TestStoreEnv)
	t.Setenv(storage.TestStoreEnv, "")
	src := filepath.Join(t.TempDir(), "pebble")
	copyDir(t, "testdata/layout1", src)
	peb, err := storage.Open(storage.Options{Dir: src})
	if err != nil {
		t.Fatal(err)
	}
	defer peb.Close()
	os.Setenv(storage.TestStoreEnv, url)
	pg, err := storage.Open(storage.Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer pg.Close()
	copyStore(t, peb, pg)
	return dir
}

func copyDir(t *testing.T, from, to string) {
	t.Helper()
	if err := os.CopyFS(to, os.DirFS(from)); err != nil {
		t.Fatal(err)
	}
}

// copyStore copies every key of src to dst; stats keys by their sums,
// which a store keeps its own way.
func copyStore(t *testing.T, src, dst *storage.DB) {
	t.Helper()
	b := dst.NewBatch()
	var bad error
	err := src.Scan(nil, nil, func(k, v []byte) bool {
		if k[0] != 't' {
			b.Set(k, v)
			return true
		}
		st, err := src.ReadStats(k)
		bad = err
		b.AddStats(k, st)
		return err == nil
	})
	if err = errors.Join(err, bad, b.Commit()); err != nil {
		t.Fatal(err)
	}
}

// TestOldLayoutIsRefusedUntilUpgraded: a store of the earlier layout is
// refused with the command that converts it, never read; once converted,
// every item, index entry, backup and point in time is where reads look.
func TestOldLayoutIsRefusedUntilUpgraded(t *testing.T) {
	dir := layout1(t)
	opts := Options{Dir: dir, Now: func() time.Time { return layout1Now }}
	if _, err := Open(opts); !errors.Is(err, ErrUpgrade) || !strings.Contains(err.Error(), "sortkey upgrade") {
		t.Fatalf("Open of the old layout: %v, want ErrUpgrade naming sortkey upgrade", err)
	}
	var seen []string
	rep, err := Upgrade(opts, func(what string, keys int64) { seen = append(seen, what) })
	// 20 items, 18 GSI and 18 LSI entries, 26 history records in orders;
	// 20 in counters, 5 in blobs; 21 copies in the backup.
	if err != nil || rep != (UpgradeReport{Tables: 3, Backups: 1, Keys: 128}) {
		t.Fatalf("Upgrade: %+v, %v", rep, err)
	}
	if want := []string{"blobs", "counters", "orders", "backup before-changes of orders"}; !slices.Equal(seen, want) {
		t.Fatalf("progress %q, want %q", seen, want)
	}
	e, err := Open(opts)
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	checkLayout1(t, e)
	// Pebble refuses a second process; a PostgreSQL schema refuses an
	// upgrade while a node holds its lease.
	if _, err := Upgrade(opts, nil); !errors.Is(err, storage.ErrLocked) && !errors.Is(err, errRunning) {
		t.Fatalf("Upgrade beside a running engine: %v", err)
	}
}

// TestUpgradeOfAConvertedStoreDoesNothing: Upgrade is safe to run again
// (after a crash, or by mistake): keys already moved stay put.
func TestUpgradeOfAConvertedStoreDoesNothing(t *testing.T) {
	dir := layout1(t)
	opts := Options{Dir: dir, Now: func() time.Time { return layout1Now }}
	if _, err := Upgrade(opts, nil); err != nil {
		t.Fatal(err)
	}
	if rep, err := Upgrade(opts, nil); err != nil || rep != (UpgradeReport{}) {
		t.Fatalf("second Upgrade: %+v, %v", rep, err)
	}
	e, err := Open(opts)
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	checkLayout1(t, e)
}

// checkLayout1 reads the fixture's data every way a user would.
func checkLayout1(t *testing.T, e *Engine) {
	t.Helper()
	want := layout1Items(false)
	if got := scanAll(t, e, "orders"); !slices.Equal(sorted(got), want) || !partitionsTogether(got) {
		t.Fatalf("Scan of orders:\n%q\nwant (in some partition order)\n%q", got, want)
	}
	for _, it := range want {
		pk, sk, _ := strings.Cut(strings.SplitN(it, "=", 2)[0], "/")
		if got := getItem(t, e, "orders", `{"pk":{"S":`+jsonString(pk)+`},"sk":{"S":"`+sk+`"}}`); got != it {
			t.Fatalf("GetItem %s/%s: %q, want %q", pk, sk, got, it)
		}
	}
	q := `{"TableName":"orders","IndexName":"byPlace","KeyConditionExpression":"g1 = :a AND g2 = :b",
		"ExpressionAttributeValues":{":a":{"S":"place-1"},":b":{"N":"1"}}}`
	if got := strings.Join(pageStrings(t, must[protocol.ReadOutput](t)(call(t, e.Query, q))), " "); got != "A/1=2 B/1=1 C/1=2 D/1=1" {
		t.Fatalf("Query of the multi-attribute GSI: %s", got)
	}
	q = `{"TableName":"orders","IndexName":"byNum","KeyConditionExpression":"pk = :p","ExpressionAttributeValues":{":p":{"S":"C"}}}`
	if got := strings.Join(pageStrings(t, must[protocol.ReadOutput](t)(call(t, e.Query, q))), " "); got != "C/4 C/3 C/1 C/0" {
		t.Fatalf("Query of the LSI: %s", got)
	}
	for _, table := range []string{"counters", "blobs"} {
		if n := len(scanAll(t, e, table)); n != map[string]int{"counters": 20, "blobs": 5}[table] {
			t.Fatalf("Scan of %s: %d items", table, n)
		}
	}
	// The fixture's AWS CLI (v1) encoded its binary values once more:
	// the item put as "AAEC" holds the bytes of that text.
	if getItem(t, e, "counters", `{"n":{"N":"-5"}}`) == "" || getItem(t, e, "blobs", `{"b":{"B":"QUFFQw=="}}`) == "" {
		t.Fatal("a number or binary partition key is not found after the upgrade")
	}
	checkRestores(t, e)
	must[protocol.PutItemOutput](t)(call(t, e.PutItem, `{"TableName":"orders","Item":{"pk":{"S":"A"},"sk":{"S":"9"},"v":{"N":"3"}}}`))
	if got := getItem(t, e, "orders", `{"pk":{"S":"A"},"sk":{"S":"9"}}`); got != "A/9=3" {
		t.Fatalf("an item written after the upgrade: %q", got)
	}
}

// checkRestores restores the backup and the moment between it and the
// changes: both are the table before the changes.
func checkRestores(t *testing.T, e *Engine) {
	t.Helper()
	backups := must[protocol.ListBackupsOutput](t)(call(t, e.ListBackups, `{}`))
	if len(backups.BackupSummaries) != 1 {
		t.Fatalf("backups: %+v", backups)
	}
	must[protocol.RestoreTableOutput](t)(call(t, e.RestoreTableFromBackup,
		`{"TargetTableName":"fromBackup","BackupArn":"`+backups.BackupSummaries[0].BackupArn+`"}`))
	must[protocol.RestoreTableOutput](t)(call(t, e.RestoreTableToPointInTime,
		`{"SourceTableName":"orders","TargetTableName":"atPoint","RestoreDateTime":1793492400}`))
	for _, table := range []string{"fromBackup", "atPoint"} {
		if got, want := sorted(scanAll(t, e, table)), layout1Items(true); !slices.Equal(got, want) {
			t.Fatalf("%s:\n%q\nwant\n%q", table, got, want)
		}
	}
}

// layout1Items are the fixture's orders as pk/sk=v, sorted; before: as
// they were before the changes that followed the backup.
func layout1Items(before bool) []string {
	var out []string
	for _, pk := range []string{"A", "B", "C", "D"} {
		for _, sk := range []string{"0", "1", "2", "3", "4"} {
			v := "1"
			switch changed := (pk == "A" || pk == "C") && !before; {
			case changed && sk == "2":
				continue
			case changed && sk == "1":
				v = "2"
			}
			out = append(out, pk+"/"+sk+"="+v)
		}
	}
	out = append(out, "nul\x00key/0=1")
	if !before {
		out = append(out, "E/0=2")
	}
	return sorted(out)
}

func sorted(s []string) []string { return slices.Sorted(slices.Values(s)) }

// partitionsTogether reports whether each partition's items come
// together, in sort-key order.
func partitionsTogether(items []string) bool {
	done := map[string]bool{}
	last, lastSK := "", ""
	for _, it := range items {
		pk, sk, _ := strings.Cut(strings.SplitN(it, "=", 2)[0], "/")
		if pk != last && done[pk] || pk == last && sk < lastSK {
			return false
		}
		done[last], last, lastSK = true, pk, sk
	}
	return true
}

func scanAll(t *testing.T, e *Engine, table string) []string {
	t.Helper()
	in := &protocol.ScanInput{}
	in.TableName = &table
	var out []string
	for {
		page, err := e.Scan(context.Background(), in)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, pageStrings(t, page)...)
		if page.LastEvaluatedKey == nil {
			return out
		}
		in.ExclusiveStartKey = page.LastEvaluatedKey
	}
}

func getItem(t *testing.T, e *Engine, table, key string) string {
	t.Helper()
	out := must[protocol.GetItemOutput](t)(call(t, e.GetItem, `{"TableName":"`+table+`","Key":`+key+`}`))
	if out.ItemJSON == nil && out.Item == nil {
		return ""
	}
	page := &protocol.ReadOutput{ItemsJSON: out.ItemJSON}
	if out.ItemJSON == nil {
		page.Items = &[]attr.Item{attr.Item(out.Item)}
	}
	return pageStrings(t, page)[0]
}

// pageStrings writes a page's items as pk/sk=v (=v left out when the
// item has no v; other tables' items as their first key's value).
func pageStrings(t *testing.T, page *protocol.ReadOutput) []string {
	t.Helper()
	var out []string
	for _, it := range pageItems(t, page) {
		s := text(it["pk"]) + "/" + text(it["sk"])
		if v, ok := it["v"]; ok {
			s += "=" + text(v)
		}
		out = append(out, s)
	}
	return out
}

func text(v attr.Value) string {
	switch {
	case v.S != nil:
		return *v.S
	case v.N != nil:
		return *v.N
	}
	return string(v.B)
}

func jsonString(s string) string { return `"` + strings.ReplaceAll(s, "\x00", `\u0000`) + `"` }
