#!/usr/bin/env bash
# Drives a real `sortkey serve` with the AWS CLI and fails on any difference
# from the expected output. Usage: scripts/smoke-awscli.sh [endpoint]
# Without an endpoint it builds sortkey, starts it in memory on a free port,
# and stops it at the end. The access-control checks
# (scripts/smoke-awscli-auth.sh) always run on a server of their own, started
# with --auth; the skewed-clock one needs faketime (Debian's faketime).
set -euo pipefail
cd "$(dirname "$0")/.."

export AWS_ACCESS_KEY_ID=smoke AWS_SECRET_ACCESS_KEY=smoke AWS_DEFAULT_REGION=us-east-1
export AWS_PAGER="" AWS_EC2_METADATA_DISABLED=true AWS_CONFIG_FILE=/dev/null AWS_SHARED_CREDENTIALS_FILE=/dev/null

work=$(mktemp -d)
. scripts/smoke-lib.sh
trap 'stop_servers; rm -rf "$work"' EXIT
go build -o "$work/sortkey" ./cmd/sortkey

endpoint=${1:-}
if [ -z "$endpoint" ]; then
  start_server endpoint "$work/plain" --in-memory
fi

# Blob parameters: CLI v1 takes them raw; v2 takes base64 unless told
# otherwise. Make both take raw bytes, so the expected output is one.
binary_flag=()
case "$(aws --version 2>&1)" in aws-cli/1.*) ;; *) binary_flag=(--cli-binary-format raw-in-base64-out) ;; esac
ddb() { aws dynamodb --endpoint-url "$endpoint" "${binary_flag[@]}" "$@"; }

item='{"Artist":{"S":"Acme"},"SongTitle":{"S":"Happy Day"},"Year":{"N":"2024.50"},"Genre":{"S":"Pop"},
"Tags":{"SS":["a","b"]},"Scores":{"NS":["1","2"]},"Blob":{"B":"AAEC"},"Blobs":{"BS":["AQ==","Ag=="]},
"Live":{"BOOL":true},"Nothing":{"NULL":true},"Info":{"M":{"x":{"L":[{"N":"1"},{"S":"two"}]}}}}'
key='{"Artist":{"S":"Acme"},"SongTitle":{"S":"Happy Day"}}'

expect create-table "Music	CREATING	Artist	SongTitle" -- \
  ddb create-table --table-name Music \
    --attribute-definitions AttributeName=Artist,AttributeType=S AttributeName=SongTitle,AttributeType=S \
      AttributeName=Genre,AttributeType=S AttributeName=Year,AttributeType=N \
    --key-schema AttributeName=Artist,KeyType=HASH AttributeName=SongTitle,KeyType=RANGE \
    --billing-mode PAY_PER_REQUEST \
    --global-secondary-indexes 'IndexName=ByGenre,KeySchema=[{AttributeName=Genre,KeyType=HASH}],Projection={ProjectionType=KEYS_ONLY}' \
    --local-secondary-indexes 'IndexName=ByYear,KeySchema=[{AttributeName=Artist,KeyType=HASH},{AttributeName=Year,KeyType=RANGE}],Projection={ProjectionType=ALL}' \
    --query 'TableDescription.[TableName,TableStatus,KeySchema[0].AttributeName,KeySchema[1].AttributeName]' --output text

expect describe-table "ACTIVE	ByGenre	ByYear	arn:aws:dynamodb:us-east-1:000000000000:table/Music" -- \
  ddb describe-table --table-name Music \
    --query 'Table.[TableStatus,GlobalSecondaryIndexes[0].IndexName,LocalSecondaryIndexes[0].IndexName,TableArn]' --output text

expect list-tables "TABLENAMES	Music" -- ddb list-tables --output text

expect put-item "" -- ddb put-item --table-name Music --item "$item"

