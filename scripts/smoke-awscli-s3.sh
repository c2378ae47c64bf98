# Export and import through local bucket folders with the AWS CLI, sourced
# by scripts/smoke-awscli.sh (which builds $work/sortkey and defines the
# expect helpers of scripts/smoke-lib.sh). Two servers, one per form of
# --s3-dir: a folder of buckets, and one bucket mapped by name. On each, a
# table is exported to its point in time and the export imported into a
# new table, which must hold the same items.

# wait_status NAME QUERY WANT -- COMMAND...: runs the command until its
# output is WANT (a long-running job's status), at most 10 s.
wait_status() {
  local name=$1 want=$2 got; shift 3
  for _ in $(seq 1 100); do
    got=$("$@" 2>&1) || true
    [ "$got" = "$want" ] && break
    sleep 0.1
  done
  expect "$name" "$want" -- printf '%s' "$got"
}

# round_trip LABEL BUCKET ENDPOINT: exports a table of three items to
# BUCKET and imports it back as another table.
round_trip() {
  local label=$1 bucket=$2 ep=$3 arn export_arn import_arn
  s3ddb() { aws dynamodb --endpoint-url "$ep" "$@"; }
  s3ddb create-table --table-name Src --attribute-definitions AttributeName=pk,AttributeType=S \
    --key-schema AttributeName=pk,KeyType=HASH --billing-mode PAY_PER_REQUEST >/dev/null
  for k in a b c; do s3ddb put-item --table-name Src --item "{\"pk\":{\"S\":\"$k\"},\"v\":{\"N\":\"1\"}}"; done
  s3ddb update-continuous-backups --table-name Src \
    --point-in-time-recovery-specification PointInTimeRecoveryEnabled=true >/dev/null
  arn=$(s3ddb describe-table --table-name Src --query Table.TableArn --output text)
  export_arn=$(s3ddb export-table-to-point-in-time --table-arn "$arn" --s3-bucket "$bucket" --s3-prefix snap \
    --query ExportDescription.ExportArn --output text)
  wait_status "$label-export" COMPLETED -- \
    s3ddb describe-export --export-arn "$export_arn" --query ExportDescription.ExportStatus --output text
  import_arn=$(s3ddb import-table --input-format DYNAMODB_JSON --input-compression-type GZIP \
    --s3-bucket-source "S3Bucket=$bucket,S3KeyPrefix=snap/AWSDynamoDB/${export_arn##*/}/data/" \
    --table-creation-parameters 'TableName=Copy,AttributeDefinitions=[{AttributeName=pk,AttributeType=S}],KeySchema=[{AttributeName=pk,KeyType=HASH}],BillingMode=PAY_PER_REQUEST' \
    --query ImportTableDescription.ImportArn --output text)
  wait_status "$label-import" COMPLETED -- \
    s3ddb describe-import --import-arn "$import_arn" --query ImportTableDescription.ImportStatus --output text
  expect "$label-round-trip" "a,b,c" -- \
    s3ddb scan --table-name Copy --query 'join(`,`, sort(Items[].pk.S))' --output text
}

mkdir -p "$work/buckets/exp" "$work/one"
start_server s3_root_endpoint "$work/s3root" --in-memory --s3-dir "$work/buckets"
round_trip s3-dir-root exp "$s3_root_endpoint"
start_server s3_named_endpoint "$work/s3named" --in-memory --s3-dir "named=$work/one"
round_trip s3-dir-named named "$s3_named_endpoint"
