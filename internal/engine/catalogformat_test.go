package engine

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/sortkeydb/sortkey/internal/protocol"
	"github.com/sortkeydb/sortkey/internal/storage"
)

// liveCounts are the description's fields the catalog does not store:
// DescribeTable reads them from the stats keys, or derives them from the
// table's replication group (tableMeta.Global, which is stored). Every
// other field of tableMeta, and of the types it holds, must have a stored
// counterpart.
var liveCounts = map[string]bool{
	"TableDescription.GlobalTableVersion":            true,
	"TableDescription.Replicas":                      true,
	"TableDescription.MultiRegionConsistency":        true,
	"TableDescription.ItemCount":                     true,
	"TableDescription.TableSizeBytes":                true,
	"GlobalSecondaryIndexDescription.ItemCount":      true,
	"GlobalSecondaryIndexDescription.IndexSizeBytes": true,
	"LocalSecondaryIndexDescription.ItemCount":       true,
	"LocalSecondaryIndexDescription.IndexSizeBytes":  true,
	"VectorIndexDescription.ItemCount":               true,
	"VectorIndexDescription.IndexSizeBytes":          true,
}

// zeroFields lists the paths of v's zero fields, descending through
// pointers, structs, slices and maps: nil and empty count as zero, so a
// fixture that passes sets every field a definition can hold.
func zeroFields(v reflect.Value, path string) []string {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			return []string{path}
		}
		return zeroFields(v.Elem(), path)
	case reflect.Struct:
		return zeroStructFields(v, path)
	case reflect.Slice, reflect.Map:
		return zeroElements(v, path)
	}
	if v.IsZero() {
		return []string{path}
	}
	return nil
}

func zeroStructFields(v reflect.Value, path string) []string {
	var out []string
	for i := range v.NumField() {
		if f := v.Type().Field(i); !liveCounts[v.Type().Name()+"."+f.Name] {
			out = append(out, zeroFields(v.Field(i), path+"."+f.Name)...)
		}
	}
	return out
}

func zeroElements(v reflect.Value, path string) []string {
	if v.Len() == 0 {
		return []string{path}
	}
	var out []string
	if v.Kind() == reflect.Map {
		for it := v.MapRange(); it.Next(); {
			out = append(out, zeroFields(it.Value(), path+"["+it.Key().String()+"]")...)
		}
		return out
	}
	for i := range v.Len() {
		out = append(out, zeroFields(v.Index(i), path+"[]")...)
	}
	return out
}

// wantComplete fails the test when the fixture leaves a field zero: a
// field added to tableMeta or to a protocol type it holds must be set in
// fullMeta, and then the round trip fails until the stored format holds it.
func wantComplete(t *testing.T, v any) {
	t.Helper()
	if zero := zeroFields(reflect.ValueOf(v), reflect.TypeOf(v).String()); len(zero) > 0 {
		t.Fatalf("the fixture leaves these fields zero; set them (and store them):\n%s", strings.Join(zero, "\n"))
	}
}

func TestZeroFieldsFindsAField(t *testing.T) {
	m := withGlobal(withVector(fullMeta()))
	m.Desc.GlobalSecondaryIndexes[0].WarmThroughput.Status = ""
	m.Streams[0].Policy = nil
	got := zeroFields(reflect.ValueOf(m), "m")
	want := []string{"m.Desc.GlobalSecondaryIndexes[].WarmThroughput.Status", "m.Streams[].Policy"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("zero fields %q, want %q", got, want)
	}
}

func TestCatalogRoundTrip(t *testing.T) {
	m := withGlobal(withVector(fullMeta()))
	wantComplete(t, m)
	m.Desc.ItemCount, m.Desc.GlobalSecondaryIndexes[0].IndexSizeBytes = 5, 6 // not stored: they come back zero
	v, err := encodeTable(&m)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(v, []byte(`{"format":4,`)) {
		t.Fatalf("record does not start with its format: %.40s", v)
	}
	got, err := decodeTable(v)
	if err != nil {
		t.Fatal(err)
	}
	if want := withGlobal(withVector(fullMeta())); !reflect.DeepEqual(got, want) {
		t.Fatalf("round trip\n got %+v\nwant %+v", got, want)
	}
}