expect get-item "Acme|Happy Day|2024.5|a,b|1,2|QUFFQw==|QVE9PQ==,QWc9PQ==|true|true|two" -- \
  ddb get-item --table-name Music --key "$key" --output text \
    --query 'Item.[Artist.S,SongTitle.S,Year.N,join(`,`,Tags.SS),join(`,`,Scores.NS),Blob.B,join(`,`,Blobs.BS),Live.BOOL,Nothing.NULL,Info.M.x.L[1].S] | join(`|`, [].to_string(@))'

expect update-item "2025.5	b" -- \
  ddb update-item --table-name Music --key "$key" --update-expression 'SET #y = #y + :one DELETE Tags :a' \
    --condition-expression 'attribute_exists(Artist)' --expression-attribute-names '{"#y":"Year"}' \
    --expression-attribute-values '{":one":{"N":"1"},":a":{"SS":["a"]}}' --return-values UPDATED_NEW \
    --query 'Attributes.[Year.N, join(`,`, Tags.SS)]' --output text

expect_error condition-failed ConditionalCheckFailedException -- \
  ddb put-item --table-name Music --item "$key" --condition-expression 'attribute_not_exists(Artist)'

expect item-count "1" -- ddb describe-table --table-name Music --query 'Table.ItemCount' --output text

expect delete-item "Acme" -- ddb delete-item --table-name Music --key "$key" --return-values ALL_OLD --query 'Attributes.Artist.S' --output text

expect get-deleted "" -- ddb get-item --table-name Music --key "$key" --output text

expect batch-write-item "0" -- \
  ddb batch-write-item --request-items '{"Music":[{"PutRequest":{"Item":{"Artist":{"S":"B"},"SongTitle":{"S":"1"},"Genre":{"S":"Jazz"}}}},{"PutRequest":{"Item":{"Artist":{"S":"B"},"SongTitle":{"S":"2"},"Genre":{"S":"Jazz"}}}}]}' \
    --query 'length(UnprocessedItems)' --output text

expect query-gsi "B,B" -- \
  ddb query --table-name Music --index-name ByGenre --key-condition-expression 'Genre = :g' \
    --expression-attribute-values '{":g":{"S":"Jazz"}}' --query 'join(`,`, Items[].Artist.S)' --output text

expect partiql-insert "0" -- \
  ddb execute-statement --statement "INSERT INTO \"Music\" VALUE {'Artist': 'P', 'SongTitle': 'q', 'Plays': 1}" \
    --query 'length(Items)' --output text

expect_error partiql-duplicate DuplicateItemException -- \
  ddb execute-statement --statement "INSERT INTO \"Music\" VALUE {'Artist': 'P', 'SongTitle': 'q'}"

expect partiql-update "2" -- \
  ddb execute-statement --statement "UPDATE \"Music\" SET Plays = Plays + 1 WHERE Artist = ? AND SongTitle = 'q' RETURNING ALL NEW *" \
    --parameters '[{"S":"P"}]' --query 'Items[0].Plays.N' --output text

expect partiql-select "B,B" -- \
  ddb execute-statement --statement "SELECT Artist FROM \"Music\" WHERE Artist = 'B' ORDER BY SongTitle DESC" \
    --query 'join(`,`, Items[].Artist.S)' --output text

expect partiql-delete "q" -- \
  ddb execute-statement --statement "DELETE FROM \"Music\" WHERE Artist = 'P' AND SongTitle = 'q' RETURNING ALL OLD *" \
    --query 'Items[0].SongTitle.S' --output text

expect partiql-batch "None	DuplicateItem" -- \
  ddb batch-execute-statement --statements "[{\"Statement\":\"INSERT INTO Music VALUE {'Artist': 'P', 'SongTitle': 'r'}\"},{\"Statement\":\"INSERT INTO Music VALUE {'Artist': 'P', 'SongTitle': 'r'}\"}]" \
    --query '[Responses[0].Error.Code || `None`, Responses[1].Error.Code]' --output text

