package agent_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/sortkeydb/sortkey/internal/agent"
)

const putOrder = `{"TableName":"Orders","Item":{"pk":{"S":"c1"},"sk":{"S":"o1"},"total":{"N":"12"}}}`

const getOrder = `{"TableName":"%s","Key":{"pk":{"S":"c1"},"sk":{"S":"o1"}}}`

func TestBackupRestoreRoundTrip(t *testing.T) {
	cs := connect(t, agent.Options{})
	mustCall(t, cs, "create_table", createOrders)
	mustCall(t, cs, "put_item", putOrder)
	backup := response(mustCall(t, cs, "create_backup", `{"TableName":"Orders","BackupName":"before"}`))
	arn, _ := backup["BackupDetails"].(map[string]any)["BackupArn"].(string)
	if arn == "" {
		t.Fatalf("create_backup answered no BackupArn: %v", backup)
	}
	mustCall(t, cs, "delete_item", fmt.Sprintf(getOrder, "Orders"))
	desc := response(mustCall(t, cs, "describe_backup", fmt.Sprintf(`{"BackupArn":%q}`, arn)))
	if status := desc["BackupDescription"].(map[string]any)["BackupDetails"].(map[string]any)["BackupStatus"]; status != "AVAILABLE" {
		t.Fatalf("the backup is %v, want AVAILABLE", status)
	}
	if list := response(mustCall(t, cs, "list_backups", `{"TableName":"Orders"}`)); len(list["BackupSummaries"].([]any)) != 1 {
		t.Fatalf("list_backups answered %v, want the one backup", list)
	}
	mustCall(t, cs, "restore_table_from_backup", fmt.Sprintf(`{"BackupArn":%q,"TargetTableName":"Restored"}`, arn))
	item := response(mustCall(t, cs, "get_item", fmt.Sprintf(getOrder, "Restored")))["Item"]
	if total := item.(map[string]any)["total"].(map[string]any)["N"]; total != "12" {
		t.Fatalf("the restored table holds %v, want the item as backed up", item)
	}
	mustCall(t, cs, "delete_backup", fmt.Sprintf(`{"BackupArn":%q}`, arn))
	if _, e := callTool(t, cs, "describe_backup", fmt.Sprintf(`{"BackupArn":%q}`, arn)); !strings.HasPrefix(e, "BackupNotFoundException") {
		t.Fatalf("a deleted backup answered %q", e)
	}
}

func TestStreamHasThePutsRecord(t *testing.T) {
	cs := connect(t, agent.Options{})
	var table map[string]any
	json.Unmarshal([]byte(createOrders), &table)
	table["StreamSpecification"] = map[string]any{"StreamEnabled": true, "StreamViewType": "NEW_IMAGE"}
	args, _ := json.Marshal(table)
	mustCall(t, cs, "create_table", string(args))
	mustCall(t, cs, "put_item", putOrder)
	streams := response(mustCall(t, cs, "list_streams", `{"TableName":"Orders"}`))["Streams"].([]any)
	if len(streams) != 1 {
		t.Fatalf("list_streams answered %v, want the table's stream", streams)
	}
	arn := streams[0].(map[string]any)["StreamArn"].(string)
	desc := response(mustCall(t, cs, "describe_stream", fmt.Sprintf(`{"StreamArn":%q}`, arn)))
	shard := desc["StreamDescription"].(map[string]any)["Shards"].([]any)[0].(map[string]any)["ShardId"].(string)
	it := response(mustCall(t, cs, "get_shard_iterator",
		fmt.Sprintf(`{"StreamArn":%q,"ShardId":%q,"ShardIteratorType":"TRIM_HORIZON"}`, arn, shard)))["ShardIterator"].(string)
	records := response(mustCall(t, cs, "get_records", fmt.Sprintf(`{"ShardIterator":%q}`, it)))["Records"].([]any)
	if len(records) != 1 {
		t.Fatalf("get_records answered %v, want the put's record", records)
	}
	rec := records[0].(map[string]any)
	image := rec["dynamodb"].(map[string]any)["NewImage"].(map[string]any)
	if rec["eventName"] != "INSERT" || image["total"].(map[string]any)["N"] != "12" {
		t.Fatalf("the put's record is %v, want an INSERT with the new item", rec)
	}
}

func TestTimeToLiveTools(t *testing.T) {
	cs := connect(t, agent.Options{})
	mustCall(t, cs, "create_table", createOrders)
	mustCall(t, cs, "update_time_to_live", `{"TableName":"Orders","TimeToLiveSpecification":{"Enabled":true,"AttributeName":"expires"}}`)
	desc := response(mustCall(t, cs, "describe_time_to_live", `{"TableName":"Orders"}`))["TimeToLiveDescription"].(map[string]any)
	if desc["TimeToLiveStatus"] != "ENABLED" || desc["AttributeName"] != "expires" {
		t.Fatalf("describe_time_to_live answered %v after enabling it on expires", desc)
	}
}

func TestReadOnlyRunsOnlySelectStatements(t *testing.T) {
	cs := connect(t, agent.Options{ReadOnly: true})
	for tool, args := range map[string]string{
		"execute_transaction":       `{"TransactStatements":[{"Statement":"SELECT * FROM Orders"},{"Statement":"DELETE FROM Orders WHERE pk = 'a' AND sk = 'b'"}]}`,
		"batch_execute_statement":   `{"Statements":[{"Statement":"UPDATE Orders SET x = 1 WHERE pk = 'a' AND sk = 'b'"}]}`,
		"update_time_to_live":       `{"TableName":"Orders","TimeToLiveSpecification":{"Enabled":true,"AttributeName":"x"}}`,
		"create_backup":             `{"TableName":"Orders","BackupName":"b"}`,
		"restore_table_from_backup": `{"BackupArn":"arn","TargetTableName":"T"}`,
	} {
		if _, e := callTool(t, cs, tool, args); !strings.Contains(e, "read-only") {
			t.Errorf("%s on a read-only server answered %q", tool, e)
		}
	}
	if _, e := callTool(t, cs, "execute_transaction", `{"TransactStatements":[{"Statement":"SELECT * FROM Orders"}]}`); !strings.HasPrefix(e, "ResourceNotFoundException") {
		t.Fatalf("a SELECT-only transaction on a read-only server does not reach the table: %q", e)
	}
}

func TestPartiQLStatementsRunOnAWritableServer(t *testing.T) {
	cs := connect(t, agent.Options{})
	mustCall(t, cs, "create_table", createOrders)
	mustCall(t, cs, "batch_execute_statement", `{"Statements":[{"Statement":"INSERT INTO Orders VALUE {'pk': 'c1', 'sk': 'o1', 'total': 12}"}]}`)
	out := response(mustCall(t, cs, "execute_transaction", `{"TransactStatements":[{"Statement":"SELECT * FROM Orders WHERE pk = 'c1' AND sk = 'o1'"}]}`))
	if rs := out["Responses"].([]any); len(rs) != 1 || rs[0].(map[string]any)["Item"] == nil {
		t.Fatalf("the transaction's SELECT answered %v, want the inserted item", out)
	}
}