func TestBackupRoundTrip(t *testing.T) {
	b := fullBackup()
	b.Table = withGlobal(withVector(b.Table))
	wantComplete(t, *b)
	v, err := encodeBackup(b)
	if err != nil {
		t.Fatal(err)
	}
	got, err := decodeBackup(v)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, b) {
		t.Fatalf("round trip\n got %+v\nwant %+v", got, b)
	}
}

// format1Table is fullMeta's record in format 1, as this sortkey writes
// it (compacted). A change to the stored types changes it: that is a new
// format, and this record must still decode.
const format1Table = `{
	"format":1,
	"id":7,
	"name":"full",
	"tableId":"0d5c2a4e-6a4b-4f5e-9c1d-2b3a4c5d6e7f",
	"arn":"arn:aws:dynamodb:us-east-1:000000000000:table/full",
	"status":"ACTIVE",
	"created":1700000000.123,
	"attributes":[{"name":"pk","type":"S"},{"name":"sk","type":"N"},{"name":"gk","type":"B"}],
	"key":[{"name":"pk","type":"HASH"},{"name":"sk","type":"RANGE"}],
	"billing":{"mode":"PROVISIONED","payPerRequestSince":1700000003},
	"throughput":{"read":11,"write":12,"lastIncrease":1700000001.5,"lastDecrease":1700000002.25,"decreasesToday":3},
	"onDemand":{"maxRead":21,"maxWrite":22},
	"warm":{"read":61,"write":62,"status":"ACTIVE"},
	"gsis":[{"name":"byG","key":[{"name":"gk","type":"HASH"},{"name":"sk","type":"RANGE"}],"projection":{"type":"INCLUDE","nonKey":["a","b"]},"status":"CREATING","backfilling":true,"throughput":{"read":31,"write":32,"lastIncrease":1700000004,"lastDecrease":1700000005,"decreasesToday":4},"onDemand":{"maxRead":41,"maxWrite":42},"warm":{"read":51,"write":52,"status":"UPDATING"},"arn":"arn:aws:dynamodb:us-east-1:000000000000:table/full/index/byG"}],
	"lsis":[{"name":"byL","key":[{"name":"pk","type":"HASH"},{"name":"gk","type":"RANGE"}],"projection":{"type":"INCLUDE","nonKey":["c"]},"arn":"arn:aws:dynamodb:us-east-1:000000000000:table/full/index/byL"}],
	"streamSpec":{"enabled":true,"viewType":"NEW_AND_OLD_IMAGES"},
	"latestStreamArn":"arn:aws:dynamodb:us-east-1:000000000000:table/full/stream/2023-11-14T22:13:20.123",
	"latestStreamLabel":"2023-11-14T22:13:20.123",
	"sse":{"status":"ENABLED","type":"KMS","kmsKeyArn":"arn:aws:kms:us-east-1:000000000000:key/k"},
	"class":{"class":"STANDARD_INFREQUENT_ACCESS","updated":1700000006},
	"restore":{"sourceBackupArn":"arn:aws:dynamodb:us-east-1:000000000000:table/src/backup/01","sourceTableArn":"arn:aws:dynamodb:us-east-1:000000000000:table/src","at":1700000007,"inProgress":true},
	"deletionProtection":true,
	"tags":[{"key":"team","value":"storage"}],
	"indexIds":{"byG":1,"byL":2},
	"lastIndexId":3,
	"ttl":{"attr":"expires","enabled":true,"changed":1700000008000},
	"streams":[{"label":"2023-11-14T22:13:20.123","view":"NEW_AND_OLD_IMAGES","created":1700000000123,"closed":1700000009000,"start":5,"end":9,"stamped":true,"policy":{"doc":"eyJWZXJzaW9uIjoiMjAxMi0xMC0xNyJ9","revision":"r2"}}],
	"policy":{"doc":"eyJWZXJzaW9uIjogIjIwMTItMTAtMTciLCAiU3RhdGVtZW50IjogW119","revision":"r1"},
	"restoring":true,
	"pitr":{"enabled":true,"since":1700000000123456,"period":14}}`