expect_error partiql-transaction TransactionCanceledException -- \
  ddb execute-transaction --transact-statements "[{\"Statement\":\"DELETE FROM Music WHERE Artist = 'P' AND SongTitle = 'r'\"},{\"Statement\":\"INSERT INTO Music VALUE {'Artist': 'B', 'SongTitle': '1'}\"}]"

expect_error transaction-cancelled TransactionCanceledException -- \
  ddb transact-write-items --transact-items '[{"Put":{"TableName":"Music","Item":{"Artist":{"S":"C"},"SongTitle":{"S":"1"}}}},{"ConditionCheck":{"TableName":"Music","Key":{"Artist":{"S":"B"},"SongTitle":{"S":"1"}},"ConditionExpression":"attribute_not_exists(Artist)"}}]'

expect transact-get-items "B	2	0" -- \
  ddb transact-get-items --transact-items '[{"Get":{"TableName":"Music","Key":{"Artist":{"S":"B"},"SongTitle":{"S":"1"}}}},{"Get":{"TableName":"Music","Key":{"Artist":{"S":"C"},"SongTitle":{"S":"1"}}}}]' \
    --query '[Responses[0].Item.Artist.S, length(Responses), length(Responses[1])]' --output text

expect stream-table "NEW_IMAGE" -- \
  ddb create-table --table-name Events --attribute-definitions AttributeName=id,AttributeType=S \
    --key-schema AttributeName=id,KeyType=HASH --billing-mode PAY_PER_REQUEST \
    --stream-specification StreamEnabled=true,StreamViewType=NEW_IMAGE \
    --query 'TableDescription.StreamSpecification.StreamViewType' --output text
ddb put-item --table-name Events --item '{"id":{"S":"e1"}}' >/dev/null 2>&1 || true
streams() { aws dynamodbstreams --endpoint-url "$endpoint" "$@"; }
stream_arn=$(streams list-streams --table-name Events --query 'Streams[0].StreamArn' --output text 2>&1 || true)
shard_id=$(streams describe-stream --stream-arn "$stream_arn" --query 'StreamDescription.Shards[0].ShardId' --output text 2>&1 || true)
shard_it=$(streams get-shard-iterator --stream-arn "$stream_arn" --shard-id "$shard_id" --shard-iterator-type TRIM_HORIZON \
  --query ShardIterator --output text 2>&1 || true)
expect stream-records "INSERT	e1" -- \
  streams get-records --shard-iterator "$shard_it" --query 'Records[0].[eventName, dynamodb.NewImage.id.S]' --output text
ddb delete-table --table-name Events >/dev/null 2>&1 || true

expect_error wrong-key-type ValidationException -- ddb put-item --table-name Music --item '{"Artist":{"N":"1"},"SongTitle":{"S":"x"}}'
expect_error missing-key ValidationException -- ddb put-item --table-name Music --item '{"Artist":{"S":"a"}}'
expect_error unknown-table ResourceNotFoundException -- ddb get-item --table-name Nope --key "$key"

expect delete-table "Music	DELETING" -- ddb delete-table --table-name Music --query 'TableDescription.[TableName,TableStatus]' --output text
expect list-empty "" -- ddb list-tables --query 'TableNames[]' --output text

