package awscli

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestParseReadsTheCommandAsTheCLISendsIt(t *testing.T) {
	for _, tc := range []struct {
		line, op, request string
		paging            Paging
	}{
		{line: `aws dynamodb query --table-name Shop --index-name GSI1 --key-condition-expression '#pk = :pk' ` +
			`--expression-attribute-names '{"#pk":"gsi1pk"}' --expression-attribute-values '{":pk":{"S":"STATUS#open"}}' --no-scan-index-forward`,
			op: "Query", request: `{"ExpressionAttributeNames":{"#pk":"gsi1pk"},"ExpressionAttributeValues":{":pk":{"S":"STATUS#open"}},` +
				`"IndexName":"GSI1","KeyConditionExpression":"#pk = :pk","ScanIndexForward":false,"TableName":"Shop"}`},
		{line: "aws dynamodb get-item \\\n  --table-name Shop \\\r\n  --key \"{\\\"pk\\\": {\\\"S\\\": \\\"a\\\\\\\\b\\\"}}\" --consistent-read",
			op: "GetItem", request: `{"ConsistentRead":true,"Key":{"pk":{"S":"a\\b"}},"TableName":"Shop"}`},
		{line: `aws dynamodb scan --table-name=Shop --segment 1 --total-segments 4 --select COUNT --region eu-west-1 --output json --no-cli-pager`,
			op: "Scan", request: `{"Segment":1,"Select":"COUNT","TableName":"Shop","TotalSegments":4}`},
		{line: `aws --profile dev --region us-east-1 dynamodb get-item --table-name T --key '{"n":{"N":"1.50"}}' --attributes-to-get a b --no-consistent-read`,
			op: "GetItem", request: `{"AttributesToGet":["a","b"],"ConsistentRead":false,"Key":{"n":{"N":"1.50"}},"TableName":"T"}`},
		{line: `aws dynamodb query --table-name T --key-condition-expression 'pk = :p' --expression-attribute-values '{":p":{"S":"x"}}' --max-items 5 --page-size 2 --starting-token abc`,
			op: "Query", request: `{"ExpressionAttributeValues":{":p":{"S":"x"}},"KeyConditionExpression":"pk = :p","TableName":"T"}`,
			paging: Paging{MaxItems: 5, PageSize: 2, StartingToken: "abc"}},
		{line: `aws dynamodb scan --table-name T --limit 10`, op: "Scan", request: `{"Limit":10,"TableName":"T"}`, paging: Paging{Off: true}},
		{line: `aws dynamodb scan --table-name T --no-paginate`, op: "Scan", request: `{"TableName":"T"}`, paging: Paging{Off: true}},
		{line: `aws dynamodb execute-statement --statement "SELECT * FROM \"T\" WHERE pk = ?" --parameters '[{"S":"a"}]'`,
			op: "ExecuteStatement", request: `{"Parameters":[{"S":"a"}],"Statement":"SELECT * FROM \"T\" WHERE pk = ?"}`},
		{line: `aws dynamodb batch-execute-statement --statements '[{"Statement":"SELECT * FROM T"}]'`,
			op: "BatchExecuteStatement", request: `{"Statements":[{"Statement":"SELECT * FROM T"}]}`},
		{line: `aws dynamodb execute-transaction --transact-statements '[{"Statement":"DELETE FROM T WHERE pk = 1"}]' --client-request-token t1`,
			op: "ExecuteTransaction", request: `{"ClientRequestToken":"t1","TransactStatements":[{"Statement":"DELETE FROM T WHERE pk = 1"}]}`},
		{line: `aws dynamodb update-item --table-name T --key '{"pk":{"S":"a"}}' --update-expression 'ADD n :one' --expression-attribute-values '{":one":{"N":"1"}}' --return-values ALL_NEW`,
			op: "UpdateItem", request: `{"ExpressionAttributeValues":{":one":{"N":"1"}},"Key":{"pk":{"S":"a"}},"ReturnValues":"ALL_NEW","TableName":"T","UpdateExpression":"ADD n :one"}`},
		{line: `aws dynamodb put-item --cli-input-json '{"TableName":"T","Item":{"pk":{"S":"a"}}}' --return-consumed-capacity TOTAL`,
			op: "PutItem", request: `{"Item":{"pk":{"S":"a"}},"ReturnConsumedCapacity":"TOTAL","TableName":"T"}`},
		{line: `aws dynamodb batch-get-item --request-items '{"T":{"Keys":[{"pk":{"S":"a"}}]}}' # the two users`,
			op: "BatchGetItem", request: `{"RequestItems":{"T":{"Keys":[{"pk":{"S":"a"}}]}}}`},
		{line: `aws dynamodb transact-write-items --transact-items '[{"Delete":{"TableName":"T","Key":{"pk":{"S":""}}}}]'`,
			op: "TransactWriteItems", request: `{"TransactItems":[{"Delete":{"Key":{"pk":{"S":""}},"TableName":"T"}}]}`},
	} {
		cmd, err := Parse(tc.line)
		if err != nil {
			t.Errorf("%s: %v", tc.line, err)
			continue
		}
		got, _ := json.Marshal(cmd.Request)
		if cmd.Operation != tc.op || string(got) != tc.request || cmd.Paging != tc.paging {
			t.Errorf("%s\n got %s %s %+v\nwant %s %s %+v", tc.line, cmd.Operation, got, cmd.Paging, tc.op, tc.request, tc.paging)
		}
	}
}