// legacyTable is fullMeta's record as sortkey wrote it before records had
// a format: tableMeta marshalled as it is. A field added to tableMeta
// since is absent here; clear it in the want of TestCatalogLegacyRecord.
const legacyTable = `{
	"id":7,
	"desc":{
		"TableName":"full",
		"TableId":"0d5c2a4e-6a4b-4f5e-9c1d-2b3a4c5d6e7f",
		"TableArn":"arn:aws:dynamodb:us-east-1:000000000000:table/full",
		"TableStatus":"ACTIVE",
		"CreationDateTime":1700000000.123,
		"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},{"AttributeName":"sk","AttributeType":"N"},{"AttributeName":"gk","AttributeType":"B"}],
		"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},{"AttributeName":"sk","KeyType":"RANGE"}],
		"ItemCount":0,
		"TableSizeBytes":0,
		"ProvisionedThroughput":{"LastIncreaseDateTime":1700000001.5,"LastDecreaseDateTime":1700000002.25,"NumberOfDecreasesToday":3,"ReadCapacityUnits":11,"WriteCapacityUnits":12},
		"OnDemandThroughput":{"MaxReadRequestUnits":21,"MaxWriteRequestUnits":22},
		"BillingModeSummary":{"BillingMode":"PROVISIONED","LastUpdateToPayPerRequestDateTime":1700000003},
		"GlobalSecondaryIndexes":[{"IndexName":"byG","KeySchema":[{"AttributeName":"gk","KeyType":"HASH"},{"AttributeName":"sk","KeyType":"RANGE"}],"Projection":{"ProjectionType":"INCLUDE","NonKeyAttributes":["a","b"]},"IndexStatus":"CREATING","Backfilling":true,"ProvisionedThroughput":{"LastIncreaseDateTime":1700000004,"LastDecreaseDateTime":1700000005,"NumberOfDecreasesToday":4,"ReadCapacityUnits":31,"WriteCapacityUnits":32},"OnDemandThroughput":{"MaxReadRequestUnits":41,"MaxWriteRequestUnits":42},"WarmThroughput":{"ReadUnitsPerSecond":51,"WriteUnitsPerSecond":52,"Status":"UPDATING"},"IndexSizeBytes":0,"ItemCount":0,"IndexArn":"arn:aws:dynamodb:us-east-1:000000000000:table/full/index/byG"}],
		"LocalSecondaryIndexes":[{"IndexName":"byL","KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},{"AttributeName":"gk","KeyType":"RANGE"}],"Projection":{"ProjectionType":"INCLUDE","NonKeyAttributes":["c"]},"IndexSizeBytes":0,"ItemCount":0,"IndexArn":"arn:aws:dynamodb:us-east-1:000000000000:table/full/index/byL"}],
		"StreamSpecification":{"StreamEnabled":true,"StreamViewType":"NEW_AND_OLD_IMAGES"},
		"LatestStreamArn":"arn:aws:dynamodb:us-east-1:000000000000:table/full/stream/2023-11-14T22:13:20.123",
		"LatestStreamLabel":"2023-11-14T22:13:20.123",
		"SSEDescription":{"Status":"ENABLED","SSEType":"KMS","KMSMasterKeyArn":"arn:aws:kms:us-east-1:000000000000:key/k"},
		"TableClassSummary":{"TableClass":"STANDARD_INFREQUENT_ACCESS","LastUpdateDateTime":1700000006},
		"RestoreSummary":{"SourceBackupArn":"arn:aws:dynamodb:us-east-1:000000000000:table/src/backup/01","SourceTableArn":"arn:aws:dynamodb:us-east-1:000000000000:table/src","RestoreDateTime":1700000007,"RestoreInProgress":true},
		"DeletionProtectionEnabled":true,
		"WarmThroughput":{"ReadUnitsPerSecond":61,"WriteUnitsPerSecond":62,"Status":"ACTIVE"}},
	"tags":[{"Key":"team","Value":"storage"}],
	"indexes":{"byG":1,"byL":2},
	"lastIndex":3,
	"ttl":{"attr":"expires","enabled":true,"changed":1700000008000},
	"streams":[{"label":"2023-11-14T22:13:20.123","view":"NEW_AND_OLD_IMAGES","created":1700000000123,"closed":1700000009000,"start":5,"end":9,"stamped":true,"policy":{"doc":"eyJWZXJzaW9uIjoiMjAxMi0xMC0xNyJ9","rev":"r2"}}],
	"policy":{"doc":"eyJWZXJzaW9uIjogIjIwMTItMTAtMTciLCAiU3RhdGVtZW50IjogW119","rev":"r1"},
	"restoring":true,
	"pitr":{"enabled":true,"since":1700000000123456,"period":14}}`