# Vector search. aws-cli 1.45 / botocore 1.43 (this machine, CI) predate it:
# no `search-vectors`, no --vector-indexes. botocore reads service models
# from the directories in AWS_DATA_PATH before its own, so when the CLI
# lacks the operation scripts/awscli-vector-model.py writes its DynamoDB
# model with the vector shapes added, and this section alone points
# AWS_DATA_PATH there. It runs with the `aws` command's own Python (the
# shebang of its script, behind a pyenv shim if there is one), whose
# botocore is the one to extend.
aws_python() {
  local script shebang
  script=$(command -v aws)
  if grep -q 'exec "$program"\|pyenv exec' "$script" 2>/dev/null && command -v pyenv >/dev/null; then
    script=$(pyenv which aws)
  fi
  shebang=$(head -1 "$script")
  case "$shebang" in '#!'*python*) echo "${shebang#'#!'}" ;; *) echo python3 ;; esac
}
saved_data_path=${AWS_DATA_PATH-}
if ! aws dynamodb search-vectors help >/dev/null 2>&1; then
  read -ra python <<<"$(aws_python)"
  if model_dir=$("${python[@]}" scripts/awscli-vector-model.py "$work/aws-data") && [ -n "$model_dir" ]; then
    export AWS_DATA_PATH="$model_dir${saved_data_path:+:$saved_data_path}"
  else
    fail vector-model "$(printf '\n  %s could not add SearchVectors to its botocore model' "${python[*]}")"
  fi
fi

book() { printf '{"id":{"S":"%s"},"shelf":{"S":"%s"},"emb":{"L":[{"N":"%s"},{"N":"%s"},{"N":"%s"}]}}' "$@"; }
expect vector-create-table "ByEmbedding	COSINE	3	emb" -- \
  ddb create-table --table-name Books \
    --attribute-definitions AttributeName=id,AttributeType=S AttributeName=shelf,AttributeType=S \
    --key-schema AttributeName=id,KeyType=HASH --billing-mode PAY_PER_REQUEST \
    --vector-indexes 'IndexName=ByEmbedding,VectorAttribute={AttributeName=emb},Dimensions=3,DistanceFunction=COSINE,Projection={ProjectionType=ALL},SearchSchema=[{AttributeName=shelf,SearchSchemaElementType=HASH}]' \
    --query 'TableDescription.VectorIndexes[0].[IndexName,DistanceFunction,Dimensions,VectorAttribute.AttributeName]' --output text
expect vector-describe "ACTIVE	HASH" -- \
  ddb describe-table --table-name Books \
    --query 'Table.VectorIndexes[0].[IndexStatus,SearchSchema[0].SearchSchemaElementType]' --output text
# a is the search vector itself, b nearly so, c at right angles; d is a
# twin of a on another shelf, which the condition leaves out.
for args in "a x 1 0 0" "b x 0.9 0.1 0" "c x 0 1 0" "d y 1 0 0"; do
  # shellcheck disable=SC2086 # one word per printf argument
  expect "vector-put-${args%% *}" "" -- ddb put-item --table-name Books --item "$(book $args)"
done
search() {
  ddb search-vectors --table-name Books --index-name ByEmbedding \
    --search-vector '[{"N":"1"},{"N":"0"},{"N":"0"}]' \
    --search-condition-expression 'shelf = :s' --expression-attribute-values '{":s":{"S":"x"}}' "$@"
}
# COSINE scores are 1 - cos: 0 for a, 1 - 0.9/sqrt(0.82) = 0.0061 for b.
expect vector-search "a,b	true	true" -- \
  search --top-k 2 --output text \
    --query '[join(`,`, SearchResults[].Item.id.S), to_string(SearchResults[0].Score <= `0.000001`), to_string(SearchResults[1].Score > `0.005` && SearchResults[1].Score < `0.008`)]'
expect_error_message vector-top-k-zero ValidationException "Provided TopK value is out of valid range" -- search --top-k 0
expect vector-delete-table "Books" -- ddb delete-table --table-name Books --query 'TableDescription.TableName' --output text
if [ -n "$saved_data_path" ]; then export AWS_DATA_PATH=$saved_data_path; else unset AWS_DATA_PATH; fi

# Access control: a second server, started with --auth.
. scripts/smoke-awscli-auth.sh

# Exports and imports through --s3-dir's bucket folders.
. scripts/smoke-awscli-s3.sh
. scripts/smoke-awscli-regions.sh

echo "smoke: $passes passed, $failures failed"
[ "$failures" -eq 0 ]