func TestParseRefusesWhatTheCLIWouldNotSendHere(t *testing.T) {
	for line, want := range map[string]string{
		`aws s3 ls`:                        msgNotAWS,
		`dynamodb get-item --table-name T`: msgNotAWS,
		``:                                 msgNotAWS,
		`aws dynamodb`:                     msgNotAWS,
		`aws --regoin x dynamodb scan`:     `aws --regoin: not an option`,
		`aws dynamodb create-table --table-name T`:                             `aws dynamodb create-table: not a DynamoDB data command (one of batch-execute-statement, batch-get-item,`,
		`aws dynamodb get-item --tabel-name T`:                                 `aws dynamodb get-item: unknown option --tabel-name`,
		`aws dynamodb get-item --table-name T --key pk={S=a}`:                  `--key: the CLI's shorthand syntax (pk={S=a}) is not read; write the value as JSON`,
		`aws dynamodb put-item --table-name T --item file://item.json`:         `--item: file:// values are not read`,
		`aws dynamodb put-item --table-name T --item fileb://item.json`:        `--item: fileb:// values are not read`,
		`aws dynamodb query --table-name 'T --limit 1`:                         `unterminated single quote that starts at byte 32`,
		`aws dynamodb query --table-name "T --limit 1`:                         `unterminated double quote that starts at byte 32`,
		`aws dynamodb scan --table-name T | jq .Items`:                         `"|" at byte 33: one aws dynamodb command is run`,
		`aws dynamodb scan --table-name T > out.json`:                          `">" at byte 33`,
		`aws dynamodb scan --table-name $TABLE`:                                `"$" at byte 31: shell variables are not expanded`,
		`aws dynamodb scan --table-name "$TABLE"`:                              `"$" at byte 32: shell variables are not expanded`,
		`aws dynamodb scan --table-name T --limit ten`:                         `--limit takes a whole number, not "ten"`,
		`aws dynamodb scan --table-name T --max-items 2.5`:                     `--max-items takes a whole number, not "2.5"`,
		`aws dynamodb get-item --table-name T --consistent-read=true`:          `--consistent-read is a flag and takes no value (--no-consistent-read is false)`,
		`aws dynamodb get-item --table-name T --consistent-read true`:          `aws dynamodb get-item: unexpected word "true" where an option (--name) belongs`,
		`aws dynamodb get-item --key '{}' --table-name`:                        `--table-name needs a value`,
		`aws dynamodb get-item --table-name --key '{}'`:                        `--table-name needs a value`,
		`aws dynamodb get-item --table-name T --table-name U`:                  `--table-name is given twice`,
		`aws dynamodb query --scan-index-forward --no-scan-index-forward`:      `--no-scan-index-forward is given twice`,
		`aws dynamodb get-item --table-name T --max-items 2`:                   `aws dynamodb get-item: unknown option --max-items`,
		`aws dynamodb get-item --table-name T --key '{"pk":'`:                  `--key: invalid JSON: unexpected EOF`,
		`aws dynamodb get-item --table-name T --key '{"pk":{}} x'`:             `--key: more follows the JSON value`,
		`aws dynamodb get-item --table-name T --key abc`:                       `--key: invalid JSON: invalid character 'a'`,
		`aws dynamodb put-item --cli-input-json '{"TableName":"T","Bogus":1}'`: `--cli-input-json: want a JSON object of PutItem's parameters: unknown parameter Bogus`,
		`aws dynamodb scan --table-name T \`:                                   msgDangling,
	} {
		_, err := Parse(line)
		if err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("%s\n got %v\nwant %s...", line, err, want)
		}
	}
}

func TestWordsSplitsAsAShellDoes(t *testing.T) {
	for line, want := range map[string][]string{
		`a 'b c' "d \"e\" \x \\" f\ g`: {"a", "b c", `d "e" \x \`, "f g"},
		"a '' \"\" b":                  {"a", "", "", "b"},
		"a\\\nb c\"\\\nd\"":            {"ab", "cd"},
		"x'y'\"z\"  # tail | ; $":      {"xyz"},
		"a#b":                          {"a#b"},
		" \t\n":                        nil,
	} {
		got, err := Words(line)
		if err != nil || strings.Join(got, "|") != strings.Join(want, "|") || len(got) != len(want) {
			t.Errorf("Words(%q) = %q, %v; want %q", line, got, err, want)
		}
	}
}

// FuzzParse: no line panics; a line read gives a known operation and a
// request that encodes; the words, quoted again, read back the same.
func FuzzParse(f *testing.F) {
	for _, seed := range []string{
		`aws dynamodb query --table-name T --key-condition-expression '#pk = :pk' --expression-attribute-values '{":pk":{"S":"v"}}' --no-scan-index-forward`,
		"aws dynamodb get-item \\\n --table-name \"T\" --key '{\"pk\":{\"N\":\"1\"}}' --consistent-read",
		`aws dynamodb scan --table-name T --max-items 3 --page-size=1 --segment 0 --total-segments 2`,
		`aws dynamodb batch-write-item --request-items '{"T":[{"PutRequest":{"Item":{"pk":{"S":"a"}}}}]}'`,
		`aws dynamodb get-item --attributes-to-get '["a"]' --table-name T`,
		`aws dynamodb put-item --cli-input-json '{"TableName":"T"}'`,
		`aws dynamodb query --table-name 'T`, `a "b\`, `aws --region x dynamodb scan`,
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, line string) {
		if words, err := Words(line); err == nil {
			again, err := Words(quote(words))
			if err != nil || strings.Join(again, "\x00") != strings.Join(words, "\x00") || len(again) != len(words) {
				t.Fatalf("%q: words %q read back as %q, %v", line, words, again, err)
			}
		}
		cmd, err := Parse(line)
		if err != nil {
			return
		}
		if _, known := parameters[cmd.Operation]; !known {
			t.Fatalf("%q: operation %q", line, cmd.Operation)
		}
		if _, err := json.Marshal(cmd.Request); err != nil {
			t.Fatalf("%q: request does not encode: %v", line, err)
		}
	})
}

// quote writes words as a shell reads them back.
func quote(words []string) string {
	var q []string
	for _, w := range words {
		q = append(q, "'"+strings.ReplaceAll(w, "'", `'\''`)+"'")
	}
	return strings.Join(q, " ")
}