// legacyBackup is fullBackup's record as sortkey wrote it before records
// had a format.
const legacyBackup = `{"id":"01700000010000-abcdef01","num":8,"name":"nightly","status":"AVAILABLE",
	"created":1700000010000,"items":100,"bytes":4096,"table":` + legacyTable + `}`

// TestCatalogFormat2Record: format 2 stores what format 1 did; only the
// layout of the items it stands for changed. A record of format 1 (or
// none) reads only for Upgrade; everything else refuses it.
func TestCatalogFormat2Record(t *testing.T) {
	m := fullMeta()
	v, err := encodeTable(&m)
	if err != nil {
		t.Fatal(err)
	}
	var want bytes.Buffer
	format2 := strings.Replace(format1Table, `"format":1,`, `"format":2,`, 1)
	if err := json.Compact(&want, []byte(format2)); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(v, want.Bytes()) {
		t.Errorf("format 2 changed:\n got %s\nwant %s", v, want.Bytes())
	}
	if _, err := decodeTable([]byte(format1Table)); !errors.Is(err, ErrUpgrade) {
		t.Fatalf("a format 1 record outside Upgrade: %v, want ErrUpgrade", err)
	}
	got, err := decodeTableFrom([]byte(format1Table), 0)
	if err != nil || !reflect.DeepEqual(got, m) {
		t.Fatalf("format 1 record decodes to %+v, %v\nwant %+v", got, err, m)
	}
}

func TestCatalogLegacyRecord(t *testing.T) {
	if _, err := decodeTable([]byte(legacyTable)); !errors.Is(err, ErrUpgrade) {
		t.Fatalf("a legacy record outside Upgrade: %v, want ErrUpgrade", err)
	}
	if _, err := decodeBackup([]byte(legacyBackup)); !errors.Is(err, ErrUpgrade) {
		t.Fatalf("a legacy backup outside Upgrade: %v, want ErrUpgrade", err)
	}
	got, err := decodeTableFrom([]byte(legacyTable), 0)
	if want := fullMeta(); err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("legacy record decodes to %+v, %v\nwant %+v", got, err, want)
	}
	b, err := decodeBackupFrom([]byte(legacyBackup), 0)
	if want := fullBackup(); err != nil || !reflect.DeepEqual(b, want) {
		t.Fatalf("legacy backup decodes to %+v, %v\nwant %+v", b, err, want)
	}
}

func TestCatalogNewerFormatRefused(t *testing.T) {
	const newer = `{"format":99,"id":7,"name":"full","shape":"unknown to format 1"}`
	_, err := decodeTable([]byte(newer))
	if !errors.Is(err, errNewerCatalog) || !strings.Contains(err.Error(), "format 99") {
		t.Fatalf("table record of format 99: %v, want %v", err, errNewerCatalog)
	}
	if _, err := decodeBackup([]byte(newer)); !errors.Is(err, errNewerCatalog) {
		t.Fatalf("backup record of format 99: %v, want %v", err, errNewerCatalog)
	}
}

func TestCatalogMalformedRefused(t *testing.T) {
	for _, rec := range []string{
		`{"format":0,"id":7}`,
		`{"format":-1,"id":7}`,
		`{"format":"1","id":7}`,
		`{"format":2,"id":7,"unknown":true}`, // a later field without a later format
		`{"format":2,"id":7} {}`,
		`{"id":"seven"}`,
		`[]`,
	} {
		if m, err := decodeTableFrom([]byte(rec), 0); err == nil {
			t.Errorf("%s decoded to %+v", rec, m)
		}
	}
}

// reopenState is what a client sees of the table and its backup, as JSON.
func reopenState(t *testing.T, e *Engine, backupArn string) string {
	t.Helper()
	d := must[protocol.DescribeTableOutput](t)(call(t, e.DescribeTable, `{"TableName":"tbl"}`))
	tags := must[protocol.ListTagsOfResourceOutput](t)(call(t, e.ListTagsOfResource,
		`{"ResourceArn":"`+d.Table.TableArn+`"}`))
	b := must[protocol.BackupDescriptionOutput](t)(call(t, e.DescribeBackup, `{"BackupArn":"`+backupArn+`"}`))
	v, err := json.Marshal([]any{d, tags, b})
	if err != nil {
		t.Fatal(err)
	}
	return string(v)
}

// setRecord overwrites a stored record, as another sortkey would have
// written it.
func setRecord(t *testing.T, e *Engine, k, v []byte) {
	t.Helper()
	b := e.db.NewBatch()
	b.Set(k, v)
	if err := b.Commit(); err != nil {
		t.Fatal(err)
	}
}

func getRecord(t *testing.T, e *Engine, k []byte) []byte {
	t.Helper()
	v, ok, err := e.db.Get(k)
	if err != nil || !ok {
		t.Fatalf("record %q: found %v, %v", k, ok, err)
	}
	return v
}

// A table and its backup read the same after a restart, from records in
// format 2 and then, once Upgrade has rewritten them, from the same
// records in the legacy encoding; a record of a later format stops the
// engine from opening.
func TestCatalogReopen(t *testing.T) {
	dir := t.TempDir()
	e := open(t, dir)
	must[protocol.CreateTableOutput](t)(call(t, e.CreateTable, `{"TableName":"tbl","BillingMode":"PAY_PER_REQUEST",
		"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},{"AttributeName":"gk","AttributeType":"S"}],
		"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],
		"GlobalSecondaryIndexes":[{"IndexName":"byG","KeySchema":[{"AttributeName":"gk","KeyType":"HASH"}],
			"Projection":{"ProjectionType":"ALL"}}],
		"StreamSpecification":{"StreamEnabled":true,"StreamViewType":"NEW_IMAGE"},
		"Tags":[{"Key":"team","Value":"storage"}]}`))
	must[protocol.PutItemOutput](t)(call(t, e.PutItem, `{"TableName":"tbl","Item":{"pk":{"S":"a"},"gk":{"S":"g"}}}`))
	backupArn := must[protocol.CreateBackupOutput](t)(call(t, e.CreateBackup,
		`{"TableName":"tbl","BackupName":"nightly"}`)).BackupDetails.BackupArn
	_, backupID, _ := strings.Cut(backupArn, "/backup/")
	tableKey, backupKey := storage.CatalogKey("tbl"), storage.BackupKey(backupID)
	before := reopenState(t, e, backupArn)
	for _, k := range [][]byte{tableKey, backupKey} {
		if v := getRecord(t, e, k); !bytes.HasPrefix(v, []byte(`{"format":2,`)) {
			t.Fatalf("record %q is not in format 2: %.40s", k, v)
		}
	}
	e.Close()

	e = open(t, dir)
	if after := reopenState(t, e, backupArn); after != before {
		t.Fatalf("after reopening\n got %s\nwant %s", after, before)
	}
	legacyMeta, _ := json.Marshal(&e.lookup("tbl").meta)
	b, err := e.backupByArn(backupArn)
	if err != nil {
		t.Fatal(err)
	}
	legacyBackupRec, _ := json.Marshal(b)
	setRecord(t, e, tableKey, legacyMeta)
	setRecord(t, e, backupKey, legacyBackupRec)
	e.Close()
	if _, err := Open(Options{Dir: dir}); !errors.Is(err, ErrUpgrade) {
		t.Fatalf("opening legacy records: %v, want ErrUpgrade", err)
	}
	if rep, err := Upgrade(Options{Dir: dir}, nil); err != nil || rep != (UpgradeReport{Tables: 1, Backups: 1}) {
		t.Fatalf("Upgrade of legacy records over keys already in the new layout: %+v, %v", rep, err)
	}

	e = open(t, dir)
	if after := reopenState(t, e, backupArn); after != before {
		t.Fatalf("after reopening on legacy records\n got %s\nwant %s", after, before)
	}
	setRecord(t, e, tableKey, []byte(`{"format":99}`))
	e.Close()
	if e, err := Open(Options{Dir: dir}); !errors.Is(err, errNewerCatalog) {
		if err == nil {
			e.Close()
		}
		t.Fatalf("opening a catalog of format 99: %v, want %v", err, errNewerCatalog)
	}
}

// FuzzDecodeCatalog: decoding never panics, and whatever decodes is
// written back stably (its record decodes and re-encodes to itself).
func FuzzDecodeCatalog(f *testing.F) {
	for _, s := range []string{format1Table, legacyTable, legacyBackup, `{"format":99}`, `{"format":1}`, `{}`, `null`,
		`{"format":1,"gsis":[{}],"lsis":[{"projection":{}}],"streams":[{"policy":null}]}`, `{"desc":{"GlobalSecondaryIndexes":[{}]}}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, v []byte) {
		if m, err := decodeTableFrom(v, 0); err == nil {
			stableTable(t, &m)
		}
		if b, err := decodeBackupFrom(v, 0); err == nil {
			stableBackup(t, b)
		}
	})
}

func str(s string) *string { return &s }

func stableTable(t *testing.T, m *tableMeta) {
	v1, err := encodeTable(m)
	if err != nil {
		t.Fatal(err)
	}
	m2, err := decodeTable(v1)
	if err != nil {
		t.Fatalf("%s does not decode: %v", v1, err)
	}
	if v2, _ := encodeTable(&m2); !bytes.Equal(v1, v2) {
		t.Fatalf("unstable record\n%s\n%s", v1, v2)
	}
}

func stableBackup(t *testing.T, b *backupMeta) {
	v1, err := encodeBackup(b)
	if err != nil {
		t.Fatal(err)
	}
	b2, err := decodeBackup(v1)
	if err != nil {
		t.Fatalf("%s does not decode: %v", v1, err)
	}
	if v2, _ := encodeBackup(b2); !bytes.Equal(v1, v2) {
		t.Fatalf("unstable record\n%s\n%s", v1, v2)
	}
}

// fullMeta is a table definition with every field set (but the live
// counts, which are not stored), each to a value of its own.
func fullMeta() tableMeta {
	at := func(f float64) *float64 { return &f }
	n := func(i int64) *int64 { return &i }
	yes := func() *bool { return new(true) }
	key := func(h, r string) []protocol.KeySchemaElement {
		return []protocol.KeySchemaElement{{AttributeName: str(h), KeyType: str("HASH")}, {AttributeName: str(r), KeyType: str("RANGE")}}
	}
	proj := func(attrs ...string) *protocol.Projection {
		return &protocol.Projection{ProjectionType: str("INCLUDE"), NonKeyAttributes: attrs}
	}
	const arn = "arn:aws:dynamodb:us-east-1:000000000000:table/full"
	return tableMeta{
		ID: 7,
		Desc: protocol.TableDescription{
			TableName: "full", TableId: "0d5c2a4e-6a4b-4f5e-9c1d-2b3a4c5d6e7f", TableArn: arn, TableStatus: "ACTIVE",
			CreationDateTime: 1700000000.123,
			AttributeDefinitions: []protocol.AttributeDefinition{{AttributeName: str("pk"), AttributeType: str("S")},
				{AttributeName: str("sk"), AttributeType: str("N")}, {AttributeName: str("gk"), AttributeType: str("B")}},
			KeySchema: key("pk", "sk"),
			ProvisionedThroughput: &protocol.ProvisionedThroughputDescription{LastIncreaseDateTime: at(1700000001.5),
				LastDecreaseDateTime: at(1700000002.25), NumberOfDecreasesToday: 3, ReadCapacityUnits: 11, WriteCapacityUnits: 12},
			OnDemandThroughput: &protocol.OnDemandThroughput{MaxReadRequestUnits: n(21), MaxWriteRequestUnits: n(22)},
			BillingModeSummary: &protocol.BillingModeSummary{BillingMode: "PROVISIONED", LastUpdateToPayPerRequestDateTime: at(1700000003)},
			GlobalSecondaryIndexes: []protocol.GlobalSecondaryIndexDescription{{
				IndexName: "byG", KeySchema: key("gk", "sk"), Projection: proj("a", "b"), IndexStatus: "CREATING",
				Backfilling: yes(),
				ProvisionedThroughput: &protocol.ProvisionedThroughputDescription{LastIncreaseDateTime: at(1700000004),
					LastDecreaseDateTime: at(1700000005), NumberOfDecreasesToday: 4, ReadCapacityUnits: 31, WriteCapacityUnits: 32},
				OnDemandThroughput: &protocol.OnDemandThroughput{MaxReadRequestUnits: n(41), MaxWriteRequestUnits: n(42)},
				WarmThroughput:     &protocol.WarmThroughputDescription{ReadUnitsPerSecond: 51, WriteUnitsPerSecond: 52, Status: "UPDATING"},
				IndexArn:           arn + "/index/byG",
			}},
			LocalSecondaryIndexes: []protocol.LocalSecondaryIndexDescription{{
				IndexName: "byL", KeySchema: key("pk", "gk"), Projection: proj("c"), IndexArn: arn + "/index/byL",
			}},
			StreamSpecification: &protocol.StreamSpecification{StreamEnabled: yes(), StreamViewType: str("NEW_AND_OLD_IMAGES")},
			LatestStreamArn:     arn + "/stream/2023-11-14T22:13:20.123",
			LatestStreamLabel:   "2023-11-14T22:13:20.123",
			SSEDescription: &protocol.SSEDescription{Status: "ENABLED", SSEType: "KMS",
				KMSMasterKeyArn: "arn:aws:kms:us-east-1:000000000000:key/k"},
			TableClassSummary: &protocol.TableClassSummary{TableClass: "STANDARD_INFREQUENT_ACCESS", LastUpdateDateTime: at(1700000006)},
			RestoreSummary: &protocol.RestoreSummary{SourceBackupArn: "arn:aws:dynamodb:us-east-1:000000000000:table/src/backup/01",
				SourceTableArn: "arn:aws:dynamodb:us-east-1:000000000000:table/src", RestoreDateTime: 1700000007, RestoreInProgress: true},
			DeletionProtectionEnabled: true,
			WarmThroughput:            &protocol.WarmThroughputDescription{ReadUnitsPerSecond: 61, WriteUnitsPerSecond: 62, Status: "ACTIVE"},
		},
		Tags:      []protocol.Tag{{Key: str("team"), Value: str("storage")}},
		Indexes:   map[string]uint16{"byG": 1, "byL": 2},
		LastIndex: 3,
		TTL:       &ttlConfig{Attr: "expires", Enabled: true, Changed: 1700000008000},
		Streams: []streamMeta{{Label: "2023-11-14T22:13:20.123", View: "NEW_AND_OLD_IMAGES", Created: 1700000000123,
			Closed: 1700000009000, Start: 5, End: 9, Stamped: true,
			Policy: &policyMeta{Doc: []byte(`{"Version":"2012-10-17"}`), Revision: "r2"}}},
		Policy:    &policyMeta{Doc: []byte(`{"Version": "2012-10-17", "Statement": []}`), Revision: "r1"},
		Restoring: true,
		PITR:      &pitrMeta{Enabled: true, Since: 1700000000123456, Period: 14},
	}
}

// fullBackup is a backup record with every field set.
func fullBackup() *backupMeta {
	return &backupMeta{ID: "01700000010000-abcdef01", Num: 8, Name: "nightly", Status: "AVAILABLE",
		Created: 1700000010000, Items: 100, Bytes: 4096, Table: fullMeta()}
}

// TestCatalogFormat3OnlyForVectorIndexes: a table without vector indexes
// is still written in format 2, which the sortkeys before vector search
// read; one with them in format 3, which those refuse as newer rather
// than drop its indexes.
func TestCatalogFormat3OnlyForVectorIndexes(t *testing.T) {
	m := fullMeta()
	v, err := encodeTable(&m)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(v, []byte(`{"format":2,`)) {
		t.Fatalf("a table without vector indexes: record %.40s, want format 2", v)
	}
	b := fullBackup()
	b.Table = withVector(b.Table)
	v, err = encodeBackup(b)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(v, []byte(`{"format":3,`)) {
		t.Fatalf("a backup of a table with vector indexes: record %.40s, want format 3", v)
	}
}

// TestCatalogFormat4OnlyForReplicas: a replica of a global table is
// written in format 4, which a sortkey of format 3 refuses as newer
// rather than write it without replicating; any other table as before.
func TestCatalogFormat4OnlyForReplicas(t *testing.T) {
	for _, c := range []struct {
		m    tableMeta
		want string
	}{{withVector(fullMeta()), `{"format":3,`}, {withGlobal(fullMeta()), `{"format":4,`}} {
		v, err := encodeTable(&c.m)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.HasPrefix(v, []byte(c.want)) {
			t.Fatalf("record %.40s, want %s", v, c.want)
		}
	}
}

// withGlobal is m as a replica of a global table (catalog format 4).
func withGlobal(m tableMeta) tableMeta {
	m.Global = &globalMeta{Regions: []string{"eu-west-1", "us-east-1"}, Consistency: "EVENTUAL"}
	return m
}

// withVector is fullMeta with a vector index (catalog format 3).
func withVector(m tableMeta) tableMeta {
	str := func(v string) *string { return &v }
	m.Desc.VectorIndexes = []protocol.VectorIndexDescription{{
		IndexName: "byV", IndexStatus: "CREATING", Backfilling: new(true),
		VectorAttribute: protocol.VectorAttribute{AttributeName: str("emb")}, Dimensions: 3, DistanceFunction: "COSINE",
		SearchSchema: []protocol.SearchSchemaItem{{AttributeName: str("gk"), SearchSchemaElementType: str("HASH")}},
		Projection:   &protocol.Projection{ProjectionType: str("INCLUDE"), NonKeyAttributes: []string{"d"}},
		IndexArn:     m.Desc.TableArn + "/index/byV",
	}}
	return m
}
